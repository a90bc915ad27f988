import { useQuery } from '@tanstack/react-query';
import { Link, useParams } from '@tanstack/react-router';
import { api, call } from '../../api/client.ts';
import { Page } from '../../shell/page.tsx';
import { ApiErrorView } from '../../ui/api-error.tsx';
import { PagedTable } from '../../ui/paged-table.tsx';
import { type HubPage, pretty, type Snapshot, type SnapshotUse, typed, when } from './hub-defs-api.ts';
import { SnapshotContent } from './snapshot-content.tsx';
import './hub-defs.css';
import { ScrollRegion } from '../../ui/scroll-region.tsx';

/**
 * One configuration snapshot: the configuration a send was accepted with, section by section (and as
 * the API answers it), and the notifications accepted with it, newest first, each leading to its page.
 */
export function SnapshotPage() {
  const { id } = useParams({ strict: false }) as { id: string };
  const query = useQuery({
    queryKey: ['hub', 'snapshot', id],
    queryFn: ({ signal }) =>
      typed<Snapshot>(
        call(
          api.hub.GET('/comm/v1/configuration-snapshots/getById', { params: { query: { snapshotId: id } }, signal }),
        ),
      ),
  });
  const s = query.data;
  return (
    <Page
      title={`Snapshot ${id}`}
      lead={
        s === undefined ? (
          query.isError ? undefined : (
            'Loading…'
          )
        ) : (
          <>
            Captured {when(s.CapturedAt)} for{' '}
            <Link to="/hub/definitions/$id" params={{ id: s.DefinitionId }}>
              {s.NotificationCode} v{s.Version}
            </Link>
            ; immutable, kept forever.
          </>
        )
      }
    >
      {/* the title carries the snapshot's 37-character id: it may break anywhere on a phone */}
      <span className="hd-long-title" hidden />
      {query.isError && <ApiErrorView error={query.error} onRetry={() => void query.refetch()} />}
      {s !== undefined && (
        <>
          <Notifications snapshotId={id} />
          <SnapshotContent content={s.Content} />
          <details className="hd-raw">
            <summary>The snapshot as the API answers it</summary>
            <ScrollRegion label="The snapshot's JSON" className="hd-json-scroll">
              <pre className="hd-json">{pretty(s)}</pre>
            </ScrollRegion>
          </details>
        </>
      )}
    </Page>
  );
}

function Notifications({ snapshotId }: { snapshotId: string }) {
  return (
    <section className="hd-section" aria-labelledby="uses-title">
      <h2 id="uses-title" className="hd-part-title">
        Notifications accepted with it
      </h2>
      <PagedTable<SnapshotUse>
        caption="Notifications accepted with this snapshot"
        captionHidden
        queryKey={['hub', 'snapshot-uses', snapshotId]}
        pageSize={10}
        fetchPage={async ({ offset, limit }, signal) => {
          const page = await typed<HubPage<SnapshotUse>>(
            call(
              api.hub.GET('/comm/v1/configuration-snapshots/notifications', {
                params: { query: { snapshotId, pageNo: Math.floor(offset / limit) + 1, pageSize: limit } },
                signal,
              }),
            ),
          );
          return { items: page.Items, total: page.Total };
        }}
        rowKey={(n) => n.NotificationId}
        columns={[
          {
            key: 'id',
            header: 'Notification',
            rowHeader: true,
            cell: (n) => (
              <Link to="/hub/notifications/$id" params={{ id: n.NotificationId }}>
                <code>{n.NotificationId}</code>
              </Link>
            ),
          },
          { key: 'request', header: 'Request', cell: (n) => <code>{n.RequestId}</code> },
          { key: 'accepted', header: 'Accepted', cell: (n) => when(n.AcceptedAt) },
        ]}
        empty="No notification accepted with it is left (housekeeping removes completed ones)."
      />
    </section>
  );
}
