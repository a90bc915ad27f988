import type { RecordedEvent } from '../../domain/core/event.ts';
import { nextWork, workAfter } from '../../domain/hub/message-work.ts';
import { NOTIFICATION_CATEGORY } from '../../domain/hub/notification.decider.ts';
import { NOTIFICATION_EVENT_TYPES, type NotificationEvent } from '../../domain/hub/notification.model.ts';
import { addBounded, setBounded } from '../../infra/core/bounded.ts';
import type { Clock } from '../../infra/core/clock.port.ts';
import { matchesFilter } from '../../infra/core/event-filter.ts';
import type { AllFilter, LogPage } from '../../infra/core/event-store.port.ts';
import type { Collection } from '../../infra/core/read-store.port.ts';
import { createWorkEngine, type DueItem, type WorkEngine, type WorkEngineLog } from '../core/work-engine.ts';
import { type DispatchProcess, type LoadedNotification, notificationOf } from './dispatch.process.ts';
import { holdDueItem } from './hub-switch.ts';

/**
 * The hub's dispatch worker on the core's work engine: the due items of the `hub.dispatch` read model
 * (one per message with automatic work: a dispatch, a retry, a lost-attempt check, a receipt deadline),
 * claimed with leases, so worker processes never run one message's step twice at once and a send scales
 * out by adding worker processes. What the step is, the notification's stream decides (dispatch.process.ts).
 */
export type DispatchDueItem = DueItem & { stream: string; tenant: string; kind: string };

export const DISPATCH_WORKER_NAME = 'hub.dispatch-worker';

export type DispatchWorkerDeps = {
  items: () => Promise<Collection<DispatchDueItem>>;
  clock: Clock;
  process: DispatchProcess;
  /** held while a step runs; a process that dies loses its items after this */
  leaseMs: number;
  pollMs?: number;
  /** message steps in flight at once (default DEFAULT_DISPATCH_CONCURRENCY) */
  concurrency?: number;
  owner?: string;
  log?: WorkEngineLog;
  /** this process's inline dispatch: the messages it is advancing right now, and the due work it has done */
  inline?: {
    running(messageId: string): boolean;
    runningIds(): readonly string[];
    started(item: Pick<DispatchDueItem, 'id' | 'kind' | 'dueAt'>): boolean;
  };
};

/** the events the hub.dispatch projection turns into due items */
const NOTIFICATION_EVENTS: AllFilter = {
  categories: [NOTIFICATION_CATEGORY],
  eventTypes: [...NOTIFICATION_EVENT_TYPES],
};

/**
 * Beside an inline dispatch, a page wakes the engine only when one of its notification events leaves a
 * message work due now that the inline dispatch neither runs nor has started: a send beyond its capacity, a
 * promotion, a retry due at once, a send another process accepted. A page of sends started inline would
 * only make the engine claim their items (a query and a lease written each) to find nothing to do; work
 * due later was never found by a page's wake but by the poll.
 */
function leavesWork(page: LogPage, inline: NonNullable<DispatchWorkerDeps['inline']>, now: string): boolean {
  return page.events.some((e) => matchesFilter(NOTIFICATION_EVENTS, e) && eventLeavesWork(e, inline, now));
}

type WorkChange = ReturnType<typeof workAfter>[number];

/** whether the inline dispatch runs this message or has started this work of it */
const takenInline = (inline: DispatchWorkerDeps['inline'], { messageId, work }: WorkChange) =>
  inline !== undefined &&
  (inline.running(messageId) || (work !== null && inline.started({ id: messageId, kind: work.kind, dueAt: work.at })));

const dueNow = ({ work }: WorkChange, now: string) => work !== null && work.at <= now;

/** whether a notification event leaves a message work due now that the inline dispatch neither runs nor has started */
const eventLeavesWork = (e: RecordedEvent, inline: DispatchWorkerDeps['inline'], now: string) =>
  workAfter(e as unknown as NotificationEvent).some((change) => dueNow(change, now) && !takenInline(inline, change));

/**
 * How many acceptances read off the log an engine keeps for its next claims, and for how long: the item of a
 * send that another process accepted is claimed milliseconds after the page that held the acceptance, so a
 * few hundred cover the saturated rate several times over; one not taken within seconds (another worker
 * claimed the item) is not used any more.
 */
const REMEMBERED_ACCEPTANCES = 512;
const REMEMBERED_FOR_MS = 5000;

/**
 * Message steps a worker process has in flight (HUB_DISPATCH_CONCURRENCY's default): a worker that claims all
 * its free slots at once fills 32 with one claim and one group commit of their attempts (measured: more sends
 * a second and less CPU per send than 16 where workers run apart from the API; docs/decisions/).
 */
export const DEFAULT_DISPATCH_CONCURRENCY = 32;

export function createDispatchWorker(deps: DispatchWorkerDeps): WorkEngine {
  const inline = deps.inline;
  const concurrency = deps.concurrency ?? DEFAULT_DISPATCH_CONCURRENCY;
  // the acceptances of the pages that fed the engine, by stream, that left it work and none of whose
  // messages the inline dispatch runs or has started (its append moves the stream on): the claimed item of
  // exactly that work starts from the acceptance's state (AttemptStarted is appended with its revision 0, so
  // a stream that moved on meanwhile makes the step race and read the stream), instead of reading the stream
  // the page has just shown
  const acceptances = new Map<string, { event: RecordedEvent; seenAt: number }>();
  const remembered = (e: RecordedEvent, now: string) => {
    const changes = workAfter(e as unknown as NotificationEvent);
    return changes.some((c) => dueNow(c, now)) && !changes.some((c) => takenInline(inline, c));
  };
  const sawPage = (page: LogPage) => {
    const now = deps.clock.now();
    const iso = now.toISOString();
    for (const e of page.events) {
      if (
        e.type === 'NotificationAccepted' &&
        e.revision === 0 &&
        matchesFilter(NOTIFICATION_EVENTS, e) &&
        remembered(e, iso)
      ) {
        setBounded(acceptances, e.stream, { event: e, seenAt: now.getTime() }, REMEMBERED_ACCEPTANCES);
      }
    }
  };
  const acceptedState = (item: DispatchDueItem): LoadedNotification | undefined => {
    const seen = acceptances.get(item.stream);
    if (seen === undefined) return undefined;
    acceptances.delete(item.stream); // one item per send: a second message of it reads the stream
    if (deps.clock.now().getTime() - seen.seenAt > REMEMBERED_FOR_MS) return undefined;
    const known = notificationOf([seen.event]) ?? undefined;
    const m = known?.state.messages[item.id];
    const work = m === undefined ? null : nextWork(m);
    // only for the very work the acceptance left (not a retry, a promotion or a check that came later)
    return work !== null && work.kind === item.kind && work.at === item.dueAt ? known : undefined;
  };
  return createWorkEngine<DispatchDueItem>({
    name: DISPATCH_WORKER_NAME,
    items: deps.items,
    clock: deps.clock,
    leaseMs: deps.leaseMs,
    ...(deps.pollMs !== undefined && { pollMs: deps.pollMs }),
    concurrency,
    // one claim fills every free slot: a dispatch is one short call, and each claim is a read-store commit,
    // which in a deployment of several processes also drops the others' page caches (measured: more sends a
    // second than with 4 per claim; on MongoDB a claim updates its documents one by one)
    claimBatch: concurrency,
    ...(deps.owner !== undefined && { owner: deps.owner }),
    ...(deps.log !== undefined && { log: deps.log }),
    // not claimed while the inline dispatch below advances them (no lease, no hold to write)
    ...(inline !== undefined && {
      busy: inline.runningIds,
      wantsPage: (page: LogPage) => leavesWork(page, inline, deps.clock.now().toISOString()),
    }),
    sawPage,
    async handle(item) {
      // This very work (message, kind and due time) was started by an inline run that has finished: the item
      // is only waiting for the projection to read the run's AttemptStarted, which replaces it. Nothing to
      // read or call; the lease keeps it from being claimed again meanwhile.
      if (deps.inline?.started(item) === true) return;
      // Claimed just before an inline run of this process began (busy is read at claim time): the inline
      // run's AttemptStarted will move the item (the projection rewrites it with a fresh lease), so this run
      // would only read the stream and the gate's facts again to lose the race. Left to it, the item held
      // briefly: if the inline run wrote nothing (it failed, or the hub is switched off), the item comes
      // back after the hold.
      if (deps.inline?.running(item.id) === true) {
        await holdDueItem(await deps.items(), item, deps.clock);
        return;
      }
      // `comm-hub.enabled` off for the item's tenant: the step ran nothing; look again shortly, not after the whole lease
      const seen = acceptedState(item);
      if ((await deps.process.advance(item.stream, item.id, seen, 'maybe-older')) === 'held')
        await holdDueItem(await deps.items(), item, deps.clock);
    },
  });
}

/**
 * Send request rule 4: "eligible PLANNED messages dispatch after commit, possibly on the submitting thread".
 * Where this process runs the dispatch worker, a fresh acceptance's PLANNED messages are started at once,
 * beside the HTTP answer (not awaited by it), at most `maxInFlight` at a time; beyond that, or where no
 * worker runs (an API-only process), the due item the projection writes does it. The two never call twice:
 * AttemptStarted is appended with the revision the step read, so the loser of a race calls nothing.
 */
export function createInlineDispatch(o: {
  process: DispatchProcess;
  maxInFlight: number;
  enabled: () => boolean;
  log?: WorkEngineLog;
  remember?: number;
  /**
   * a run ended without starting an attempt (it failed, was held, deferred, raced): its due item, left out
   * of claims while it ran, is the engine's now; no page announces that, so the engine is told
   */
  unstarted?: () => void;
}) {
  const running = new Set<string>();
  /** the due work (id, kind, due time) of the latest inline runs that started an attempt, oldest first */
  const started = new Set<string>();
  const remember = o.remember ?? 10_000;
  const workKey = (id: string, kind: string, dueAt: string) => `${id}\u0000${kind}\u0000${dueAt}`;
  const start = (stream: string, messageIds: readonly string[], accepted?: LoadedNotification) => {
    if (!o.enabled()) return;
    for (const id of messageIds) {
      if (running.size >= o.maxInFlight) return;
      if (running.has(id)) continue;
      running.add(id);
      const m = accepted?.state.messages[id];
      const work = m === undefined ? null : nextWork(m);
      let submitted = false;
      o.process
        .advance(stream, id, accepted)
        .then((step) => {
          submitted = step === 'submitted';
          if (!submitted || work === null) return;
          addBounded(started, workKey(id, work.kind, work.at), remember);
        })
        .catch((err: unknown) =>
          o.log?.error(
            { stream, messageId: id, err: err instanceof Error ? err.message : String(err) },
            'inline dispatch failed; the due item takes it',
          ),
        )
        .finally(() => {
          running.delete(id);
          if (!submitted) o.unstarted?.();
        });
    }
  };
  return Object.assign(start, {
    running: (messageId: string) => running.has(messageId),
    runningIds: () => [...running],
    started: (item: Pick<DispatchDueItem, 'id' | 'kind' | 'dueAt'>) =>
      started.has(workKey(item.id, item.kind, item.dueAt)),
  });
}
