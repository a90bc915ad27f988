import { Link } from '@tanstack/react-router';
import { api, call } from '../../api/client.ts';
import { PagedTable } from '../../ui/paged-table.tsx';
import { type HubPage, type SnapshotSummary, typed, when } from './hub-defs-api.ts';

/**
 * A version's configuration snapshots, newest first: the immutable configurations its sends were
 * accepted with (one is shared by every send while the configuration stays the same).
 */
export function SnapshotsSection({ definitionId }: { definitionId: string }) {
  return (
    <section className="hd-section" aria-labelledby="snapshots-title">
      <div className="hd-section-head">
        <h2 id="snapshots-title">Configuration snapshots</h2>
      </div>
      <p className="hd-muted">
        Captured at a send&apos;s acceptance; a change to the version, its context, rules, templates, services or
        channels makes the next send capture a new one. Accepted sends keep theirs.
      </p>
      <PagedTable<SnapshotSummary>
        caption={`Snapshots of ${definitionId}`}
        captionHidden
        queryKey={['hub', 'snapshots', definitionId]}
        pageSize={10}
        fetchPage={async ({ offset, limit }, signal) => {
          const page = await typed<HubPage<SnapshotSummary>>(
            call(
              api.hub.GET('/comm/v1/configuration-snapshots/list', {
                params: { query: { definitionId, pageNo: Math.floor(offset / limit) + 1, pageSize: limit } },
                signal,
              }),
            ),
          );
          return { items: page.Items, total: page.Total };
        }}
        rowKey={(s) => s.SnapshotId}
        columns={[
          {
            key: 'id',
            header: 'Snapshot',
            rowHeader: true,
            cell: (s) => (
              <Link to="/hub/snapshots/$id" params={{ id: s.SnapshotId }}>
                <code>{s.SnapshotId}</code>
              </Link>
            ),
          },
          { key: 'captured', header: 'Captured', cell: (s) => when(s.CapturedAt) },
        ]}
        empty="No snapshots yet: the first send of this version captures one."
      />
    </section>
  );
}
