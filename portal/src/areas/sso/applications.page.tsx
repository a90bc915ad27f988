import { Link } from '@tanstack/react-router';
import { api, call } from '../../api/client.ts';
import { Page } from '../../shell/page.tsx';
import { PagedTable } from '../../ui/paged-table.tsx';
import { platformManaged } from './platform-clients.ts';
import { StatusBadge } from './status-badge.tsx';
import './sso.css';

/** The tenant's applications, a page at a time (the admin API's limit and offset). */
export function ApplicationsPage() {
  return (
    <Page
      title="Applications"
      lead="OIDC clients registered for your tenant."
      actions={
        <Link to="/sso/applications/new" className="button button-primary">
          Register application
        </Link>
      }
    >
      <PagedTable
        caption="Applications"
        captionHidden
        queryKey={['identity', 'clients']}
        fetchPage={async ({ offset, limit }, signal) => {
          const page = await call(
            api.identity.GET('/cas/admin/v1/clients', { params: { query: { offset, limit } }, signal }),
          );
          return { items: page.items ?? [], ...(page.total !== undefined && { total: page.total }) };
        }}
        rowKey={(c) => c.client_id ?? ''}
        columns={[
          {
            key: 'id',
            header: 'Client ID',
            rowHeader: true,
            className: 'id-cell',
            cell: (c) => (
              <Link to="/sso/applications/$clientId" params={{ clientId: c.client_id ?? '' }}>
                <code>{c.client_id}</code>
              </Link>
            ),
          },
          {
            key: 'name',
            header: 'Application',
            cell: (c) => (
              <>
                {c.app_name ?? ''}
                {platformManaged(c.client_id ?? '', c.tenant_code ?? '') !== undefined && (
                  <>
                    {' '}
                    <span className="badge">managed by the platform</span>
                  </>
                )}
              </>
            ),
          },
          { key: 'grants', header: 'Grant types', cell: (c) => (c.grant_type ?? []).join(', ') },
          { key: 'status', header: 'Status', cell: (c) => <StatusBadge status={c.status} /> },
        ]}
        empty="No applications yet."
      />
    </Page>
  );
}
