import { Link } from '@tanstack/react-router';
import { api, call } from '../../api/client.ts';
import { Page } from '../../shell/page.tsx';
import { PagedTable } from '../../ui/paged-table.tsx';
import { ADMIN, Time } from './ops.shared.tsx';

export type DestinationRow = {
  name: string;
  description: string | null;
  urlTemplate: { url: string; variables?: Record<string, string> };
  method: string;
  connection: string | null;
  timeoutMs: number | null;
  createdAt: string;
  updatedAt: string;
};

/** The tenant's API destinations (an endpoint, its method and the connection that authenticates it), a page at a time. */
export function ApiDestinationsPage() {
  return (
    <Page
      title="API destinations"
      lead="HTTP endpoints rules deliver to, each with a connection for its authentication and a signing secret."
      actions={
        <Link to="/bridge/api-destinations/new" className="button button-primary">
          New API destination
        </Link>
      }
    >
      <PagedTable<DestinationRow>
        caption="API destinations"
        captionHidden
        queryKey={['bridge', 'api-destinations']}
        fetchPage={async ({ offset, limit }, signal) => {
          const page = await call(
            api.bridge.GET(`${ADMIN}/api-destinations`, { params: { query: { offset, limit } }, signal }),
          );
          return {
            items: (page.items ?? []) as unknown as DestinationRow[],
            ...(page.total !== undefined && { total: page.total }),
          };
        }}
        rowKey={(d) => d.name}
        columns={[
          {
            key: 'name',
            header: 'Name',
            rowHeader: true,
            cell: (d) => (
              <Link to="/bridge/api-destinations/$name" params={{ name: d.name }}>
                {d.name}
              </Link>
            ),
          },
          { key: 'method', header: 'Method', cell: (d) => d.method },
          {
            key: 'url',
            header: 'URL',
            className: 'cell-wrap',
            cell: (d) => <span className="mono">{d.urlTemplate.url}</span>,
          },
          { key: 'connection', header: 'Connection', cell: (d) => d.connection ?? 'none' },
          { key: 'updated', header: 'Changed', cell: (d) => <Time iso={d.updatedAt} /> },
        ]}
        empty="No API destinations yet."
      />
    </Page>
  );
}
