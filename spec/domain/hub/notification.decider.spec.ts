import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { fold } from '../../../domain/core/decider.ts';
import { notificationDecider } from '../../../domain/hub/notification.decider.ts';
import type { NotificationEvent } from '../../../domain/hub/notification.model.ts';
import { deciderSpec } from '../../core/decider-spec.ts';
import {
  acceptedEvent,
  aid,
  at,
  cb,
  mid,
  OK,
  outcome,
  planned,
  REJECT,
  RETRY,
  receipt,
  start,
  started,
  T0,
  UNKNOWN,
} from './notification-fixtures.ts';

const spec = deciderSpec(notificationDecider);
const one = acceptedEvent();
const accepted1: NotificationEvent = {
  type: 'MessageAccepted',
  data: {
    MessageId: mid(1),
    AttemptId: aid(1, 1),
    Source: 'RESPONSE',
    HttpStatus: 200,
    ReceiptDeadline: at(3600),
    TrackingCompleted: false,
    At: T0,
  },
};
const uncertain1: NotificationEvent[] = [
  {
    type: 'MessageUncertain',
    data: {
      MessageId: mid(1),
      AttemptId: aid(1, 1),
      Cause: 'SERVER_ERROR',
      Error: 'the receiver answered 500',
      HttpStatus: 500,
      At: T0,
    },
  },
  {
    type: 'AlertRaised',
    data: {
      MessageId: mid(1),
      AttemptId: aid(1, 1),
      Classification: 'UNCERTAIN',
      Reason: 'the receiver answered 500',
      At: T0,
    },
  },
];
const state = (events: NotificationEvent[]) => fold(notificationDecider, events);
const message = (events: NotificationEvent[], n: number) => {
  const s = state(events);
  if (s.status !== 'accepted') throw new Error('not accepted');
  return s.messages[mid(n)]!;
};

test('acceptance is one event; accepting again appends nothing', () => {
  const e = acceptedEvent();
  spec
    .given([])
    .when({
      type: 'Accept',
      notification: (e.data as any).Notification,
      messages: (e.data as any).Messages,
      acknowledgement: (e.data as any).Acknowledgement,
      now: T0,
    })
    .then([e]);
  spec
    .given([e])
    .when({
      type: 'Accept',
      notification: (e.data as any).Notification,
      messages: (e.data as any).Messages,
      acknowledgement: (e.data as any).Acknowledgement,
      now: T0,
    })
    .then([]);
});

test('PLANNED → SUBMITTED: a new attempt with its ClientRequestId and CallbackId; the message records it as active', () => {
  spec
    .given([one])
    .when(start(1, 1))
    .then([started(1, 1)]);
  const m = message([one, started(1, 1)], 1);
  assert.is(m.State, 'SUBMITTED');
  assert.is(m.ActiveAttemptId, aid(1, 1));
  assert.is(m.AutoAttempts, 1);
});

test('the dispatch gate: not before the due time, not a WAITING candidate, not past ExpiresAt', () => {
  spec
    .given([acceptedEvent({ messages: [planned(1, { State: 'SCHEDULED', DueAt: at(60) })] })])
    .when(start(1, 1))
    .thenThrows('MESSAGE.STATE_CONFLICT', 409);
  spec
    .given([acceptedEvent({ count: 2, strategy: 'FALLBACK' })])
    .when(start(2, 1))
    .thenThrows('MESSAGE.STATE_CONFLICT', 409);
  spec
    .given([acceptedEvent({ expiresAt: T0 })])
    .when(start(1, 1))
    .thenThrows('MESSAGE.STATE_CONFLICT', 409);
});

test('2xx under FINAL_RESULT: ACCEPTED, the receipt deadline starts (hub time + ReceiptTimeoutSeconds)', () => {
  spec
    .given([one, started(1, 1)])
    .when(outcome(1, 1, OK))
    .then([accepted1]);
});

test("2xx under ACCEPTANCE_ONLY: TrackingCompleted, and the role's waiting candidates are suppressed", () => {
  const e = acceptedEvent({ count: 2, strategy: 'FALLBACK', receiptMode: 'ACCEPTANCE_ONLY' });
  spec
    .given([e, started(1, 1)])
    .when(outcome(1, 1, OK))
    .then([
      {
        type: 'MessageAccepted',
        data: {
          MessageId: mid(1),
          AttemptId: aid(1, 1),
          Source: 'RESPONSE',
          HttpStatus: 200,
          TrackingCompleted: true,
          At: T0,
        },
      },
      { type: 'MessageSuppressed', data: { MessageId: mid(2), Reason: 'ROLE_COMPLETED', At: T0 } },
    ]);
});

test('4xx other than 429: FAILED, definite permanent, no retry; ALL: a dead-letter alert', () => {
  spec
    .given([one, started(1, 1)])
    .when(outcome(1, 1, REJECT))
    .then([
      {
        type: 'MessageFailed',
        data: {
          MessageId: mid(1),
          AttemptId: aid(1, 1),
          Source: 'RESPONSE',
          Definite: 'PERMANENT',
          Error: 'the receiver answered 400',
          HttpStatus: 400,
          Final: true,
          At: T0,
        },
      },
      {
        type: 'AlertRaised',
        data: {
          MessageId: mid(1),
          AttemptId: aid(1, 1),
          Classification: 'DEFINITE_FINAL_FAILURE',
          Reason: 'the receiver answered 400',
          At: T0,
        },
      },
    ]);
});

test('FALLBACK: a definite final failure promotes the next candidate (PLANNED), no alert', () => {
  spec
    .given([acceptedEvent({ count: 3, strategy: 'FALLBACK' }), started(1, 1)])
    .when(outcome(1, 1, REJECT))
    .then([
      {
        type: 'MessageFailed',
        data: {
          MessageId: mid(1),
          AttemptId: aid(1, 1),
          Source: 'RESPONSE',
          Definite: 'PERMANENT',
          Error: 'the receiver answered 400',
          HttpStatus: 400,
          Final: true,
          At: T0,
        },
      },
      { type: 'MessagePromoted', data: { MessageId: mid(2), State: 'PLANNED', DueAt: T0, After: mid(1), At: T0 } },
    ]);
});

test('429 or a connect failure: FAILED with NextRetryTime = delay(n) (300 s, then 600 s); MaxAttempts 3 ends it', () => {
  const e = acceptedEvent();
  const failed = (attempt: number, next: string | undefined, now: string): NotificationEvent => ({
    type: 'MessageFailed',
    data: {
      MessageId: mid(1),
      AttemptId: aid(1, attempt),
      Source: 'RESPONSE',
      Definite: 'RETRYABLE',
      Error: 'the receiver answered 429',
      HttpStatus: 429,
      ...(next !== undefined && { NextRetryTime: next }),
      Final: next === undefined,
      At: now,
    },
  });
  spec
    .given([e, started(1, 1)])
    .when(outcome(1, 1, RETRY))
    .then([failed(1, at(300), T0)]);
  const afterFirst = [e, started(1, 1), failed(1, at(300), T0)];
  assert.is(message(afterFirst, 1).NextRetryTime, at(300));
  spec
    .given(afterFirst)
    .when(start(1, 2, at(299)))
    .thenThrows('MESSAGE.STATE_CONFLICT', 409);
  spec
    .given(afterFirst)
    .when(start(1, 2, at(300)))
    .then([started(1, 2, at(300))]);
  const second = [...afterFirst, started(1, 2, at(300))];
  spec
    .given(second)
    .when(outcome(1, 2, RETRY, at(301)))
    .then([failed(2, at(901), at(301))]);
  const third = [...second, failed(2, at(901), at(301)), started(1, 3, at(901))];
  spec
    .given(third)
    .when(outcome(1, 3, RETRY, at(902)))
    .then([
      failed(3, undefined, at(902)),
      {
        type: 'AlertRaised',
        data: {
          MessageId: mid(1),
          AttemptId: aid(1, 3),
          Classification: 'DEFINITE_FINAL_FAILURE',
          Reason: 'the receiver answered 429',
          At: at(902),
        },
      },
    ]);
});

test('a retry time at or after ExpiresAt queues no retry; a Retry-After only ever lengthens the wait', () => {
  const e = acceptedEvent({ expiresAt: at(300) });
  const [failed] = notificationDecider.decide(outcome(1, 1, RETRY), state([e, started(1, 1)]));
  assert.equal((failed!.data as any).NextRetryTime, undefined);
  assert.is((failed!.data as any).Final, true);
  const [later] = notificationDecider.decide(
    outcome(1, 1, { ...RETRY, kind: 'RETRYABLE', retryAfterMs: 1_000_000 } as any),
    state([acceptedEvent(), started(1, 1)]),
  );
  assert.is((later!.data as any).NextRetryTime, at(1000));
});

test('5xx or a read timeout: stays SUBMITTED with DeliveryUncertain, an alert, no retry and no fallback', () => {
  spec
    .given([one, started(1, 1)])
    .when(outcome(1, 1, UNKNOWN))
    .then(uncertain1);
  const m = message([one, started(1, 1), ...uncertain1], 1);
  assert.is(m.State, 'SUBMITTED');
  assert.is(m.DeliveryUncertain, true);
  assert.is(m.NextRetryTime, undefined);
  const fb = acceptedEvent({ count: 2, strategy: 'FALLBACK' });
  assert.is(message([fb, started(1, 1), ...uncertain1], 2).State, 'WAITING');
});

test('receipt DELIVERED for the current attempt: ACCEPTED → DELIVERED; the role stops the other candidates', () => {
  const fb = acceptedEvent({ count: 2, strategy: 'FALLBACK' });
  spec
    .given([fb, started(1, 1), accepted1])
    .when(receipt(1, 1, 'DELIVERED', at(5), { ProviderRef: 'smtp-1' }))
    .then([
      {
        type: 'MessageDelivered',
        data: { MessageId: mid(1), AttemptId: aid(1, 1), Source: 'RECEIPT', ProviderRef: 'smtp-1', At: at(5) },
      },
      { type: 'MessageSuppressed', data: { MessageId: mid(2), Reason: 'ROLE_COMPLETED', At: at(5) } },
    ]);
});

test("a DELIVERED receipt that overtakes the submission's own answer: accepted, then delivered; the late 2xx is only observed", () => {
  const events = notificationDecider.decide(receipt(1, 1, 'DELIVERED'), state([one, started(1, 1)]));
  assert.equal(
    events.map((e) => e.type),
    ['MessageAccepted', 'MessageDelivered'],
  );
  const after = [one, started(1, 1), ...events];
  spec
    .given(after)
    .when(outcome(1, 1, OK))
    .then([
      {
        type: 'AttemptObserved',
        data: { MessageId: mid(1), AttemptId: aid(1, 1), Outcome: 'ACCEPTED', HttpStatus: 200, At: T0 },
      },
    ]);
});

test('fencing: a receipt for a superseded attempt, a duplicate, and a final one repeated are ignored and recorded', () => {
  const failed: NotificationEvent = {
    type: 'MessageFailed',
    data: {
      MessageId: mid(1),
      AttemptId: aid(1, 1),
      Source: 'RESPONSE',
      Definite: 'RETRYABLE',
      Error: '429',
      HttpStatus: 429,
      NextRetryTime: at(300),
      Final: false,
      At: T0,
    },
  };
  const two = [one, started(1, 1), failed, started(1, 2, at(300))];
  spec
    .given(two)
    .when(receipt(1, 1, 'DELIVERED', at(301)))
    .then([
      {
        type: 'ReceiptIgnored',
        data: {
          MessageId: mid(1),
          AttemptId: aid(1, 1),
          CallbackId: cb(1, 1),
          Status: 'DELIVERED',
          Reason: 'SUPERSEDED',
          At: at(301),
        },
      },
    ]);
  spec
    .given([one, started(1, 1), accepted1])
    .when(receipt(1, 1, 'ACCEPTED'))
    .then([
      {
        type: 'ReceiptIgnored',
        data: {
          MessageId: mid(1),
          AttemptId: aid(1, 1),
          CallbackId: cb(1, 1),
          Status: 'ACCEPTED',
          Reason: 'DUPLICATE',
          At: T0,
        },
      },
    ]);
  const delivered: NotificationEvent = {
    type: 'MessageDelivered',
    data: { MessageId: mid(1), AttemptId: aid(1, 1), Source: 'RECEIPT', At: T0 },
  };
  spec
    .given([one, started(1, 1), accepted1, delivered])
    .when(receipt(1, 1, 'FAILED'))
    .then([
      {
        type: 'ReceiptIgnored',
        data: {
          MessageId: mid(1),
          AttemptId: aid(1, 1),
          CallbackId: cb(1, 1),
          Status: 'FAILED',
          Reason: 'ALREADY_FINAL',
          At: T0,
        },
      },
    ]);
  spec
    .given([one, started(1, 1)])
    .when({ ...receipt(1, 1, 'DELIVERED'), CallbackId: 'acme.x' } as any)
    .thenThrows('RECEIPT.UNKNOWN_CALLBACK', 404);
});

test('uncertain: a late ACCEPTED receipt resumes final-result waiting; DELIVERED completes; FAILED (Retryable) may schedule a retry', () => {
  const u = [one, started(1, 1), ...uncertain1];
  const [acc] = notificationDecider.decide(receipt(1, 1, 'ACCEPTED', at(10)), state(u));
  assert.is(acc!.type, 'MessageAccepted');
  assert.is((acc!.data as any).ReceiptDeadline, at(3610));
  const m = message([...u, acc!], 1);
  assert.is(m.State, 'ACCEPTED');
  assert.is(m.DeliveryUncertain, false);
  spec
    .given(u)
    .when(receipt(1, 1, 'DELIVERED', at(10)))
    .then([
      { type: 'MessageDelivered', data: { MessageId: mid(1), AttemptId: aid(1, 1), Source: 'RECEIPT', At: at(10) } },
    ]);
  spec
    .given(u)
    .when(receipt(1, 1, 'FAILED', at(10), { Retryable: true }))
    .then([
      {
        type: 'MessageFailed',
        data: {
          MessageId: mid(1),
          AttemptId: aid(1, 1),
          Source: 'RECEIPT',
          Definite: 'RETRYABLE',
          Error: 'the receiver reported FAILED',
          NextRetryTime: at(310),
          Final: false,
          At: at(10),
        },
      },
    ]);
});

test('uncertain holds the fallback turn; a definite final FAILED receipt then advances it', () => {
  const fb = acceptedEvent({ count: 2, strategy: 'FALLBACK' });
  const u = [fb, started(1, 1), ...uncertain1];
  assert.is(message(u, 2).State, 'WAITING');
  const events = notificationDecider.decide(receipt(1, 1, 'FAILED', at(10)), state(u));
  assert.equal(
    events.map((e) => e.type),
    ['MessageFailed', 'MessagePromoted'],
  );
  assert.is(message([...u, ...events], 2).State, 'PLANNED');
});

test('receipt deadline (FINAL_RESULT): still ACCEPTED, DeliveryUncertain, alert; nothing before the deadline', () => {
  const acc = [one, started(1, 1), accepted1];
  spec
    .given(acc)
    .when({ type: 'PassReceiptDeadline', MessageId: mid(1), now: at(3599) })
    .then([]);
  spec
    .given(acc)
    .when({ type: 'PassReceiptDeadline', MessageId: mid(1), now: at(3600) })
    .then([
      {
        type: 'MessageUncertain',
        data: {
          MessageId: mid(1),
          AttemptId: aid(1, 1),
          Cause: 'RECEIPT_DEADLINE',
          Error: `no final receipt by the receipt deadline ${at(3600)}`,
          At: at(3600),
        },
      },
      {
        type: 'AlertRaised',
        data: {
          MessageId: mid(1),
          AttemptId: aid(1, 1),
          Classification: 'UNCERTAIN',
          Reason: `no final receipt by the receipt deadline ${at(3600)}`,
          At: at(3600),
        },
      },
    ]);
});

test('an attempt whose worker stopped during the call becomes uncertain (LOST); one with an outcome does not', () => {
  const events = notificationDecider.decide(
    { type: 'RecordLostAttempt', MessageId: mid(1), AttemptId: aid(1, 1), now: at(60) },
    state([one, started(1, 1)]),
  );
  assert.equal(
    events.map((e) => [e.type, (e.data as any).Cause ?? (e.data as any).Classification]),
    [
      ['MessageUncertain', 'LOST'],
      ['AlertRaised', 'UNCERTAIN'],
    ],
  );
  spec
    .given([one, started(1, 1), accepted1])
    .when({ type: 'RecordLostAttempt', MessageId: mid(1), AttemptId: aid(1, 1), now: at(60) })
    .then([]);
  // the lost attempt's late answer is evidence
  const [late] = notificationDecider.decide(outcome(1, 1, OK, at(61)), state([one, started(1, 1), ...events]));
  assert.is(late!.type, 'MessageAccepted');
});

test("expiry: PLANNED past ExpiresAt → EXPIRED with the role's waiting candidates; nothing before it", () => {
  const e = acceptedEvent({ count: 2, strategy: 'FALLBACK', expiresAt: at(100) });
  spec
    .given([e])
    .when({ type: 'Expire', MessageId: mid(1), now: at(99) })
    .then([]);
  spec
    .given([e])
    .when({ type: 'Expire', MessageId: mid(1), now: at(100) })
    .then([
      { type: 'MessageExpired', data: { MessageId: mid(1), At: at(100) } },
      { type: 'MessageExpired', data: { MessageId: mid(2), At: at(100) } },
    ]);
});

test.run();
