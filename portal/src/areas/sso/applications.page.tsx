import { api, call } from '../../api/client.ts';
import { Page } from '../../shell/page.tsx';
import { PagedTable } from '../../ui/paged-table.tsx';

/** The tenant's applications, a page at a time (the admin API's limit and offset). */
export function ApplicationsPage() {
  return (
    <Page title="Applications" lead="OIDC clients registered for your tenant.">
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
          { key: 'id', header: 'Client ID', rowHeader: true, cell: (c) => <code>{c.client_id}</code> },
          { key: 'name', header: 'Application', cell: (c) => c.app_name ?? '' },
          { key: 'grants', header: 'Grant types', cell: (c) => (c.grant_type ?? []).join(', ') },
          { key: 'status', header: 'Status', cell: (c) => c.status },
        ]}
        empty="No applications yet."
      />
    </Page>
  );
}
