import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import {
  type DeliveryEvent,
  type DeliveryScheduledData,
  deliveryDecider,
  UNCERTAIN_ERROR,
} from '../../../domain/bridge/delivery.decider.ts';
import type { BridgeEvent, Target } from '../../../domain/bridge/model.ts';
import { fold } from '../../../domain/core/decider.ts';
import { deciderSpec } from '../../core/decider-spec.ts';

const spec = deciderSpec(deliveryDecider);
const test = suite('delivery decider');

const T0 = '2026-01-01T00:00:00.000Z';
const at = (s: number) => new Date(Date.parse(T0) + s * 1000).toISOString();
const ref = { deliveryId: 'd'.repeat(64), eventKey: 'k1', ruleTenant: 'acme', ruleId: 'r1', targetId: 1 };
const event: BridgeEvent = {
  id: 'e1',
  source: 'shop:checkout',
  type: 'shop:Order:Placed',
  dataContentType: 'application/json',
  eventBusName: 'orders',
  data: { amount: 5 },
};
const target = (o: Partial<Target> = {}): Target => ({
  id: 1,
  typeId: 3,
  pushRetryStrategy: 'BACKOFF_RETRY',
  errorTolerance: 'ALL',
  deadLetterRecord: true,
  params: [],
  conversion: { kind: 'complete' },
  ...o,
});
const scheduledData = (t: Target | null = target()): Omit<DeliveryScheduledData, 'scheduledAt'> => ({
  ...ref,
  tenant: 'acme',
  publishedStream: 'published-acme.k1',
  platform: false,
  typeId: 3,
  target: t,
  payload: { p: 1 },
  dueAt: T0,
});
const scheduled = (t: Target | null = target()): DeliveryEvent => ({
  type: 'DeliveryScheduled',
  data: { ...scheduledData(t), scheduledAt: T0 },
});
const started = (n: number, s: number, round = 1): DeliveryEvent => ({
  type: 'DeliveryAttemptStarted',
  data: { ...ref, attemptId: `a${n}`, attempt: n, round, at: at(s) },
});
const failed = (
  n: number,
  s: number,
  next: string | null,
  o: { uncertain?: true; error?: string } = {},
): DeliveryEvent => ({
  type: 'DeliveryAttemptFailed',
  data: {
    ...ref,
    attemptId: `a${n}`,
    attempt: n,
    at: at(s),
    error: o.error ?? 'HTTP 503',
    httpStatus: 503,
    retryable: true,
    ...(o.uncertain && { uncertain: true }),
    nextAttemptAt: next,
  },
});
const failure = (n: number, s: number, o: { retryable?: boolean; random?: number } = {}) => ({
  type: 'RecordFailure' as const,
  attemptId: `a${n}`,
  error: 'HTTP 503',
  httpStatus: 503,
  retryable: o.retryable ?? true,
  random: o.random ?? 0,
  event,
  now: at(s),
});
/** three BACKOFF retries used up: attempts 1-4, the 4th in flight */
const exhaustedRound = (t = target()): DeliveryEvent[] => [
  scheduled(t),
  started(1, 0),
  failed(1, 0, at(10)),
  started(2, 10),
  failed(2, 10, at(20)),
  started(3, 20),
  failed(3, 20, at(30)),
  started(4, 30),
];

test('schedules once: a redelivered EventRouted schedules nothing again', () => {
  spec.given([]).when({ type: 'ScheduleDelivery', data: scheduledData(), now: T0 }).then([scheduled()]);
  spec
    .given([scheduled()])
    .when({ type: 'ScheduleDelivery', data: scheduledData(), now: at(5) })
    .then([]);
});

test('a target deleted before scheduling: scheduled and discarded at once, nothing to call', () => {
  spec
    .given([])
    .when({ type: 'ScheduleDelivery', data: scheduledData(null), now: T0 })
    .then([
      scheduled(null),
      {
        type: 'DeliveryDiscarded',
        data: { ...ref, at: T0, lastError: 'the rule target no longer exists', attempts: 0 },
      },
    ]);
});

test('an attempt starts when due, once at a time', () => {
  spec
    .given([scheduled()])
    .when({ type: 'StartAttempt', attemptId: 'a1', now: T0 })
    .then([started(1, 0)]);
  spec
    .given([scheduled(), started(1, 0)])
    .when({ type: 'StartAttempt', attemptId: 'a2', now: at(1) })
    .thenThrows('DELIVERY.IN_FLIGHT', 409);
  spec
    .given([scheduled(), started(1, 0), failed(1, 0, at(10))])
    .when({ type: 'StartAttempt', attemptId: 'a2', now: at(9) })
    .thenThrows('DELIVERY.NOT_DUE', 409);
  spec
    .given([scheduled(), started(1, 0), failed(1, 0, at(10))])
    .when({ type: 'StartAttempt', attemptId: 'a2', now: at(10) })
    .then([started(2, 10)]);
  spec.given([]).when({ type: 'StartAttempt', attemptId: 'a1', now: T0 }).thenThrows('DELIVERY.NOT_FOUND', 404);
});

test('success records the HTTP status; only the attempt in flight gets an outcome', () => {
  spec
    .given([scheduled(), started(1, 0)])
    .when({ type: 'RecordSuccess', attemptId: 'a1', httpStatus: 202, now: at(1) })
    .then([{ type: 'DeliverySucceeded', data: { ...ref, attemptId: 'a1', attempt: 1, at: at(1), httpStatus: 202 } }]);
  spec
    .given([scheduled(), started(1, 0)])
    .when({ type: 'RecordSuccess', attemptId: 'other', now: at(1) })
    .thenThrows('DELIVERY.NO_SUCH_ATTEMPT', 409);
});

test('a failure schedules the next attempt by the target’s strategy (the random part comes in)', () => {
  spec
    .given([scheduled(), started(1, 0)])
    .when(failure(1, 2, { random: 0.5 }))
    .then([failed(1, 2, at(17))]);
  const exp = target({ pushRetryStrategy: 'EXPONENTIAL_DECAY_RETRY' });
  spec
    .given([scheduled(exp), started(1, 0)])
    .when(failure(1, 0))
    .then([failed(1, 0, at(1))]);
  spec
    .given([scheduled(exp), started(1, 0), failed(1, 0, at(1)), started(2, 1)])
    .when(failure(2, 1))
    .then([failed(2, 1, at(3))]);
});

test('ErrorTolerance ALL with DeadLetterRecord: after the last retry a dead letter with the raw event, payload and last error', () => {
  spec
    .given(exhaustedRound())
    .when(failure(4, 31))
    .then([
      failed(4, 31, null),
      {
        type: 'DeliveryDeadLettered',
        data: { ...ref, at: at(31), lastError: 'HTTP 503', httpStatus: 503, attempts: 4, event, payload: { p: 1 } },
      },
    ]);
});

test('ErrorTolerance ALL without DeadLetterRecord: discarded', () => {
  spec
    .given(exhaustedRound(target({ deadLetterRecord: false })))
    .when(failure(4, 31))
    .then([
      failed(4, 31, null),
      { type: 'DeliveryDiscarded', data: { ...ref, at: at(31), lastError: 'HTTP 503', httpStatus: 503, attempts: 4 } },
    ]);
});

test('ErrorTolerance NONE: blocked (the rule target follows), with the round', () => {
  spec
    .given(exhaustedRound(target({ errorTolerance: 'NONE' })))
    .when(failure(4, 31))
    .then([
      failed(4, 31, null),
      {
        type: 'DeliveryBlocked',
        data: { ...ref, at: at(31), lastError: 'HTTP 503', httpStatus: 503, attempts: 4, round: 1 },
      },
    ]);
});

test('a failure retrying cannot help goes to the tolerance rule at once', () => {
  spec
    .given([scheduled(), started(1, 0)])
    .when(failure(1, 1, { retryable: false }))
    .then([
      {
        type: 'DeliveryAttemptFailed',
        data: {
          ...ref,
          attemptId: 'a1',
          attempt: 1,
          at: at(1),
          error: 'HTTP 503',
          httpStatus: 503,
          retryable: false,
          nextAttemptAt: null,
        },
      },
      {
        type: 'DeliveryDeadLettered',
        data: { ...ref, at: at(1), lastError: 'HTTP 503', httpStatus: 503, attempts: 1, event, payload: { p: 1 } },
      },
    ]);
});

test('an attempt without outcome is recorded as uncertain, due at once, and does not spend the retry budget', () => {
  const uncertain: DeliveryEvent = {
    type: 'DeliveryAttemptFailed',
    data: {
      ...ref,
      attemptId: 'a1',
      attempt: 1,
      at: at(60),
      error: UNCERTAIN_ERROR,
      retryable: true,
      uncertain: true,
      nextAttemptAt: at(60),
    },
  };
  spec
    .given([scheduled(), started(1, 0)])
    .when({ type: 'RecordUncertain', now: at(60) })
    .then([uncertain]);
  // after an uncertain attempt the round still has its 3 retries
  const history = [scheduled(), started(1, 0), uncertain, started(2, 60)];
  spec
    .given(history)
    .when(failure(2, 61))
    .then([failed(2, 61, at(71))]);
  spec.given([scheduled()]).when({ type: 'RecordUncertain', now: T0 }).thenThrows('DELIVERY.NOT_IN_FLIGHT', 409);
});

test('retries over without the tolerance decision (an older append): ApplyTolerance decides it', () => {
  const history = [...exhaustedRound(), failed(4, 31, null)];
  assert.is(fold(deliveryDecider, history).status, 'exhausted');
  spec
    .given(history)
    .when({ type: 'ApplyTolerance', event, now: at(40) })
    .then([
      {
        type: 'DeliveryDeadLettered',
        data: { ...ref, at: at(40), lastError: 'HTTP 503', httpStatus: 503, attempts: 4, event, payload: { p: 1 } },
      },
    ]);
  spec.given([scheduled()]).when({ type: 'ApplyTolerance', event, now: T0 }).thenThrows('DELIVERY.NOT_EXHAUSTED', 409);
});

const deadLettered: DeliveryEvent[] = [
  ...exhaustedRound(),
  failed(4, 31, null),
  {
    type: 'DeliveryDeadLettered',
    data: { ...ref, at: at(31), lastError: 'HTTP 503', httpStatus: 503, attempts: 4, event, payload: { p: 1 } },
  },
];

test('redrive from the dead letter queue: a new round with a fresh retry budget; attempt numbers go on', () => {
  const redriven: DeliveryEvent = {
    type: 'DeliveryRedriven',
    data: { ...ref, at: at(100), reason: 'dead-letter', by: 'ops@acme', round: 2 },
  };
  spec
    .given(deadLettered)
    .when({ type: 'RedriveDelivery', reason: 'dead-letter', by: 'ops@acme', now: at(100) })
    .then([redriven]);
  spec
    .given([...deadLettered, redriven])
    .when({ type: 'StartAttempt', attemptId: 'a5', now: at(100) })
    .then([started(5, 100, 2)]);
  // the new round retries three times again, its day counted from its own first attempt
  spec
    .given([...deadLettered, redriven, started(5, 100, 2)])
    .when(failure(5, 101))
    .then([failed(5, 101, at(111))]);
  spec
    .given([scheduled()])
    .when({ type: 'RedriveDelivery', reason: 'dead-letter', by: 'ops', now: T0 })
    .thenThrows('DELIVERY.NOT_DEAD_LETTERED', 409);
});

test('purge: only a dead letter', () => {
  spec
    .given(deadLettered)
    .when({ type: 'PurgeDelivery', by: 'ops@acme', now: at(100) })
    .then([{ type: 'DeliveryPurged', data: { ...ref, at: at(100), by: 'ops@acme' } }]);
  spec
    .given([scheduled()])
    .when({ type: 'PurgeDelivery', by: 'ops', now: T0 })
    .thenThrows('DELIVERY.NOT_DEAD_LETTERED', 409);
});

test('resume of a blocked delivery: a new round', () => {
  const blocked: DeliveryEvent[] = [
    ...exhaustedRound(target({ errorTolerance: 'NONE' })),
    failed(4, 31, null),
    { type: 'DeliveryBlocked', data: { ...ref, at: at(31), lastError: 'HTTP 503', attempts: 4, round: 1 } },
  ];
  spec
    .given(blocked)
    .when({ type: 'RedriveDelivery', reason: 'resume', by: 'system', now: at(200) })
    .then([{ type: 'DeliveryRedriven', data: { ...ref, at: at(200), reason: 'resume', by: 'system', round: 2 } }]);
  spec
    .given(blocked)
    .when({ type: 'RedriveDelivery', reason: 'dead-letter', by: 'ops', now: at(200) })
    .thenThrows('DELIVERY.NOT_DEAD_LETTERED', 409);
  spec
    .given(deadLettered)
    .when({ type: 'RedriveDelivery', reason: 'resume', by: 'ops', now: at(200) })
    .thenThrows('DELIVERY.NOT_BLOCKED', 409);
});

test('state: attempts, round, last error and the attempt in flight', () => {
  const s = fold(deliveryDecider, [scheduled(), started(1, 0), failed(1, 0, at(10)), started(2, 10)]);
  assert.is(s.status, 'in-flight');
  if (s.status === 'none') return;
  assert.is(s.attempts, 2);
  assert.is(s.roundFailures, 1);
  assert.is(s.roundStartedAt, T0);
  assert.equal(s.inFlight, { attemptId: 'a2', attempt: 2, at: at(10) });
  assert.is(s.lastError, 'HTTP 503');
});

test('Retry-After: the next attempt is not before it; a shorter one leaves the strategy’s time', () => {
  // BACKOFF with random 0.5: 15 s after the failure at 2 s; the peer asked for 60 s
  spec
    .given([scheduled(), started(1, 0)])
    .when({ ...failure(1, 2, { random: 0.5 }), retryAfterMs: 60_000 })
    .then([failed(1, 2, at(62))]);
  spec
    .given([scheduled(), started(1, 0)])
    .when({ ...failure(1, 2, { random: 0.5 }), retryAfterMs: 5_000 })
    .then([failed(1, 2, at(17))]);
  spec
    .given([scheduled(), started(1, 0)])
    .when({ ...failure(1, 2, { random: 0.5 }), retryAfterMs: 0 })
    .then([failed(1, 2, at(17))]);
  // it never adds an attempt the strategy does not allow: the last BACKOFF retry failed, the tolerance rule follows
  spec
    .given(exhaustedRound())
    .when({ ...failure(4, 31), retryAfterMs: 60_000 })
    .then([
      failed(4, 31, null),
      {
        type: 'DeliveryDeadLettered',
        data: { ...ref, at: at(31), lastError: 'HTTP 503', httpStatus: 503, attempts: 4, event, payload: { p: 1 } },
      },
    ]);
});

test('Retry-After past EXPONENTIAL_DECAY_RETRY’s 24 h window ends the round (as a slow failure does)', () => {
  const exp = target({ pushRetryStrategy: 'EXPONENTIAL_DECAY_RETRY' });
  // the round began at 0; a failure at 86,000 s would be retried at 86,001 s, but the peer asks for an hour
  spec
    .given([scheduled(exp), started(1, 0)])
    .when({ ...failure(1, 86_000), retryAfterMs: 3_600_000 })
    .then([
      failed(1, 86_000, null),
      {
        type: 'DeliveryDeadLettered',
        data: { ...ref, at: at(86_000), lastError: 'HTTP 503', httpStatus: 503, attempts: 1, event, payload: { p: 1 } },
      },
    ]);
  // inside the window it only moves the time
  spec
    .given([scheduled(exp), started(1, 0)])
    .when({ ...failure(1, 0), retryAfterMs: 120_000 })
    .then([failed(1, 0, at(120))]);
});

test.run();
