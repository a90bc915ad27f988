// Property: whatever a receiver does (answers 2xx, 400, 429, 500, times out, resets, refuses the
// connection, sends receipts late, twice, out of order, for old attempts) and however time passes, every
// message moves only along the spec's state table (domain/hub/message-transitions.ts), and the state's
// attributes stay consistent, and the due work read off each event (the dispatch projection's) is what the
// folded state says. The decider is driven as the dispatch worker and the receipt endpoint drive it.
import * as fc from 'fast-check';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { isDomainError } from '../../../domain/core/domain-error.ts';
import { classify, type Observation } from '../../../domain/hub/classification.ts';
import { isAllowed } from '../../../domain/hub/message-transitions.ts';
import { nextWork, workAfter } from '../../../domain/hub/message-work.ts';
import {
  expiredAt,
  mayStartAutomatic,
  type NotificationCommand,
  notificationDecider,
} from '../../../domain/hub/notification.decider.ts';
import {
  type Message,
  type NotificationEvent,
  type NotificationState,
  TERMINAL_STATES,
} from '../../../domain/hub/notification.model.ts';
import { acceptedEvent, T0 } from './notification-fixtures.ts';

type Live = Extract<NotificationState, { status: 'accepted' }>;

const observations: Observation[] = [
  { kind: 'response', status: 200 },
  { kind: 'response', status: 202 },
  { kind: 'response', status: 400 },
  { kind: 'response', status: 404 },
  { kind: 'response', status: 429, retryAfterMs: 120_000 },
  { kind: 'response', status: 500 },
  { kind: 'response', status: 503 },
  { kind: 'failure', phase: 'exchange', reason: 'timeout', message: 'read timeout' },
  { kind: 'failure', phase: 'exchange', reason: 'reset', message: 'socket hang up' },
  { kind: 'failure', phase: 'connect', reason: 'refused', message: 'ECONNREFUSED' },
  { kind: 'failure', phase: 'connect', reason: 'tls', message: 'certificate' },
];

const action = fc.oneof(
  fc.record({ kind: fc.constant('worker' as const), message: fc.nat(3) }),
  fc.record({
    kind: fc.constant('answer' as const),
    message: fc.nat(3),
    observation: fc.constantFrom(...observations),
  }),
  fc.record({
    kind: fc.constant('receipt' as const),
    message: fc.nat(3),
    attempt: fc.nat(5),
    status: fc.constantFrom('ACCEPTED', 'DELIVERED', 'FAILED' as const),
    retryable: fc.boolean(),
  }),
  fc.record({ kind: fc.constant('wait' as const), seconds: fc.integer({ min: 0, max: 4000 }) }),
  // operator actions (notification.operator.decide.ts): refused ones change nothing
  fc.record({
    kind: fc.constant('operator' as const),
    message: fc.nat(3),
    op: fc.constantFrom('retry', 'cancel', 'cancelAll', 'verifyDelivered', 'verifyFailed', 'completeRole'),
  }),
  // the dispatch gate's denials at a claim (domain/hub/dispatch-gate.ts): suppressed by a policy, or deferred by quiet hours
  fc.record({
    kind: fc.constant('gate' as const),
    message: fc.nat(3),
    suppress: fc.boolean(),
    seconds: fc.integer({ min: 1, max: 30_000 }),
  }),
);

const setup = fc.record({
  count: fc.integer({ min: 1, max: 3 }),
  strategy: fc.constantFrom('ALL' as const, 'FALLBACK' as const),
  receiptMode: fc.constantFrom('FINAL_RESULT' as const, 'ACCEPTANCE_ONLY' as const),
  maxAttempts: fc.integer({ min: 1, max: 4 }),
  expiresIn: fc.option(fc.integer({ min: 1, max: 20_000 }), { nil: undefined }),
});

/** the attributes that must hold together in any state */
function consistent(s: Live, m: Message): string | null {
  if (m.NextRetryTime !== undefined && (m.State !== 'FAILED' || m.DeliveryUncertain))
    return 'NextRetryTime outside a FAILED, certain message';
  if (m.ReceiptDeadline !== undefined && m.State !== 'ACCEPTED') return 'a receipt deadline outside ACCEPTED';
  if (m.TrackingCompleted && m.State !== 'ACCEPTED') return 'TrackingCompleted outside ACCEPTED';
  if (m.DeliveryUncertain && m.State !== 'SUBMITTED' && m.State !== 'ACCEPTED')
    return 'DeliveryUncertain outside SUBMITTED/ACCEPTED';
  if ((m.State === 'SUBMITTED' || m.State === 'ACCEPTED' || m.State === 'DELIVERED') && m.ActiveAttemptId === undefined)
    return `${m.State} without an active attempt`;
  if (m.State === 'WAITING' && m.Attempts.length > 0) return 'a waiting candidate with attempts';
  if (m.AutoAttempts > m.RetryPolicy.MaxAttempts) return 'more automatic attempts than MaxAttempts';
  if (m.State === 'DELIVERED') {
    const a = m.Attempts.find((x) => x.AttemptId === m.ActiveAttemptId);
    if (a?.Evidence !== 'DELIVERED') return 'DELIVERED without a DELIVERED receipt for the active attempt';
  }
  // one candidate of a FALLBACK role holds the turn at a time
  if (m.Strategy === 'FALLBACK') {
    const holders = s.order
      .map((id) => s.messages[id]!)
      .filter(
        (x) =>
          x.Role === m.Role &&
          x.Strategy === 'FALLBACK' &&
          x.State !== 'WAITING' &&
          !TERMINAL_STATES.has(x.State) &&
          !(x.State === 'FAILED' && x.FinalFailure) &&
          !(x.State === 'ACCEPTED' && x.TrackingCompleted),
      );
    if (holders.length > 1) return `${holders.length} candidates hold the turn`;
  }
  return null;
}

test('random receiver behaviour never leaves a message in a state the table does not allow', () => {
  fc.assert(
    fc.property(setup, fc.array(action, { maxLength: 80 }), (cfg, actions) => {
      const retry = {
        MaxAttempts: cfg.maxAttempts,
        RetryInitialDelaySeconds: 300,
        RetryBackoffMultiplier: 2,
        RetryMaxDelaySeconds: 3600,
      };
      let now = Date.parse(T0);
      const iso = () => new Date(now).toISOString();
      const accepted = acceptedEvent({
        count: cfg.count,
        strategy: cfg.strategy,
        receiptMode: cfg.receiptMode,
        retry,
        ...(cfg.expiresIn !== undefined && { expiresAt: new Date(now + cfg.expiresIn * 1000).toISOString() }),
      });
      let state = notificationDecider.evolve(notificationDecider.initialState(), accepted) as Live;
      for (const w of workAfter(accepted)) assert.equal(w.work, nextWork(state.messages[w.messageId]!));
      let seq = 0;

      const run = (command: NotificationCommand) => {
        let events: NotificationEvent[];
        try {
          events = notificationDecider.decide(command, state);
        } catch (err) {
          if (isDomainError(err) && err.status < 500) return; // a command the state does not take
          throw err;
        }
        for (const e of events) {
          const id = (e.data as { MessageId: string }).MessageId;
          const before = state.messages[id]!;
          state = notificationDecider.evolve(state, e) as Live;
          const after = state.messages[id]!;
          if (before.State !== after.State || e.type === 'MessageUncertain' || e.type === 'MessageAccepted') {
            assert.ok(
              isAllowed(before.State, after.State, before.DeliveryUncertain),
              `${e.type}: ${before.State} → ${after.State} is not in the state table`,
            );
          }
          if (TERMINAL_STATES.has(before.State))
            assert.is(after.State, before.State, `${e.type} moved a terminal message`);
          // the dispatch projection reads due work off the event: it must be what the folded state says
          for (const w of workAfter(e))
            assert.equal(w.work, nextWork(state.messages[w.messageId]!), `${e.type}: due work of ${w.messageId}`);
        }
        for (const id of state.order) {
          const problem = consistent(state, state.messages[id]!);
          assert.is(problem, null, `${id}: ${problem}`);
        }
      };
      const messageAt = (n: number) => state.messages[state.order[n % state.order.length]!]!;

      for (const a of actions) {
        switch (a.kind) {
          case 'wait':
            now += a.seconds * 1000;
            break;
          case 'worker': {
            const m = messageAt(a.message);
            const work = nextWork(m);
            if (work === null || work.at > iso()) break;
            if (work.kind === 'dispatch' || work.kind === 'retry') {
              if (expiredAt(state, m, iso())) run({ type: 'Expire', MessageId: m.MessageId, now: iso() });
              else if (mayStartAutomatic(state, m, iso())) {
                seq++;
                run({
                  type: 'StartAttempt',
                  MessageId: m.MessageId,
                  AttemptId: `a${seq}`,
                  ClientRequestId: `c${seq}`,
                  CallbackId: `cb${seq}`,
                  Kind: 'AUTO',
                  OutcomeDueBy: new Date(now + 60_000).toISOString(),
                  now: iso(),
                });
              }
            } else if (work.kind === 'lost-check')
              run({ type: 'RecordLostAttempt', MessageId: m.MessageId, AttemptId: m.ActiveAttemptId!, now: iso() });
            else run({ type: 'PassReceiptDeadline', MessageId: m.MessageId, now: iso() });
            break;
          }
          case 'gate': {
            const m = messageAt(a.message);
            const work = nextWork(m);
            if (
              work === null ||
              work.at > iso() ||
              (work.kind !== 'dispatch' && work.kind !== 'retry') ||
              !mayStartAutomatic(state, m, iso())
            )
              break;
            if (a.suppress)
              run({ type: 'SuppressByPolicy', MessageId: m.MessageId, Reason: 'PREFERENCE_OPTED_OUT', now: iso() });
            else {
              // as the gate: the release, at most ExpiresAt
              const release = new Date(now + a.seconds * 1000).toISOString();
              const expires = state.notification.ExpiresAt;
              run({
                type: 'DeferForQuietHours',
                MessageId: m.MessageId,
                Until: expires !== undefined && release >= expires ? expires : release,
                now: iso(),
              });
            }
            break;
          }
          case 'operator': {
            const m = messageAt(a.message);
            const at = iso();
            if (a.op === 'retry') {
              seq++;
              run({
                type: 'StartManualAttempt',
                MessageId: m.MessageId,
                AttemptId: `a${seq}`,
                ClientRequestId: `c${seq}`,
                CallbackId: `cb${seq}`,
                OutcomeDueBy: new Date(now + 60_000).toISOString(),
                Reason: 'op',
                now: at,
              });
            } else if (a.op === 'cancel') run({ type: 'CancelUnsent', MessageId: m.MessageId, Reason: 'op', now: at });
            else if (a.op === 'cancelAll') run({ type: 'CancelUnsent', Reason: 'op', now: at });
            else if (a.op === 'completeRole')
              run({ type: 'CompleteRole', MessageId: m.MessageId, Reason: 'op', now: at });
            else
              run({
                type: 'RecordManualReceipt',
                MessageId: m.MessageId,
                Status: a.op === 'verifyDelivered' ? 'DELIVERED' : 'FAILED',
                VerificationReason: 'op',
                now: at,
              });
            break;
          }
          case 'answer': {
            const m = messageAt(a.message);
            const active = m.Attempts.find((x) => x.AttemptId === m.ActiveAttemptId);
            if (active === undefined || active.Outcome !== undefined) break;
            run({
              type: 'RecordOutcome',
              MessageId: m.MessageId,
              AttemptId: active.AttemptId,
              outcome: classify(a.observation),
              now: iso(),
            });
            break;
          }
          case 'receipt': {
            const m = messageAt(a.message);
            const attempt = m.Attempts[a.attempt % Math.max(1, m.Attempts.length)];
            if (attempt === undefined) break;
            run({
              type: 'ApplyReceipt',
              CallbackId: attempt.CallbackId,
              MessageId: m.MessageId,
              Status: a.status,
              Retryable: a.retryable,
              now: iso(),
            });
            break;
          }
        }
      }
    }),
    { numRuns: 400 },
  );
});

test.run();
