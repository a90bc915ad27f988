import { fold } from '../../domain/core/decider.ts';
import { isDomainError } from '../../domain/core/domain-error.ts';
import { hubError } from '../../domain/hub/hub.errors.ts';
import { type Live, notificationDecider, notificationStream } from '../../domain/hub/notification.decider.ts';
import { type HousekeepingReason, housekeepingVerdict } from '../../domain/hub/notification.housekeeping.ts';
import type { NotificationEvent } from '../../domain/hub/notification.model.ts';
import type { Clock } from '../../infra/core/clock.port.ts';
import type { EventStore } from '../../infra/core/event-store.port.ts';
import { isWrongExpectedRevision } from '../../infra/core/store-errors.ts';
import { commandHandler } from '../core/command-handler.ts';
import { type HubSettings, numberSetting, SETTING } from './hub.contracts.ts';

/**
 * The housekeeping job (spec "Housekeeping (batch job)"; docs/hub.md#housekeeping): removes eligible completed
 * notifications of a tenant from the read side, archiving them first when asked.
 *
 * - Retention: the parameter `days`, else the tenant's `comm.hub.housekeeping.retention-days` (configuration
 *   center: tenant, platform tenant, then HUB_HOUSEKEEPING_RETENTION_DAYS, default 90); -1 disables the job.
 *   A notification is a candidate when it was accepted before the cutoff (now − days); it is eligible when
 *   it is completed and its last change is before the cutoff too, with no active attempt, pending retry or
 *   uncertain outcome (domain/hub/notification.housekeeping.ts).
 * - Dry run by default: the report lists what would be removed and what is kept, and changes nothing.
 * - A real run archives the page's eligible notifications first (`archiveBeforeDelete`: the archive port
 *   writes them durably, one JSON line each), then appends `NotificationHousekept` to each one's stream
 *   with the revision the verdict was made on: a notification that changed meanwhile is kept (CHANGED).
 *   Every projection keeping rows of the notification deletes them when it applies the event (hub.dispatch
 *   `due`, hub.sweep `open` and `expiries`, hub.snapshots `uses`, hub.alerts `outbox`: so a rebuild removes
 *   them again); the job deletes its alerts' publication records just before. The views a user reads from
 *   the stream (send-request progress, message detail, timeline) answer 404 "housekept at …" from then on.
 *   The event log itself is never deleted: a send replay of its RequestId keeps its idempotency answer.
 * - Paging: candidates are read `pageSize` at a time (keyset on AcceptedAt, NotificationId); `limit` caps
 *   the notifications removed (or, in a dry run, reported as removable) in one run.
 */
export type HousekeepingParams = {
  days?: number;
  dryRun?: boolean;
  archiveBeforeDelete?: boolean;
  pageSize?: number;
  limit?: number;
};

export type HousekeepingCandidate = { NotificationId: string; AcceptedAt: string };

export type HousekeepingPorts = {
  /** notifications of the tenant accepted before `acceptedBefore`, ordered by (AcceptedAt, NotificationId), after `after` */
  candidates(
    tenant: string,
    acceptedBefore: string,
    after: HousekeepingCandidate | undefined,
    pageSize: number,
  ): Promise<HousekeepingCandidate[]>;
  /** the read-model rows kept for a notification (what the removal deletes), by collection */
  readSide(tenant: string, notificationId: string, messageIds: string[]): Promise<Record<string, unknown[]>>;
  /** writes archive records durably (one JSON line each); answers where they went */
  archive(tenant: string, records: object[]): Promise<string>;
  /** deletes the publication records of these alerts (`hub_alert_publications`, commands/hub/alert.publisher.ts) */
  forgetAlerts(alertIds: string[]): Promise<void>;
};

export type HousekeepingDeps = HousekeepingPorts & {
  eventStore: EventStore;
  clock: Clock;
  settings: HubSettings;
  defaultRetentionDays: number;
};

export type HousekeepingReport = {
  Tenant: string;
  DryRun: boolean;
  Disabled: boolean;
  RetentionDays: number;
  RetentionSource: 'PARAMETER' | 'CONFIGURATION';
  Cutoff?: string;
  Scanned: number;
  /** removed (a real run) or removable (a dry run) */
  Removed: Array<{ NotificationId: string; RequestId: string; CompletedAt: string }>;
  /** candidates kept, by reason (CHANGED: it changed between the check and the removal) */
  Kept: Partial<Record<HousekeepingReason | 'CHANGED', number>>;
  /** the first kept candidates with their reason (at most 100) */
  KeptSample: Array<{ NotificationId: string; Reason: HousekeepingReason | 'CHANGED' }>;
  ArchivedTo?: string[];
  /** the limit stopped the run before the candidates ran out */
  LimitReached: boolean;
};

/** the longest retention a setting may name (the bound infra/hub/hub.config.ts puts on HUB_HOUSEKEEPING_RETENTION_DAYS) */
export const MAX_RETENTION_DAYS = 36_500;

export const HOUSEKEEPING_DEFAULTS = { pageSize: 100, limit: 1000, maxPageSize: 1000, maxLimit: 100_000 } as const;

export function createHousekeepingJob(deps: HousekeepingDeps) {
  const { eventStore, clock } = deps;
  const handle = commandHandler(eventStore, notificationDecider);

  async function retention(
    tenant: string,
    days: number | undefined,
  ): Promise<{ days: number; source: HousekeepingReport['RetentionSource'] }> {
    if (days !== undefined) return { days, source: 'PARAMETER' };
    // a configured value that is not a retention (-1, or 0 to 36 500 days as HUB_HOUSEKEEPING_RETENTION_DAYS) is ignored, like other numeric settings
    return {
      days: await numberSetting(
        deps.settings,
        tenant,
        SETTING.housekeepingRetentionDays,
        deps.defaultRetentionDays,
        -1,
        MAX_RETENTION_DAYS,
      ),
      source: 'CONFIGURATION',
    };
  }

  async function run(tenant: string, params: HousekeepingParams = {}): Promise<HousekeepingReport> {
    const problems: string[] = [];
    if (params.days !== undefined && (!Number.isInteger(params.days) || params.days < -1))
      problems.push('days must be -1 (disabled) or a whole number of days ≥ 0');
    const pageSize = params.pageSize ?? HOUSEKEEPING_DEFAULTS.pageSize;
    const limit = params.limit ?? HOUSEKEEPING_DEFAULTS.limit;
    if (!Number.isInteger(pageSize) || pageSize < 1 || pageSize > HOUSEKEEPING_DEFAULTS.maxPageSize)
      problems.push(`pageSize must be 1 to ${HOUSEKEEPING_DEFAULTS.maxPageSize}`);
    if (!Number.isInteger(limit) || limit < 1 || limit > HOUSEKEEPING_DEFAULTS.maxLimit)
      problems.push(`limit must be 1 to ${HOUSEKEEPING_DEFAULTS.maxLimit}`);
    if (problems.length > 0) throw hubError('HOUSEKEEPING.INVALID', problems.join('; '), { problems });

    const dryRun = params.dryRun ?? true;
    const r = await retention(tenant, params.days);
    const report: HousekeepingReport = {
      Tenant: tenant,
      DryRun: dryRun,
      Disabled: r.days === -1,
      RetentionDays: r.days,
      RetentionSource: r.source,
      Scanned: 0,
      Removed: [],
      Kept: {},
      KeptSample: [],
      LimitReached: false,
    };
    if (report.Disabled) return report;
    const now = clock.now().toISOString();
    const cutoff = new Date(Date.parse(now) - r.days * 86_400_000).toISOString();
    report.Cutoff = cutoff;

    const keep = (NotificationId: string, Reason: HousekeepingReason | 'CHANGED') => {
      report.Kept[Reason] = (report.Kept[Reason] ?? 0) + 1;
      if (report.KeptSample.length < 100) report.KeptSample.push({ NotificationId, Reason });
    };

    let after: HousekeepingCandidate | undefined;
    for (;;) {
      const page = await deps.candidates(tenant, cutoff, after, pageSize);
      if (page.length === 0) break;
      after = page[page.length - 1];
      const eligible: Array<{ state: Live; revision: number; completedAt: string; alertIds: string[] }> = [];
      for (const c of page) {
        if (report.Removed.length + eligible.length >= limit) {
          report.LimitReached = true;
          break;
        }
        report.Scanned++;
        const events = await eventStore.readStream(notificationStream(tenant, c.NotificationId));
        const state = fold(notificationDecider, events as unknown as NotificationEvent[]);
        if (state.status !== 'accepted') continue;
        const v = housekeepingVerdict(state, cutoff);
        if (!v.Eligible) {
          if (v.Reason !== 'ALREADY_REMOVED') keep(c.NotificationId, v.Reason);
          continue;
        }
        eligible.push({
          state,
          revision: events.length - 1,
          completedAt: v.CompletedAt,
          alertIds: events.filter((x) => x.type === 'AlertRaised').map((x) => x.id),
        });
      }
      if (dryRun) {
        for (const e of eligible)
          report.Removed.push({
            NotificationId: e.state.notification.NotificationId,
            RequestId: e.state.notification.RequestId,
            CompletedAt: e.completedAt,
          });
      } else if (eligible.length > 0) {
        let archivedTo: string | undefined;
        if (params.archiveBeforeDelete === true) {
          const records = [];
          for (const e of eligible) records.push(await archiveRecord(tenant, e.state, e.completedAt, now));
          archivedTo = await deps.archive(tenant, records);
          report.ArchivedTo = [...new Set([...(report.ArchivedTo ?? []), archivedTo])];
        }
        for (const e of eligible) {
          const id = e.state.notification.NotificationId;
          try {
            // its alert publications go first: were the append then refused (CHANGED), the alert sweep finds
            // them unpublished and publishes them again, which the bridge absorbs as duplicates; the reverse
            // order could leave them behind for good after a crash
            if (e.alertIds.length > 0) await deps.forgetAlerts(e.alertIds);
            await handle({
              stream: notificationStream(tenant, id),
              command: { type: 'Housekeep', cutoff, ...(archivedTo !== undefined && { ArchivedTo: archivedTo }), now },
              commandId: `housekeep/${id}`,
              now,
              context: { tenant, actor: 'system:hub-housekeeping' },
              from: { state: e.state, revision: e.revision },
            });
            report.Removed.push({
              NotificationId: id,
              RequestId: e.state.notification.RequestId,
              CompletedAt: e.completedAt,
            });
          } catch (err) {
            // it changed after the check (a late receipt …): kept; its archive line stays, harmless
            if (isWrongExpectedRevision(err) || (isDomainError(err) && err.code === 'HOUSEKEEPING.NOT_ELIGIBLE'))
              keep(id, 'CHANGED');
            else throw err;
          }
        }
      }
      if (report.LimitReached || page.length < pageSize) break;
    }
    return report;
  }

  /** what is archived for one notification: its record and messages (the masked payload, no bodies) and its read-side rows */
  async function archiveRecord(tenant: string, state: Live, completedAt: string, at: string) {
    const n = state.notification;
    return {
      ArchivedAt: at,
      Tenant: tenant,
      NotificationId: n.NotificationId,
      RequestId: n.RequestId,
      NotificationCode: n.NotificationCode,
      DefinitionId: n.DefinitionId,
      SnapshotId: n.SnapshotId,
      AcceptedAt: n.AcceptedAt,
      CompletedAt: completedAt,
      Stream: notificationStream(tenant, n.NotificationId),
      Payload: n.Payload,
      Messages: state.order.map((id) => {
        const m = state.messages[id]!;
        return {
          MessageId: m.MessageId,
          Role: m.Role,
          Channel: m.Channel,
          State: m.State,
          ...(m.Reason !== undefined && { Reason: m.Reason }),
          Attempts: m.Attempts.length,
          UpdatedAt: m.UpdatedAt,
        };
      }),
      ReadSide: await deps.readSide(tenant, n.NotificationId, state.order),
    };
  }

  return { run };
}

export type HousekeepingJob = ReturnType<typeof createHousekeepingJob>;
