import { Link } from '@tanstack/react-router';
import { api, call } from '../../api/client.ts';
import { Page } from '../../shell/page.tsx';
import { PagedTable } from '../../ui/paged-table.tsx';
import { AUTH_LABELS, type AuthView, secretSet } from './connection-auth.ts';
import { ADMIN, Time } from './ops.shared.tsx';

export type ConnectionRow = {
  name: string;
  description: string | null;
  auth: AuthView;
  createdAt: string;
  updatedAt: string;
};

/** The tenant's connections (how API destinations authenticate), a page at a time; secrets read "set" or "not set". */
export function ConnectionsPage() {
  return (
    <Page
      title="Connections"
      lead="The authentication API destinations use. Secrets are write-only: never shown after saving."
      actions={
        <Link to="/bridge/connections/new" className="button button-primary">
          New connection
        </Link>
      }
    >
      <PagedTable<ConnectionRow>
        caption="Connections"
        captionHidden
        queryKey={['bridge', 'connections']}
        fetchPage={async ({ offset, limit }, signal) => {
          const page = await call(
            api.bridge.GET(`${ADMIN}/connections`, { params: { query: { offset, limit } }, signal }),
          );
          return {
            items: (page.items ?? []) as unknown as ConnectionRow[],
            ...(page.total !== undefined && { total: page.total }),
          };
        }}
        rowKey={(c) => c.name}
        columns={[
          {
            key: 'name',
            header: 'Name',
            rowHeader: true,
            cell: (c) => (
              <Link to="/bridge/connections/$name" params={{ name: c.name }}>
                {c.name}
              </Link>
            ),
          },
          {
            key: 'kind',
            header: 'Authentication',
            cell: (c) => (c.auth.kind !== undefined ? AUTH_LABELS[c.auth.kind] : ''),
          },
          { key: 'secret', header: 'Secret', cell: (c) => (secretSet(c.auth) ? 'set' : 'not set') },
          { key: 'description', header: 'Description', className: 'cell-wrap', cell: (c) => c.description ?? '' },
          { key: 'updated', header: 'Changed', cell: (c) => <Time iso={c.updatedAt} /> },
        ]}
        empty="No connections yet."
      />
    </Page>
  );
}
