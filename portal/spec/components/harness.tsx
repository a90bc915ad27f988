// The shared building blocks on one page each (the location's hash picks it), for
// components.browser.spec.ts: a PagedTable over a fake API that the test releases page by page, a Form
// whose server refuses, a ConfirmDialog, a CopyButton. Built with Vite into a temporary folder.
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createMemoryHistory, createRootRoute, createRouter, RouterProvider } from '@tanstack/react-router';
import { type ReactNode, useRef, useState } from 'react';
import { createRoot } from 'react-dom/client';
import { ApiError } from '../../src/api/errors.ts';
import { ConfirmDialog } from '../../src/ui/confirm-dialog.tsx';
import { CopyButton } from '../../src/ui/copy-button.tsx';
import { Form, TextField, useApiForm } from '../../src/ui/form.tsx';
import { PagedTable, type PageRequest } from '../../src/ui/paged-table.tsx';
import { StatusProvider } from '../../src/ui/status.tsx';
import '../../src/styles/base.css';
import '../../src/styles/shell.css';
import '../../src/styles/ui.css';

type Row = { id: string; name: string };
const ROWS: Row[] = Array.from({ length: 45 }, (_, i) => ({
  id: `r${i + 1}`,
  name: `item ${String(i + 1).padStart(2, '0')}`,
}));

declare global {
  interface Window {
    /** answers the page requests waiting so far */
    releasePages(): number;
    /** the page requests made so far */
    pageRequests: PageRequest[];
  }
}
const waiting: Array<() => void> = [];
window.pageRequests = [];
window.releasePages = () => {
  const n = waiting.length;
  for (const release of waiting.splice(0)) release();
  return n;
};

function Tables() {
  return (
    <main>
      <h1>Tables</h1>
      <PagedTable<Row>
        caption="Things"
        queryKey={['things']}
        pageSize={20}
        fetchPage={async (request) => {
          window.pageRequests.push(request);
          await new Promise<void>((resolve) => waiting.push(resolve));
          const sorted = request.sort?.direction === 'desc' ? [...ROWS].reverse() : ROWS;
          return { items: sorted.slice(request.offset, request.offset + request.limit), total: ROWS.length };
        }}
        columns={[
          { key: 'name', header: 'Name', sortKey: 'name', rowHeader: true, cell: (r) => r.name },
          { key: 'id', header: 'Id', cell: (r) => r.id },
        ]}
        rowKey={(r) => r.id}
      />
      <PagedTable<Row>
        caption="Refused"
        queryKey={['refused']}
        fetchPage={async () => {
          throw new ApiError(403, 'AUTH.INSUFFICIENT_SCOPE', 'the access token lacks the scope bridge:admin');
        }}
        columns={[{ key: 'name', header: 'Name', cell: (r) => r.name }]}
        rowKey={(r) => r.id}
      />
      <PagedTable<Row>
        caption="Empty"
        queryKey={['empty']}
        fetchPage={async () => ({ items: [], total: 0 })}
        columns={[{ key: 'name', header: 'Name', cell: (r) => r.name }]}
        rowKey={(r) => r.id}
        empty="No things yet."
      />
    </main>
  );
}

function Forms() {
  const [saved, setSaved] = useState('');
  const form = useApiForm({
    initial: { name: '', url: '' },
    submit: async (v) => {
      if (v.url.startsWith('https://')) return v;
      throw new ApiError(400, 'TARGET.INVALID', 'invalid target: url must be an https URL', [
        { in: 'body', field: 'url', message: 'must be an https URL', keyword: 'pattern' },
        { in: 'body', field: 'retry.attempts', message: 'must be at most 10', keyword: 'maximum' },
      ]);
    },
    onSuccess: (v) => setSaved(`saved ${v.name}`),
  });
  return (
    <main>
      <h1>Forms</h1>
      <Form form={form} submitLabel="Save target">
        <TextField form={form} name="name" label="Name" required />
        <TextField form={form} name="url" label="URL" hint="Where the target delivers (https)" type="url" />
      </Form>
      <p id="saved">{saved}</p>
    </main>
  );
}

function Dialogs() {
  const [open, setOpen] = useState(false);
  const [result, setResult] = useState('');
  const opener = useRef<HTMLButtonElement>(null);
  return (
    <main>
      <h1>Dialogs</h1>
      <button ref={opener} type="button" className="button" onClick={() => setOpen(true)}>
        Delete bus
      </button>
      {open && (
        <ConfirmDialog
          title="Delete bus orders?"
          confirmLabel="Delete"
          danger
          onCancel={() => {
            setOpen(false);
            setResult('cancelled');
          }}
          onConfirm={() => {
            setOpen(false);
            setResult('deleted');
          }}
        >
          <p>Its rules stop delivering.</p>
        </ConfirmDialog>
      )}
      <p id="result">{result}</p>
      <p>
        Client secret <code>s3cr3t-shown-once</code> <CopyButton value="s3cr3t-shown-once" label="Copy secret" />
      </p>
    </main>
  );
}

const FIXTURES: Record<string, () => ReactNode> = { tables: Tables, forms: Forms, dialogs: Dialogs };
const Fixture = FIXTURES[window.location.hash.slice(1)] ?? Tables;
const router = createRouter({ routeTree: createRootRoute({ component: Fixture }), history: createMemoryHistory() });
createRoot(document.getElementById('root')!).render(
  <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
    <StatusProvider>
      <RouterProvider router={router} />
    </StatusProvider>
  </QueryClientProvider>,
);
