import { PLATFORM_TENANT } from '../../domain/core/access-context.ts';
import type { WorkKind } from '../../domain/hub/message-work.ts';
import { NOTIFICATION_CATEGORY } from '../../domain/hub/notification.decider.ts';
import type { Clock } from '../../infra/core/clock.port.ts';
import type { EventStore } from '../../infra/core/event-store.port.ts';
import type { Collection, Doc, Filter } from '../../infra/core/read-store.port.ts';
import { createWorkEngine, type DueItem, type WorkEngine, type WorkEngineLog } from '../core/work-engine.ts';
import type { AlertDueItem, AlertPublication } from './alert.publisher.ts';
import { type HubSettings, numberSetting, SETTING } from './hub.contracts.ts';
import { holdDueItem, hubEnabledValue } from './hub-switch.ts';

/**
 * The recovery sweeps (spec "Recovery properties": `comm-hub.sweep.enabled` false by default, one interval
 * per sweep). Normal work never waits for them: the `hub.dispatch` projection keeps one due item per
 * message with automatic work and the `hub.alerts` projection one outbox item per alert. A sweep finds
 * work whose item is missing (a parked event, an item deleted by hand, a store restored from an older
 * backup) and puts it back on the work engine:
 *
 * | sweep | finds (in the `hub.sweep` index, see projections/hub/sweep.projection.ts) |
 * |---|---|
 * | retry | FAILED messages whose NextRetryTime passed |
 * | scheduled | PLANNED / SCHEDULED messages past their due time |
 * | expiry | messages with pending initial or retry work past the notification's ExpiresAt |
 * | stale | SUBMITTED attempts without outcome past their OutcomeDueBy (the worker died during the call) |
 * | receipt-timeout | ACCEPTED (FINAL_RESULT) messages past their receipt deadline |
 * | alert | AlertRaised events in the log with neither a publication nor an outbox item |
 *
 * A candidate whose dispatch due item is there and due is left to the dispatch worker. Otherwise a repair
 * item (`hub_sweep_repairs`, keyed by the message) is written; the repair engine runs the message's step
 * (dispatch.process.ts advance: it decides from the stream, so a repair of work already done does nothing,
 * and its expected-revision appends keep it from doubling with the dispatch worker) and removes the item.
 *
 * Several worker processes: each sweep is one document of `hub_sweep_runs` claimed with a lease on the work
 * engine (atomic compare-and-set), then moved to `now + interval`: one run per interval across processes.
 * Repair items are claimed the same way: one process runs each.
 */
export type SweepName = 'retry' | 'scheduled' | 'expiry' | 'stale' | 'receipt-timeout' | 'alert';
export const SWEEPS: readonly SweepName[] = ['retry', 'scheduled', 'expiry', 'stale', 'receipt-timeout', 'alert'];

export const SWEEP_INTERVAL: Record<SweepName, { key: string; defaultMs: number }> = {
  retry: { key: SETTING.sweepRetryIntervalMs, defaultMs: 60_000 },
  scheduled: { key: SETTING.sweepScheduledIntervalMs, defaultMs: 60_000 },
  expiry: { key: SETTING.sweepExpiryIntervalMs, defaultMs: 120_000 },
  stale: { key: SETTING.sweepStaleIntervalMs, defaultMs: 300_000 },
  'receipt-timeout': { key: SETTING.sweepReceiptTimeoutIntervalMs, defaultMs: 60_000 },
  alert: { key: SETTING.sweepAlertIntervalMs, defaultMs: 120_000 },
};

export const SWEEP_RUNS = 'hub_sweep_runs';
export const SWEEP_REPAIRS = 'hub_sweep_repairs';
/** candidates looked at per run (the rest: the next run) */
export const SWEEP_BATCH = 500;

const WORK_OF: Record<Exclude<SweepName, 'alert' | 'expiry'>, WorkKind> = {
  retry: 'retry',
  scheduled: 'dispatch',
  stale: 'lost-check',
  'receipt-timeout': 'receipt-deadline',
};

/** one per sweep: when it is next due; its last run (when, how many items it put back), how many scans it made; the alert sweep's cursor */
export type SweepRunDoc = DueItem & { lastRunAt?: string; lastFound?: number; runs?: number; cursor?: string };
export type RepairItem = DueItem & { stream: string; tenant: string; kind: string; sweep: SweepName };
type OpenWork = Doc & { stream: string; tenant: string; kind: string; at: string; expiresAt?: string };
type DispatchItem = Doc & { kind: string; dueAt: string };

/** the platform-wide value of a `comm-hub.*` switch (sweeps are not per tenant: they scan every tenant) */
const flag = (raw: string | undefined, fallback: boolean) =>
  raw === undefined ? fallback : raw.trim().toLowerCase() === 'true';

export type SweepDeps = {
  eventStore: EventStore;
  clock: Clock;
  settings: HubSettings;
  /** `hub.sweep` open work */
  open: () => Promise<Collection<OpenWork>>;
  /** `hub.dispatch` due items */
  dispatchDue: () => Promise<Collection<DispatchItem>>;
  /** `hub.alerts` outbox items, and the publications */
  alertOutbox: () => Promise<Collection<AlertDueItem>>;
  publications: () => Promise<Collection<AlertPublication>>;
  /** the alert publisher's wake: the alert sweep writes into its outbox */
  wakeAlerts?: () => void;
  runs: () => Promise<Collection<SweepRunDoc>>;
  repairs: () => Promise<Collection<RepairItem>>;
  /** one step of a message (dispatch.process.ts advance) */
  advance(stream: string, messageId: string): Promise<unknown>;
  /** the process default of `comm-hub.sweep.enabled` (the spec's: false; `platform start` ships true) */
  enabledByDefault: boolean;
  /** a sweep run's lease (longer than a run takes) */
  leaseMs?: number;
  pollMs?: number;
  owner?: string;
  log?: WorkEngineLog;
};

export function createSweeps(deps: SweepDeps) {
  const { clock } = deps;
  const nowIso = () => clock.now().toISOString();

  async function intervalOf(name: SweepName): Promise<number> {
    return numberSetting(
      deps.settings,
      PLATFORM_TENANT,
      SWEEP_INTERVAL[name].key,
      SWEEP_INTERVAL[name].defaultMs,
      1000,
      86_400_000,
    );
  }
  const enabled = async () =>
    flag(await deps.settings.get(PLATFORM_TENANT, SETTING.sweepEnabled), deps.enabledByDefault);

  /** writes a repair item for a message unless one is there (a leased one is being run) */
  async function repair(w: OpenWork, sweep: SweepName, now: string): Promise<boolean> {
    const repairs = await deps.repairs();
    if ((await repairs.get(w.id)) !== null) return false;
    await repairs.upsert({
      id: w.id,
      stream: w.stream,
      tenant: w.tenant,
      kind: w.kind,
      sweep,
      dueAt: now,
      leaseUntil: '',
    });
    return true;
  }

  /** one scan: how many items it put back on the work engine */
  async function scan(name: SweepName): Promise<number> {
    const now = nowIso();
    if (name === 'alert') return scanAlerts();
    const filter: Filter =
      name === 'expiry'
        ? { kind: { $in: ['dispatch', 'retry'] }, expiresAt: { $lte: now } }
        : { kind: WORK_OF[name], at: { $lte: now } };
    const candidates = await (await deps.open()).find(filter, {
      sort: name === 'expiry' ? { expiresAt: 1 } : { at: 1 },
      limit: SWEEP_BATCH,
    });
    const due = await deps.dispatchDue();
    let found = 0;
    for (const w of candidates) {
      const item = await due.get(w.id);
      // the dispatch worker has it and will run it now (a stuck lease comes back by itself)
      if (item !== null && item.kind === w.kind && item.dueAt <= now) continue;
      if (await repair(w, name, now)) found++;
    }
    return found;
  }

  /**
   * Alerts: the log's AlertRaised events after the run's cursor, in pages. The cursor moves over every
   * alert that is published; it stops at the first one that is not, which gets an outbox item again
   * (unless it has one) and is looked at again next run.
   */
  const housekeptStream = async (stream: string) =>
    (await deps.eventStore.readStream(stream)).some((x) => x.type === 'NotificationHousekept');

  async function scanAlerts(): Promise<number> {
    const runs = await deps.runs();
    const run = await runs.get('alert');
    let cursor = run?.cursor;
    let stopAt: string | undefined;
    let found = 0;
    const outbox = await deps.alertOutbox();
    const publications = await deps.publications();
    for (let looked = 0; looked < SWEEP_BATCH * 4; ) {
      const page = await deps.eventStore.readAll({
        ...(cursor !== undefined && { after: cursor }),
        filter: { categories: [NOTIFICATION_CATEGORY], eventTypes: ['AlertRaised'] },
        limit: SWEEP_BATCH,
      });
      if (page.length === 0) break;
      for (const e of page) {
        looked++;
        // a housekept notification's alerts have no publication record any more (docs/hub.md#housekeeping): settled
        if ((await publications.get(e.id)) === null && !(await housekeptStream(e.stream))) {
          stopAt ??= cursor ?? '';
          if ((await outbox.get(e.id)) === null) {
            const data = e.data as { MessageId: string; At: string };
            await outbox.upsert({
              id: e.id,
              stream: e.stream,
              tenant: e.metadata.tenant,
              kind: 'alert',
              messageId: data.MessageId,
              dueAt: data.At,
              leaseUntil: '',
            });
            found++;
          }
        }
        cursor = e.position;
      }
      if (page.length < SWEEP_BATCH) break;
    }
    const keep = stopAt === undefined ? cursor : stopAt === '' ? undefined : stopAt;
    if (keep !== undefined) await runs.patch('alert', { $set: { cursor: keep } });
    return found;
  }

  const runsEngine = createWorkEngine<SweepRunDoc>({
    name: 'hub.sweeps',
    items: deps.runs,
    clock,
    leaseMs: deps.leaseMs ?? 300_000,
    pollMs: deps.pollMs ?? 1000,
    concurrency: 1,
    ...(deps.owner !== undefined && { owner: deps.owner }),
    ...(deps.log !== undefined && { log: deps.log }),
    async handle(run) {
      const name = run.id as SweepName;
      if (!SWEEPS.includes(name)) return;
      const found = (await enabled()) ? await scan(name) : undefined;
      // what this run wrote is due at once: the alert sweep's into the alert outbox, the others' repairs
      if (found !== undefined && found > 0) {
        if (name === 'alert') deps.wakeAlerts?.();
        else repairEngine.wake();
      }
      const at = clock.now();
      await (await deps.runs()).patch(run.id, {
        $set: {
          dueAt: new Date(at.getTime() + (await intervalOf(name))).toISOString(),
          leaseUntil: '',
          lastRunAt: at.toISOString(),
          ...(found !== undefined && { lastFound: found }),
        },
        ...(found !== undefined && { $inc: { runs: 1 } }),
      });
    },
  });

  const repairEngine = createWorkEngine<RepairItem>({
    name: 'hub.sweep-repair',
    items: deps.repairs,
    clock,
    leaseMs: 60_000,
    pollMs: deps.pollMs ?? 1000,
    concurrency: 4,
    ...(deps.owner !== undefined && { owner: `${deps.owner}:repair` }),
    ...(deps.log !== undefined && { log: deps.log }),
    async handle(item) {
      // `comm-hub.enabled` off for the item's tenant: the repair is held (kept, looked at again shortly)
      if (!hubEnabledValue(await deps.settings.get(item.tenant, SETTING.enabled)))
        return holdDueItem(await deps.repairs(), item, clock);
      if ((await deps.advance(item.stream, item.id)) === 'held') return holdDueItem(await deps.repairs(), item, clock);
      await (await deps.repairs()).delete(item.id);
    },
  });

  /** the run documents, one per sweep, due at once when new */
  async function ensureRuns(): Promise<void> {
    const runs = await deps.runs();
    for (const name of SWEEPS)
      if ((await runs.get(name)) === null) await runs.upsert({ id: name, dueAt: nowIso(), leaseUntil: '' });
  }

  /** both engines as one: the sweep runs and the repairs they write */
  const engine: WorkEngine = {
    name: 'hub.sweeps',
    // never woken by a page: runs are due by the clock, and a run wakes whoever takes what it wrote
    fedBy: [],
    start() {
      void ensureRuns()
        .catch((err: unknown) =>
          deps.log?.error(
            { err: err instanceof Error ? err.message : String(err) },
            'hub sweeps: cannot create the run documents; the next start will',
          ),
        )
        .finally(() => {
          runsEngine.start();
          repairEngine.start();
        });
    },
    async stop() {
      await Promise.all([runsEngine.stop(), repairEngine.stop()]);
    },
    wake() {
      runsEngine.wake();
      repairEngine.wake();
    },
    async runDue() {
      await ensureRuns();
      return (await runsEngine.runDue()) + (await repairEngine.runDue());
    },
    async settled() {
      // a run wakes the repairs it wrote before it ends: once the runs are at rest, the repairs are told
      const runs = await runsEngine.settled();
      return (await repairEngine.settled()) && runs;
    },
    async status() {
      const [a, b] = await Promise.all([runsEngine.status(), repairEngine.status()]);
      return {
        ...a,
        inFlight: a.inFlight + b.inFlight,
        backlog: a.backlog + b.backlog,
        ...((a.lastError ?? b.lastError) !== undefined && { lastError: a.lastError ?? b.lastError }),
      };
    },
  };
  return { engine, scan, ensureRuns, runsEngine, repairEngine };
}

export type Sweeps = ReturnType<typeof createSweeps>;
