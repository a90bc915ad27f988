import { fold } from '../../domain/core/decider.ts';
import { isDomainError } from '../../domain/core/domain-error.ts';
import type { RecordedEvent } from '../../domain/core/event.ts';
import { classify, type Observation, type Outcome } from '../../domain/hub/classification.ts';
import { RECEIPT_PATH } from '../../domain/hub/hub.paths.ts';
import { nextWork } from '../../domain/hub/message-work.ts';
import {
  expiredAt,
  mayStartAutomatic,
  type NotificationCommand,
  notificationDecider,
} from '../../domain/hub/notification.decider.ts';
import {
  callbackIdOf,
  type Message,
  type NotificationEvent,
  type NotificationState,
} from '../../domain/hub/notification.model.ts';
import type { Clock } from '../../infra/core/clock.port.ts';
import type { EventStore } from '../../infra/core/event-store.port.ts';
import { isWrongExpectedRevision } from '../../infra/core/store-errors.ts';
import { commandHandler } from '../core/command-handler.ts';
import { newCommandId } from '../core/event-id.ts';
import { randomToken } from '../core/random-token.ts';
import type { ConfigCommands } from './config.commands.ts';
import type { DispatchGate } from './dispatch-gate.ts';
import type { DriverRegistry } from './driver.registry.ts';
import type { HubSwitch } from './hub-switch.ts';
import type { Snapshots } from './snapshots.ts';

/**
 * What is due now for one message, decided from the notification's stream (the
 * truth; a due item only says where to look; a fresh send's inline run starts from the state its own
 * acceptance left, which its appends' expected revision holds to the stream), in at most a few appends:
 *
 * - dispatch or retry due (domain/hub/message-work.ts): ExpiresAt reached → EXPIRED (no attempt); else
 *   the dispatch gate (state, turn, due time, expiry: notification.decider mayStartAutomatic; the customer
 *   policies: dispatch-gate.ts) → `AttemptStarted` (new AttemptId, ClientRequestId and CallbackId; the
 *   message's ActiveAttemptId) appended with the revision just read, so of two workers only one calls;
 *   then the driver's call with the snapshot's service settings and the live signing secrets, classified
 *   (domain/hub/classification.ts), and the outcome appended (read, decide, retry on a conflict: a receipt
 *   may have come in between; the decider fences it to the attempt).
 * - lost-check due: the attempt still has no outcome long after its call ended (the worker stopped during
 *   the call): uncertain, alert (automatic retry and fallback held).
 * - receipt deadline due (FINAL_RESULT): uncertain, alert.
 *
 * A message whose service cannot be used (its driver gone, the service deleted with its credentials)
 * fails its attempt without a call, permanently.
 */
export type DispatchStep =
  | 'submitted'
  | 'expired'
  | 'lost'
  | 'deadline-passed'
  | 'not-due'
  | 'nothing'
  | 'raced'
  | 'missing'
  | 'suppressed'
  | 'deferred'
  | 'held';

/** the steps that appended an event, with the revision of the state they were decided on */
const APPENDED: ReadonlySet<DispatchStep> = new Set<DispatchStep>([
  'submitted',
  'expired',
  'lost',
  'deadline-passed',
  'suppressed',
  'deferred',
]);

/**
 * How far a state handed to advance holds: `current`, the state the caller's own append just left (the
 * inline dispatch of a fresh acceptance); `maybe-older`, a state read off the log (the stream may have moved
 * on since): only a step that appended on it stands (its revision was checked), any other answer is taken
 * again from the stream.
 */
export type Freshness = 'current' | 'maybe-older';

export type DispatchDeps = {
  eventStore: EventStore;
  clock: Clock;
  drivers: DriverRegistry;
  snapshots: Snapshots;
  config: Pick<ConfigCommands, 'services'>;
  /** the public base URL receivers call back (`<base>/comm/v1/callbacks/receipt`) */
  publicBaseUrl: string;
  /** an attempt without outcome older than this is taken as lost (above the longest call) */
  outcomeAfterMs: (connectAndReadMs: number) => number;
  log?: { warn(obj: object, msg: string): void };
  /** the dispatch gate's customer policies (commands/hub/dispatch-gate.ts); absent: state, turn, due time and expiry only */
  gate?: DispatchGate;
  /** `comm-hub.enabled` (commands/hub/hub-switch.ts): off, a tenant's dispatch and retry steps are held ('held'); absent: always on */
  hubSwitch?: HubSwitch;
};

/** a notification's state at a revision, with what its appends carry on (tenant, correlation, causation) */
export type LoadedNotification = {
  state: Extract<NotificationState, { status: 'accepted' }>;
  revision: number;
  tenant: string;
  correlationId?: string;
  causationId?: string;
  actor?: string;
};

/** a notification's state at `revision`, its appends carrying on from its first event (the acceptance) */
export const loadedNotification = (
  state: LoadedNotification['state'],
  revision: number,
  first: { id: string; metadata: { tenant: string; correlationId?: string } },
): LoadedNotification => ({
  state,
  revision,
  tenant: first.metadata.tenant,
  ...(first.metadata.correlationId !== undefined && { correlationId: first.metadata.correlationId }),
  causationId: first.id,
});

/** a notification's state after `events` (its stream from the start), null when they hold no acceptance */
export function notificationOf(events: readonly RecordedEvent[]): LoadedNotification | null {
  const state = fold(notificationDecider, events as unknown as NotificationEvent[]);
  if (state.status !== 'accepted') return null;
  return loadedNotification(state, events.length - 1, events[0]!);
}

/** an operator's manual retry (commands/hub/operator.commands.ts): one MANUAL attempt, deduplicated by commandId */
export type ManualAttempt = { Reason: string; commandId: string; actor: string; correlationId?: string };

class Raced extends Error {}

export function createDispatchProcess(deps: DispatchDeps) {
  const { eventStore, clock } = deps;
  const decide = commandHandler(eventStore, notificationDecider);
  const now = () => clock.now().toISOString();
  const callbackUrl = `${deps.publicBaseUrl.replace(/\/+$/, '')}${RECEIPT_PATH}`;

  const load = async (stream: string): Promise<LoadedNotification | null> =>
    notificationOf(await eventStore.readStream(stream));

  const context = (l: LoadedNotification) => ({
    tenant: l.tenant,
    actor: l.actor ?? 'system:hub-dispatch',
    ...(l.correlationId !== undefined && { correlationId: l.correlationId }),
    ...(l.causationId !== undefined && { causationId: l.causationId }),
  });

  /** on the state just read, with its revision: another worker writing first makes this Raced */
  async function applyOn(
    stream: string,
    l: LoadedNotification,
    command: NotificationCommand | NotificationCommand[],
    commandId: string,
  ) {
    try {
      return await decide({
        stream,
        command,
        commandId,
        now: now(),
        context: context(l),
        from: { state: l.state, revision: l.revision },
      });
    } catch (err) {
      if (isWrongExpectedRevision(err)) throw new Raced(stream);
      throw err;
    }
  }

  /** read, decide, retry on a conflict: an outcome must be recorded whatever came in meanwhile */
  const applyFresh = (
    stream: string,
    l: LoadedNotification,
    command: NotificationCommand | NotificationCommand[],
    commandId: string,
  ) => decide({ stream, command, commandId, now: now(), context: context(l) });

  async function attempt(
    stream: string,
    l: LoadedNotification,
    m: Message,
    manual?: ManualAttempt,
  ): Promise<DispatchStep> {
    const tenant = l.tenant;
    const n = l.state.notification;
    const snapshot = await deps.snapshots.get(tenant, n.SnapshotId);
    const service = snapshot?.Content.Services.find((s) => s.ServiceId === m.ServiceId);
    const driver = service === undefined ? undefined : deps.drivers.get(service.DriverType);
    const secrets = service === undefined ? null : await deps.config.services.signingSecrets(tenant, service.ServiceId);

    const attemptNo = m.Attempts.length + 1;
    const ids = {
      AttemptId: newCommandId(),
      ClientRequestId: newCommandId(),
      CallbackId: callbackIdOf(tenant, m.MessageId, attemptNo, randomToken(16)),
    };
    const settings = service?.Settings ?? {};
    const callMs =
      (typeof settings.ConnectTimeoutMs === 'number' ? settings.ConnectTimeoutMs : 5000) +
      (typeof settings.ReadTimeoutMs === 'number' ? settings.ReadTimeoutMs : 10_000);
    const outcomeDueBy = new Date(Date.parse(now()) + deps.outcomeAfterMs(callMs)).toISOString();
    const start: NotificationCommand =
      manual === undefined
        ? { type: 'StartAttempt', MessageId: m.MessageId, ...ids, Kind: 'AUTO', OutcomeDueBy: outcomeDueBy, now: now() }
        : {
            type: 'StartManualAttempt',
            MessageId: m.MessageId,
            ...ids,
            OutcomeDueBy: outcomeDueBy,
            Reason: manual.Reason,
            now: now(),
          };
    const startId = manual?.commandId ?? `attempt/${ids.AttemptId}`;

    const unusable =
      service === undefined
        ? `the accepted snapshot ${n.SnapshotId} has no delivery service ${m.ServiceId}`
        : driver === undefined
          ? `no delivery driver ${service.DriverType} is registered`
          : secrets === null
            ? `delivery service ${service.ServiceId} was deleted: its credentials are gone`
            : undefined;
    if (unusable !== undefined) {
      // nothing to call: the attempt and its failure in one append
      const outcome = classify({ kind: 'not-sent', permanent: true, message: unusable });
      await applyOn(
        stream,
        l,
        [start, { type: 'RecordOutcome', MessageId: m.MessageId, AttemptId: ids.AttemptId, outcome, now: now() }],
        startId,
      );
      return 'submitted';
    }
    const started = await applyOn(stream, l, start, startId);
    let observation: Observation;
    try {
      observation = await driver!.deliver({
        tenant,
        notification: n,
        message: m,
        attempt: {
          AttemptId: ids.AttemptId,
          AttemptNo: attemptNo,
          ClientRequestId: ids.ClientRequestId,
          CallbackId: ids.CallbackId,
        },
        service: service!,
        signingSecrets: secrets!,
        callbackPath: RECEIPT_PATH,
        callbackUrl,
      });
    } catch (err) {
      // a driver must not throw; one that does may have sent: uncertain
      observation = {
        kind: 'failure',
        phase: 'exchange',
        reason: 'network',
        message: err instanceof Error ? err.message : String(err),
      };
    }
    const outcome: Outcome = classify(observation);
    const record: NotificationCommand = {
      type: 'RecordOutcome',
      MessageId: m.MessageId,
      AttemptId: ids.AttemptId,
      outcome,
      now: now(),
    };
    let after;
    try {
      // usually nothing came in during the call: decide on the state we left
      after = await applyOn(
        stream,
        { ...l, state: started.state as LoadedNotification['state'], revision: started.revision },
        record,
        `outcome/${ids.AttemptId}`,
      );
    } catch (err) {
      if (!(err instanceof Raced)) throw err;
      // a receipt (or another writer) came first: decide on what the stream says now
      after = await applyFresh(stream, l, record, `outcome/${ids.AttemptId}`);
    }
    await settleQuota(l.tenant, after.state, m.MessageId);
    return 'submitted';
  }

  /**
   * The dispatch gate's customer policies (commands/hub/dispatch-gate.ts), after state, turn, due time and
   * expiry: null when the attempt may start (its quota slot, if any, is reserved); else what was recorded
   * instead (SUPPRESSED with the reason, the due time moved by quiet hours, EXPIRED), never an attempt.
   */
  async function gateDenies(
    stream: string,
    l: LoadedNotification,
    m: Message,
    at: string,
  ): Promise<DispatchStep | null> {
    const d = await deps.gate!.claim({ tenant: l.tenant, state: l.state, message: m, now: at, kind: 'AUTO' });
    switch (d.verdict) {
      case 'PASS':
        return null;
      case 'NOT_DUE':
        return 'not-due';
      case 'EXPIRE':
        return expire(stream, l, m, at);
      case 'SUPPRESS': {
        const r = await applyOn(
          stream,
          l,
          { type: 'SuppressByPolicy', MessageId: m.MessageId, Reason: d.reason, now: at },
          `suppress/${m.MessageId}`,
        );
        await settleQuota(l.tenant, r.state, m.MessageId);
        return 'suppressed';
      }
      case 'DEFER':
        await applyOn(
          stream,
          l,
          { type: 'DeferForQuietHours', MessageId: m.MessageId, Until: d.until, now: at },
          `defer/${m.MessageId}/${m.Attempts.length}/${d.until}`,
        );
        return 'deferred';
    }
  }

  /** records the message's expiry and gives its quota slot back */
  async function expire(stream: string, l: LoadedNotification, m: Message, at: string): Promise<'expired'> {
    const r = await applyOn(stream, l, { type: 'Expire', MessageId: m.MessageId, now: at }, `expire/${m.MessageId}`);
    await settleQuota(l.tenant, r.state, m.MessageId);
    return 'expired';
  }

  /** after a refused start: the stream as it is now decides whether the message's slot goes back */
  async function releaseIfEnded(stream: string, messageId: string): Promise<void> {
    const fresh = await load(stream);
    if (fresh !== null) await settleQuota(fresh.tenant, fresh.state, messageId);
  }

  /** a message that ended with nothing accepted gives its quota slot back (a crash before this keeps it: never over the cap) */
  async function settleQuota(tenant: string, state: unknown, messageId: string): Promise<void> {
    const s = state as NotificationState;
    if (deps.gate === undefined || s.status !== 'accepted') return;
    await deps.gate.releaseIfUncommitted({ tenant, state: s, messageId, now: now() });
  }

  /**
   * A step that raced is tried again on the fresh stream: the writer that came first may have been another
   * message of the same notification (two PLANNED messages of one send dispatched side by side), which
   * leaves this message's work undone; its due item would otherwise wait out its lease. The appends'
   * expected revisions still keep a message from being called twice.
   */
  async function advance(
    stream: string,
    messageId: string,
    known?: LoadedNotification,
    freshness: Freshness = 'current',
  ): Promise<DispatchStep> {
    let step: DispatchStep = 'raced';
    if (known !== undefined && freshness === 'maybe-older') {
      step = await advanceOnce(stream, messageId, known);
      // an older state only holds for a step that appended on it (the revision checked it); this try is not
      // one of the fresh ones below
      if (!APPENDED.has(step)) step = 'raced';
      known = undefined;
    }
    for (let i = 0; i < 5 && step === 'raced'; i++)
      step = await advanceOnce(stream, messageId, i === 0 ? known : undefined);
    return step;
  }

  /**
   * One step of a message's life, as its notification's stream says: read now, or `known` (the state the
   * caller's own append just left, a fresh acceptance: the appends still carry that revision, so a stream
   * that moved meanwhile makes the step race and read again)
   */
  async function advanceOnce(stream: string, messageId: string, known?: LoadedNotification): Promise<DispatchStep> {
    try {
      const l = known ?? (await load(stream));
      if (l === null) return 'missing';
      const m = l.state.messages[messageId];
      if (m === undefined) return 'missing';
      const work = nextWork(m);
      const at = now();
      if (work === null) return 'nothing';
      if (work.at > at) return 'not-due';
      switch (work.kind) {
        case 'dispatch':
        case 'retry':
          // expiry calls nobody: it is recorded whether the hub is on or off for the tenant
          if (expiredAt(l.state, m, at)) return await expire(stream, l, m, at);
          // the hub switched off for the tenant: nothing else of the step runs (the caller pushes its item back)
          if (deps.hubSwitch !== undefined && !(await deps.hubSwitch.enabled(l.tenant))) return 'held';
          if (!mayStartAutomatic(l.state, m, at)) return 'not-due';
          if (deps.gate !== undefined) {
            const denied = await gateDenies(stream, l, m, at);
            if (denied !== null) return denied;
            try {
              return await attempt(stream, l, m);
            } catch (err) {
              // the slot was reserved and the start refused or raced (a cancel, an expiry came first): a message
              // that ended without a committed attempt gives it back now (the quota-release reactor also would)
              await releaseIfEnded(stream, m.MessageId);
              throw err;
            }
          }
          return await attempt(stream, l, m);
        case 'lost-check': {
          const id = m.ActiveAttemptId!;
          deps.log?.warn(
            { stream, messageId, attemptId: id },
            'attempt without outcome: the process stopped during the call; the outcome is uncertain',
          );
          await applyOn(
            stream,
            l,
            { type: 'RecordLostAttempt', MessageId: m.MessageId, AttemptId: id, now: at },
            `lost/${id}`,
          );
          return 'lost';
        }
        case 'receipt-deadline':
          await applyOn(
            stream,
            l,
            { type: 'PassReceiptDeadline', MessageId: m.MessageId, now: at },
            `deadline/${m.ActiveAttemptId}`,
          );
          return 'deadline-passed';
      }
    } catch (err) {
      // another worker wrote first, or the message moved on under us: it is theirs
      if (err instanceof Raced || (isDomainError(err) && err.status === 409)) return 'raced';
      throw err;
    }
  }

  /**
   * One MANUAL attempt (an operator's retry), on the state read now: AttemptStarted is appended with that
   * revision (the decider rechecks eligibility), so of two concurrent requests only one calls; the caller
   * checked replays, eligibility and the customer policies first. 'raced': the stream moved, check again.
   */
  async function manualAttempt(
    stream: string,
    messageId: string,
    manual: ManualAttempt,
  ): Promise<'submitted' | 'raced' | 'missing'> {
    const l = await load(stream);
    const m = l?.state.messages[messageId];
    if (l === null || m === undefined) return 'missing';
    try {
      await attempt(
        stream,
        {
          ...l,
          actor: manual.actor,
          ...(manual.correlationId !== undefined && { correlationId: manual.correlationId }),
        },
        m,
        manual,
      );
      return 'submitted';
    } catch (err) {
      if (err instanceof Raced) return 'raced';
      throw err;
    }
  }

  return { advance, manualAttempt };
}

export type DispatchProcess = ReturnType<typeof createDispatchProcess>;
