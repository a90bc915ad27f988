import { useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import { useState } from 'react';
import { api, call } from '../../api/client.ts';
import { Page } from '../../shell/page.tsx';
import { Form, TextField, useApiForm } from '../../ui/form.tsx';
import { PagedTable } from '../../ui/paged-table.tsx';
import { useStatus } from '../../ui/status.tsx';
import { ADMIN, type Bus } from './bridge-api.ts';
import { updateCachedLists, upsert } from './list-cache.ts';
import './bridge.css';

const BUSES = '/api/platform/platform-pub/eventBridge/admin/v1/buses';

/** The tenant's custom buses and the platform's (the API answers the whole list: no paging), and a new custom bus. */
export function BusesPage() {
  const [creating, setCreating] = useState(false);
  return (
    <Page
      title="Event buses"
      lead="Events are published to a bus; its rules route them to targets."
      actions={
        !creating && (
          <button type="button" className="button button-primary" onClick={() => setCreating(true)}>
            Create bus
          </button>
        )
      }
    >
      {creating && <CreateBus onDone={() => setCreating(false)} />}
      <PagedTable
        caption="Event buses"
        captionHidden
        queryKey={['bridge', 'buses']}
        paging="none"
        fetchPage={async (_request, signal) => ({ items: (await call(api.bridge.GET(BUSES, { signal }))).items ?? [] })}
        rowKey={(b) => `${b.tenant ?? ''}/${b.name ?? ''}`}
        columns={[
          {
            key: 'name',
            header: 'Name',
            rowHeader: true,
            cell: (b) => (
              <Link to="/bridge/buses/$bus" params={{ bus: b.name ?? '' }}>
                {b.name}
              </Link>
            ),
          },
          { key: 'kind', header: 'Kind', cell: (b) => b.kind },
          { key: 'tenant', header: 'Owner', cell: (b) => b.tenant },
          { key: 'description', header: 'Description', cell: (b) => b.description ?? '' },
        ]}
        empty="No event buses yet."
      />
    </Page>
  );
}

function CreateBus({ onDone }: { onDone: () => void }) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const notify = useStatus();
  const form = useApiForm({
    initial: { name: '', description: '' },
    submit: (v) =>
      call(
        api.bridge.POST(`${ADMIN}/buses`, {
          body: { name: v.name, ...(v.description.trim() !== '' && { description: v.description }) },
        }),
      ),
    onSuccess: async (bus) => {
      notify({ kind: 'success', text: `Bus ${bus.name} created` });
      updateCachedLists<Bus>(
        queryClient,
        ['bridge', 'buses'],
        upsert(bus, (b) => b.name),
      );
      onDone();
      await navigate({ to: '/bridge/buses/$bus', params: { bus: bus.name ?? '' } });
    },
  });
  return (
    <section className="panel" aria-labelledby="create-bus-title">
      <h2 id="create-bus-title" className="panel-title">
        Create a custom bus
      </h2>
      <Form
        form={form}
        submitLabel="Create bus"
        busyLabel="Creating…"
        actions={
          <button type="button" className="button" onClick={onDone}>
            Cancel
          </button>
        }
      >
        <TextField
          form={form}
          name="name"
          label="Name"
          required
          hint="Letters, digits, dot, underscore and hyphen; platform, platform-* and baseline-* are the platform's."
        />
        <TextField form={form} name="description" label="Description" />
      </Form>
    </section>
  );
}
