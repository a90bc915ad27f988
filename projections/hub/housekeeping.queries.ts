import { notificationStream } from '../../domain/hub/notification.decider.ts';
import type { ReadStore } from '../../infra/core/read-store.port.ts';
import { readModel } from '../core/read-model.ts';
import { DISPATCH_PROJECTION, type HubDueDoc } from './dispatch.projection.ts';
import { SNAPSHOTS_PROJECTION, type SnapshotUseDoc } from './snapshots.projection.ts';
import { SWEEP_PROJECTION } from './sweep.projection.ts';

/**
 * The read side housekeeping works on (commands/hub/housekeeping.job.ts, docs/hub.md#housekeeping):
 * - candidates: the tenant's notifications accepted before a time, from `hub.snapshots` `uses` (one row per
 *   accepted notification), in keyset pages on (AcceptedAt, id) so rows removed meanwhile shift nothing;
 * - readSide: the rows the hub's projections keep for one notification (its `uses` row, its messages' due
 *   items in `hub.dispatch`, its ExpiresAt in `hub.sweep` `expiries`), archived with it. The projections
 *   delete these, and its `hub.sweep` `open` and `hub.alerts` `outbox` rows (none for a completed
 *   notification), when they apply `NotificationHousekept`.
 */
export function createHousekeepingQueries(readStore: ReadStore) {
  const uses = readModel<SnapshotUseDoc>(readStore, SNAPSHOTS_PROJECTION, 'uses');
  const due = readModel<HubDueDoc>(readStore, DISPATCH_PROJECTION, 'due');
  const expiries = readModel<{ id: string; expiresAt: string }>(readStore, SWEEP_PROJECTION, 'expiries');
  return {
    async candidates(
      tenant: string,
      acceptedBefore: string,
      after: { NotificationId: string; AcceptedAt: string } | undefined,
      pageSize: number,
    ) {
      const range =
        after === undefined
          ? { AcceptedAt: { $lt: acceptedBefore } }
          : {
              $and: [
                { AcceptedAt: { $lt: acceptedBefore } },
                {
                  $or: [
                    { AcceptedAt: { $gt: after.AcceptedAt } },
                    { AcceptedAt: after.AcceptedAt, NotificationId: { $gt: after.NotificationId } },
                  ],
                },
              ],
            };
      const rows = await uses.find(
        { tenant, ...range },
        { sort: { AcceptedAt: 1, NotificationId: 1 }, limit: pageSize },
      );
      return rows.map((r) => ({ NotificationId: r.NotificationId, AcceptedAt: r.AcceptedAt }));
    },
    async readSide(tenant: string, notificationId: string, messageIds: string[]) {
      const use = await uses.get(`${tenant}/${notificationId}`);
      const items = messageIds.length === 0 ? [] : await due.find({ id: { $in: messageIds } });
      const expiry = await expiries.get(notificationStream(tenant, notificationId));
      return {
        [`${SNAPSHOTS_PROJECTION}.uses`]: use === null ? [] : [use],
        [`${DISPATCH_PROJECTION}.due`]: items,
        [`${SWEEP_PROJECTION}.expiries`]: expiry === null ? [] : [expiry],
      };
    },
    /** the tenants that have notifications on the read side (the CLI's --all-tenants) */
    async tenants(): Promise<string[]> {
      return (await uses.groupCount('tenant')).map((g) => String(g.key)).sort();
    },
  };
}

export type HousekeepingQueries = ReturnType<typeof createHousekeepingQueries>;
