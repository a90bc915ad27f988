import { useQuery } from '@tanstack/react-query';
import { getRouteApi, Link } from '@tanstack/react-router';
import { useState } from 'react';
import { AUDIT_ADMIN_SCOPE } from '../../../../domain/audit/audit.scopes.ts';
import { api, call } from '../../api/client.ts';
import { hasScopes, sessionQuery } from '../../api/session.ts';
import { targetTenant } from '../../api/target-tenant.ts';
import { Page } from '../../shell/page.tsx';
import { PagedTable } from '../../ui/paged-table.tsx';
import { V3 } from './audit-api.ts';
import { DownloadButton } from './download-button.tsx';
import { ModuleForm, TransactionForm } from './metadata-forms.tsx';
import { MetadataImport } from './metadata-import.tsx';
import './audit.css';

const route = getRouteApi('/audit/modules');

type Editing =
  | { kind: 'none' }
  | { kind: 'new-module' }
  | { kind: 'module'; module_name: string; description: string }
  | { kind: 'new-transaction' }
  | { kind: 'transaction'; transaction_name: string; transaction_vendor: string; description: string };

/**
 * The tenant's audit metadata: modules, each with its transactions (created, edited), and the spreadsheet
 * that carries them (import, export). The API acts on the signed-in tenant only (audit:admin).
 */
export function ModulesPage() {
  const session = useQuery(sessionQuery).data;
  const { module } = route.useSearch();
  const [editing, setEditing] = useState<Editing>({ kind: 'none' });
  const done = () => setEditing({ kind: 'none' });
  const other = targetTenant();

  if (!hasScopes(session, [AUDIT_ADMIN_SCOPE])) {
    return (
      <Page title="Modules and transactions">
        <p className="empty">Managing the audit metadata needs the role audit:admin; an administrator can give it.</p>
      </Page>
    );
  }
  return (
    <Page
      title="Modules and transactions"
      lead={`Records are written under a transaction of a module: the metadata of tenant ${session?.tenant ?? ''}.`}
      actions={
        <button type="button" className="button button-primary" onClick={() => setEditing({ kind: 'new-module' })}>
          New module
        </button>
      }
    >
      {other !== undefined && other !== session?.tenant && (
        <p className="audit-note" role="note">
          The audit metadata is managed by each tenant: this page shows your own tenant's ({session?.tenant}), not{' '}
          {other}'s.
        </p>
      )}
      {editing.kind === 'new-module' && <ModuleForm onDone={done} />}
      {editing.kind === 'module' && <ModuleForm existing={editing} onDone={done} />}
      <PagedTable
        caption="Modules"
        queryKey={['audit', 'modules', 'list']}
        paging="none"
        fetchPage={async (_r, signal) => ({
          items: (await call(api.audit.GET(`${V3}/modules`, { signal }))).items ?? [],
        })}
        rowKey={(m) => m.module_name ?? ''}
        columns={[
          {
            key: 'name',
            header: 'Module',
            rowHeader: true,
            cell: (m) => (
              <Link
                to="/audit/modules"
                search={((prev: Record<string, unknown>) => ({ ...prev, module: m.module_name })) as never}
                aria-current={m.module_name === module ? 'true' : undefined}
              >
                {m.module_name}
              </Link>
            ),
          },
          { key: 'description', header: 'Description', cell: (m) => m.description ?? '' },
          { key: 'count', header: 'Transactions', cell: (m) => m.transaction_count },
          {
            key: 'edit',
            header: 'Actions',
            cell: (m) => (
              <button
                type="button"
                className="button button-small"
                aria-label={`Edit module ${m.module_name}`}
                onClick={() =>
                  setEditing({ kind: 'module', module_name: m.module_name ?? '', description: m.description ?? '' })
                }
              >
                Edit
              </button>
            ),
          },
        ]}
        empty="No modules yet: create one, or import a spreadsheet."
      />
      {module !== undefined && <ModuleTransactions module={module} editing={editing} setEditing={setEditing} />}
      <section className="audit-sheet" aria-labelledby="audit-sheet-title">
        <h2 id="audit-sheet-title">Spreadsheet</h2>
        <DownloadButton
          label="Export metadata"
          formats={['xlsx', 'csv']}
          request={(format) => ({
            path: `${V3}/metadata/export?format=${format}`,
            method: 'GET',
            fallbackName: `audit-metadata.${format}`,
          })}
        />
        <MetadataImport />
      </section>
    </Page>
  );
}

function ModuleTransactions(props: { module: string; editing: Editing; setEditing: (e: Editing) => void }) {
  const { module, editing, setEditing } = props;
  const done = () => setEditing({ kind: 'none' });
  return (
    <section className="audit-transactions" aria-labelledby="audit-transactions-title">
      <div className="audit-results-head">
        <h2 id="audit-transactions-title">Transactions of {module}</h2>
        <button type="button" className="button" onClick={() => setEditing({ kind: 'new-transaction' })}>
          New transaction
        </button>
      </div>
      {editing.kind === 'new-transaction' && <TransactionForm module={module} onDone={done} />}
      {editing.kind === 'transaction' && <TransactionForm module={module} existing={editing} onDone={done} />}
      <PagedTable
        caption={`Transactions of ${module}`}
        captionHidden
        queryKey={['audit', 'modules', 'transactions', module]}
        paging="none"
        fetchPage={async (_r, signal) => ({
          items:
            (
              await call(
                api.audit.GET(`${V3}/modules/{module_name}/transactions`, {
                  params: { path: { module_name: module } },
                  signal,
                }),
              )
            ).items ?? [],
        })}
        rowKey={(t) => t.transaction_name ?? ''}
        columns={[
          { key: 'name', header: 'Transaction', rowHeader: true, cell: (t) => t.transaction_name },
          { key: 'vendor', header: 'Vendor', cell: (t) => t.transaction_vendor ?? '' },
          { key: 'description', header: 'Description', cell: (t) => t.description ?? '' },
          {
            key: 'edit',
            header: 'Actions',
            cell: (t) => (
              <button
                type="button"
                className="button button-small"
                aria-label={`Edit transaction ${t.transaction_name}`}
                onClick={() =>
                  setEditing({
                    kind: 'transaction',
                    transaction_name: t.transaction_name ?? '',
                    transaction_vendor: t.transaction_vendor ?? '',
                    description: t.description ?? '',
                  })
                }
              >
                Edit
              </button>
            ),
          },
        ]}
        empty="No transactions in this module yet."
      />
    </section>
  );
}
