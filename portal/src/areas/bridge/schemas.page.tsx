import { Link } from '@tanstack/react-router';
import { api, call } from '../../api/client.ts';
import { Page } from '../../shell/page.tsx';
import { PagedTable } from '../../ui/paged-table.tsx';
import { ADMIN, Time } from './ops.shared.tsx';

export type SchemaRow = {
  schemaId: string;
  tenant: string;
  platform: boolean;
  name: string;
  description?: string;
  bus?: string;
  versions: Array<{ version: string; createdAt: string }>;
  latestVersion: string | null;
  deleted: boolean;
  createdAt: string;
  updatedAt: string;
};

/** The schemas the tenant sees: its own and the platform's, a page at a time. */
export function SchemasPage() {
  return (
    <Page
      title="Schema registry"
      lead="OpenAPI 3.0 documents events are checked against at putEvent. Versions are immutable."
      actions={
        <Link to="/bridge/schemas/new" className="button button-primary">
          New schema
        </Link>
      }
    >
      <PagedTable<SchemaRow>
        caption="Schemas"
        captionHidden
        queryKey={['bridge', 'schemas']}
        fetchPage={async ({ offset, limit }, signal) => {
          const page = await call(api.bridge.GET(`${ADMIN}/schemas`, { params: { query: { offset, limit } }, signal }));
          return {
            items: (page.items ?? []) as unknown as SchemaRow[],
            ...(page.total !== undefined && { total: page.total }),
          };
        }}
        rowKey={(s) => s.schemaId}
        columns={[
          {
            key: 'name',
            header: 'Name',
            rowHeader: true,
            className: 'cell-wrap',
            cell: (s) => (
              <Link to="/bridge/schemas/$schemaId" params={{ schemaId: s.schemaId }}>
                {s.name}
              </Link>
            ),
          },
          { key: 'id', header: 'Schema ID', cell: (s) => <span className="mono">{s.schemaId}</span> },
          { key: 'owner', header: 'Owner', cell: (s) => (s.platform ? 'platform' : s.tenant) },
          { key: 'latest', header: 'Latest version', cell: (s) => s.latestVersion ?? '' },
          { key: 'versions', header: 'Versions', cell: (s) => s.versions.length },
          { key: 'updated', header: 'Changed', cell: (s) => <Time iso={s.updatedAt} /> },
        ]}
        empty="No schemas yet."
      />
    </Page>
  );
}
