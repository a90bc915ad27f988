// Operator actions on the notification decider (domain/hub/notification.operator.decide.ts): manual retry,
// cancel of unsent work, manual receipts, chain control; each action and each refusal; eligibility answers
// what the decider does.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { fold } from '../../../domain/core/decider.ts';
import { isAllowed } from '../../../domain/hub/message-transitions.ts';
import { nextWork, workAfter } from '../../../domain/hub/message-work.ts';
import { type NotificationCommand, notificationDecider } from '../../../domain/hub/notification.decider.ts';
import type { NotificationEvent, NotificationState } from '../../../domain/hub/notification.model.ts';
import { operatorEligibility } from '../../../domain/hub/notification.operator.decide.ts';
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
  started,
  T0,
  UNKNOWN,
} from './notification-fixtures.ts';

const spec = deciderSpec(notificationDecider);
type Live = Extract<NotificationState, { status: 'accepted' }>;
const live = (events: NotificationEvent[]) => fold(notificationDecider, events) as Live;
const decide = (events: NotificationEvent[], c: NotificationCommand) => notificationDecider.decide(c, live(events));
const message = (events: NotificationEvent[], n: number) => live(events).messages[mid(n)]!;
const eligibility = (events: NotificationEvent[], n: number, now = T0) =>
  operatorEligibility(live(events), message(events, n), now);

const manual = (n: number, attempt: number, now = T0): NotificationCommand => ({
  type: 'StartManualAttempt',
  MessageId: mid(n),
  AttemptId: aid(n, attempt),
  ClientRequestId: `crid-${n}-${attempt}`,
  CallbackId: cb(n, attempt),
  OutcomeDueBy: new Date(Date.parse(now) + 60_000).toISOString(),
  Reason: 'customer called',
  now,
});
const manualStarted = (n: number, attempt: number, now = T0): NotificationEvent => ({
  type: 'AttemptStarted',
  data: {
    MessageId: mid(n),
    AttemptId: aid(n, attempt),
    AttemptNo: attempt,
    Kind: 'MANUAL',
    ClientRequestId: `crid-${n}-${attempt}`,
    CallbackId: cb(n, attempt),
    ServiceId: `svc-${n}`,
    OutcomeDueBy: new Date(Date.parse(now) + 60_000).toISOString(),
    Reason: 'customer called',
    At: now,
  },
});

const one = acceptedEvent();
/** message 1 failed permanently at its first attempt (ALL: a dead-letter alert) */
const rejected = [one, started(1, 1), ...decide([one, started(1, 1)], outcome(1, 1, REJECT))];
/** message 1 failed retryably: an automatic retry is pending at +300 s */
const retryPending = [one, started(1, 1), ...decide([one, started(1, 1)], outcome(1, 1, RETRY))];
const uncertain = [one, started(1, 1), ...decide([one, started(1, 1)], outcome(1, 1, UNKNOWN))];
const acceptedAwaiting = [one, started(1, 1), ...decide([one, started(1, 1)], outcome(1, 1, OK))];

test('manual retry of a permanently FAILED message: exactly one MANUAL attempt (SUBMITTED), not counted in the automatic budget', () => {
  spec
    .given(rejected)
    .when(manual(1, 2))
    .then([manualStarted(1, 2)]);
  const m = message([...rejected, manualStarted(1, 2)], 1);
  assert.is(m.State, 'SUBMITTED');
  assert.is(m.ActiveAttemptId, aid(1, 2));
  assert.is(m.AutoAttempts, 1);
  assert.ok(isAllowed('FAILED', 'SUBMITTED', false));
  // the same attempt id again appends nothing; a second retry while it is in flight is refused
  spec
    .given([...rejected, manualStarted(1, 2)])
    .when(manual(1, 2))
    .then([]);
  spec
    .given([...rejected, manualStarted(1, 2)])
    .when(manual(1, 3))
    .thenThrows('OPERATOR.NOT_ELIGIBLE', 409);
});

test('a failed manual attempt never restarts the automatic cycle: no NextRetryTime, even for a retryable failure with budget left', () => {
  const after = [...rejected, manualStarted(1, 2)];
  const events = decide(after, outcome(1, 2, RETRY));
  const failed = events.find((e) => e.type === 'MessageFailed')!;
  assert.is((failed.data as { NextRetryTime?: string }).NextRetryTime, undefined);
  assert.is((failed.data as { Final: boolean }).Final, true);
  const m = message([...after, ...events], 1);
  assert.is(m.State, 'FAILED');
  assert.is(nextWork(m), null);
  // and a manual retry may exceed the automatic budget: another one is eligible again
  assert.equal(eligibility([...after, ...events], 1).RETRY, { Eligible: true });
});

test('manual retry refusals: pending automatic retry, uncertain, in flight, accepted, terminal, never sent, expired', () => {
  const refusal = (events: NotificationEvent[], reason: string, now = T0) => {
    spec
      .given(events)
      .when(manual(1, 9, now))
      .thenThrows('OPERATOR.NOT_ELIGIBLE', 409);
    const e = eligibility(events, 1, now).RETRY;
    assert.is(e.Eligible, false);
    assert.is((e as { Reason: string }).Reason, reason);
  };
  refusal(retryPending, 'AUTOMATIC_RETRY_PENDING');
  refusal(uncertain, 'UNCERTAIN_VERIFY_FIRST');
  refusal([one, started(1, 1)], 'ATTEMPT_IN_FLIGHT');
  refusal(acceptedAwaiting, 'AWAITING_RECEIPT');
  refusal([one], 'NOT_FAILED');
  const delivered = [...acceptedAwaiting, ...decide(acceptedAwaiting, receipt(1, 1, 'DELIVERED'))];
  refusal(delivered, 'TERMINAL');
  const prepFailed = acceptedEvent({
    messages: [planned(1, { State: 'FAILED', Reason: 'TEMPLATE_NOT_AVAILABLE', Content: undefined })],
  });
  refusal([prepFailed], 'NEVER_SENT');
  const expiring = acceptedEvent({ expiresAt: at(100) });
  const expRejected = [expiring, started(1, 1), ...decide([expiring, started(1, 1)], outcome(1, 1, REJECT))];
  assert.equal(eligibility(expRejected, 1, at(99)).RETRY, { Eligible: true });
  refusal(expRejected, 'EXPIRED', at(100));
});

test('manual retry under FALLBACK: refused while another candidate holds the turn or the role is complete', () => {
  const e = acceptedEvent({ count: 2, strategy: 'FALLBACK' });
  const firstFailed = [e, started(1, 1), ...decide([e, started(1, 1)], outcome(1, 1, REJECT))];
  // message 2 was promoted: it holds the turn
  assert.is(message(firstFailed, 2).State, 'PLANNED');
  spec.given(firstFailed).when(manual(1, 2)).thenThrows('OPERATOR.NOT_ELIGIBLE', 409);
  assert.is((eligibility(firstFailed, 1).RETRY as { Reason: string }).Reason, 'TURN_HELD');
  // message 2 delivered: the role is complete
  const s2 = [...firstFailed, started(2, 1), ...decide([...firstFailed, started(2, 1)], outcome(2, 1, OK))];
  const done = [...s2, ...decide(s2, receipt(2, 1, 'DELIVERED'))];
  assert.is((eligibility(done, 1).RETRY as { Reason: string }).Reason, 'ROLE_COMPLETED');
  // message 2 failed finally too: the chain is over, message 1 may be retried by hand
  const both = [...firstFailed, started(2, 1), ...decide([...firstFailed, started(2, 1)], outcome(2, 1, REJECT))];
  assert.equal(eligibility(both, 1).RETRY, { Eligible: true });
  spec
    .given(both)
    .when(manual(1, 2))
    .then([manualStarted(1, 2)]);
});

test('cancel of unsent work: PLANNED, SCHEDULED, WAITING and FAILED with a pending retry become CANCELLED, their due work goes', () => {
  const cancel = (MessageId?: string): NotificationCommand => ({
    type: 'CancelUnsent',
    ...(MessageId !== undefined && { MessageId }),
    Reason: 'order withdrawn',
    now: T0,
  });
  const cancelled = (n: number): NotificationEvent => ({
    type: 'MessageCancelled',
    data: { MessageId: mid(n), Reason: 'order withdrawn', At: T0 },
  });
  spec
    .given([one])
    .when(cancel(mid(1)))
    .then([cancelled(1)]);
  const scheduled = acceptedEvent({ messages: [planned(1, { State: 'SCHEDULED', DueAt: at(600) })] });
  spec
    .given([scheduled])
    .when(cancel(mid(1)))
    .then([cancelled(1)]);
  spec
    .given(retryPending)
    .when(cancel(mid(1)))
    .then([cancelled(1)]);
  const m = message([...retryPending, cancelled(1)], 1);
  assert.is(m.State, 'CANCELLED');
  assert.is(m.NextRetryTime, undefined);
  assert.is(nextWork(m), null);
  assert.equal(workAfter(cancelled(1)), [{ messageId: mid(1), work: null }]);
  // FALLBACK: a WAITING candidate alone; the turn holder takes its waiting candidates with it
  const fb = acceptedEvent({ count: 3, strategy: 'FALLBACK' });
  spec
    .given([fb])
    .when(cancel(mid(3)))
    .then([cancelled(3)]);
  spec
    .given([fb])
    .when(cancel(mid(1)))
    .then([cancelled(1), cancelled(2), cancelled(3)]);
  // per notification: every cancellable message (the in-flight one stays)
  const two = acceptedEvent({ count: 2 });
  spec
    .given([two, started(1, 1)])
    .when(cancel())
    .then([cancelled(2)]);
  for (const from of ['PLANNED', 'SCHEDULED', 'WAITING', 'FAILED'] as const)
    assert.ok(isAllowed(from, 'CANCELLED', false));
});

test('cancel refusals: in flight, uncertain, accepted, final failure, terminal; a notification with nothing unsent', () => {
  const cancel: NotificationCommand = { type: 'CancelUnsent', MessageId: mid(1), Reason: 'x', now: T0 };
  const reason = (events: NotificationEvent[]) => (eligibility(events, 1).CANCEL as { Reason: string }).Reason;
  for (const [events, why] of [
    [[one, started(1, 1)], 'ATTEMPT_IN_FLIGHT'],
    [uncertain, 'UNCERTAIN_VERIFY_FIRST'],
    [acceptedAwaiting, 'AWAITING_RECEIPT'],
    [rejected, 'NOTHING_UNSENT'],
    [[...retryPending, { type: 'MessageCancelled', data: { MessageId: mid(1), Reason: 'x', At: T0 } }], 'TERMINAL'],
  ] as Array<[NotificationEvent[], string]>) {
    spec.given(events).when(cancel).thenThrows('OPERATOR.NOT_ELIGIBLE', 409);
    assert.is(reason(events), why);
  }
  spec.given(rejected).when({ type: 'CancelUnsent', Reason: 'x', now: T0 }).thenThrows('OPERATOR.NOT_ELIGIBLE', 409);
});

test('manual receipt DELIVERED on an uncertain submission: DELIVERED with Source MANUAL and the verification; a later receipt never counts again', () => {
  const verify: NotificationCommand = {
    type: 'RecordManualReceipt',
    MessageId: mid(1),
    Status: 'DELIVERED',
    VerificationReason: 'customer confirmed by phone',
    EvidenceReference: 'TICKET-42',
    now: at(10),
  };
  const delivered: NotificationEvent = {
    type: 'MessageDelivered',
    data: {
      MessageId: mid(1),
      AttemptId: aid(1, 1),
      Source: 'MANUAL',
      Verification: { VerificationReason: 'customer confirmed by phone', EvidenceReference: 'TICKET-42' },
      At: at(10),
    },
  };
  spec.given(uncertain).when(verify).then([delivered]);
  const after = [...uncertain, delivered];
  const m = message(after, 1);
  assert.is(m.State, 'DELIVERED');
  assert.is(m.DeliveryUncertain, false);
  assert.is(m.Attempts[0]!.Evidence, 'DELIVERED');
  // the receiver's own DELIVERED receipt afterwards is recorded, not applied (never counted twice)
  const late = decide(after, receipt(1, 1, 'DELIVERED', at(20)));
  assert.equal(
    late.map((e) => e.type),
    ['ReceiptIgnored'],
  );
  // a second manual receipt is refused
  spec.given(after).when(verify).thenThrows('OPERATOR.NOT_ELIGIBLE', 409);
});

test('manual receipt FAILED: definite and final (no automatic retry), the FALLBACK turn advances', () => {
  const e = acceptedEvent({ count: 2, strategy: 'FALLBACK' });
  const base = [e, started(1, 1), ...decide([e, started(1, 1)], outcome(1, 1, OK))];
  const verify: NotificationCommand = {
    type: 'RecordManualReceipt',
    MessageId: mid(1),
    Status: 'FAILED',
    VerificationReason: 'mailbox closed',
    now: at(10),
  };
  spec
    .given(base)
    .when(verify)
    .then([
      {
        type: 'MessageFailed',
        data: {
          MessageId: mid(1),
          AttemptId: aid(1, 1),
          Source: 'MANUAL',
          Definite: 'PERMANENT',
          Error: 'operator verified FAILED: mailbox closed',
          Final: true,
          Verification: { VerificationReason: 'mailbox closed' },
          At: at(10),
        },
      },
      { type: 'MessagePromoted', data: { MessageId: mid(2), State: 'PLANNED', DueAt: T0, After: mid(1), At: at(10) } },
    ]);
  const after = [...base, ...decide(base, verify)];
  assert.is(message(after, 1).NextRetryTime, undefined);
  // the receiver's DELIVERED afterwards is outranked: the verified failure stands, counted once
  assert.equal(
    decide(after, receipt(1, 1, 'DELIVERED', at(20))).map((x) => x.type),
    ['ReceiptIgnored'],
  );
});

test('manual receipt refusals: no attempt, in flight, definite outcome, acceptance-only hand-off, terminal', () => {
  const verify: NotificationCommand = {
    type: 'RecordManualReceipt',
    MessageId: mid(1),
    Status: 'DELIVERED',
    VerificationReason: 'x',
    now: T0,
  };
  const reason = (events: NotificationEvent[]) => (eligibility(events, 1).MANUAL_RECEIPT as { Reason: string }).Reason;
  const ao = acceptedEvent({ receiptMode: 'ACCEPTANCE_ONLY' });
  const handedOff = [ao, started(1, 1), ...decide([ao, started(1, 1)], outcome(1, 1, OK))];
  const delivered = [...acceptedAwaiting, ...decide(acceptedAwaiting, receipt(1, 1, 'DELIVERED'))];
  for (const [events, why] of [
    [[one], 'NO_ATTEMPT'],
    [[one, started(1, 1)], 'ATTEMPT_IN_FLIGHT'],
    [rejected, 'OUTCOME_FINAL'],
    [handedOff, 'TRACKING_COMPLETED'],
    [delivered, 'TERMINAL'],
  ] as Array<[NotificationEvent[], string]>) {
    spec.given(events).when(verify).thenThrows('OPERATOR.NOT_ELIGIBLE', 409);
    assert.is(reason(events), why);
  }
  assert.equal(eligibility(acceptedAwaiting, 1).MANUAL_RECEIPT, { Eligible: true });
});

test('chain control: the operator completes a role, its unsent candidates are SUPPRESSED (ROLE_COMPLETED_BY_OPERATOR)', () => {
  const fb = acceptedEvent({ count: 3, strategy: 'FALLBACK' });
  const s = [fb, started(1, 1), ...decide([fb, started(1, 1)], outcome(1, 1, OK))];
  const complete: NotificationCommand = {
    type: 'CompleteRole',
    MessageId: mid(1),
    Reason: 'reached by phone',
    now: at(5),
  };
  const suppressed = (n: number): NotificationEvent => ({
    type: 'MessageSuppressed',
    data: { MessageId: mid(n), Reason: 'ROLE_COMPLETED_BY_OPERATOR', Note: 'reached by phone', At: at(5) },
  });
  spec
    .given(s)
    .when(complete)
    .then([suppressed(2), suppressed(3)]);
  const after = [...s, suppressed(2), suppressed(3)];
  // the sent candidate keeps its evidence; its failure now promotes nobody (a dead-letter alert instead)
  assert.is(message(after, 1).State, 'ACCEPTED');
  assert.equal(
    decide(after, receipt(1, 1, 'FAILED', at(9))).map((x) => x.type),
    ['MessageFailed', 'AlertRaised'],
  );
  // nothing unsent left: refused
  spec.given(after).when(complete).thenThrows('OPERATOR.NOT_ELIGIBLE', 409);
  assert.is((eligibility(after, 1).COMPLETE_CHAIN as { Reason: string }).Reason, 'NOTHING_UNSENT');
  for (const from of ['PLANNED', 'SCHEDULED', 'WAITING', 'FAILED'] as const)
    assert.ok(isAllowed(from, 'SUPPRESSED', false));
});

test('chain control takes a FAILED message with a pending retry too: SUPPRESSED, its retry (and due work) gone', () => {
  const complete: NotificationCommand = {
    type: 'CompleteRole',
    MessageId: mid(1),
    Reason: 'done by phone',
    now: at(5),
  };
  const suppressed: NotificationEvent = {
    type: 'MessageSuppressed',
    data: { MessageId: mid(1), Reason: 'ROLE_COMPLETED_BY_OPERATOR', Note: 'done by phone', At: at(5) },
  };
  spec.given(retryPending).when(complete).then([suppressed]);
  const m = message([...retryPending, suppressed], 1);
  assert.is(m.State, 'SUPPRESSED');
  assert.is(m.NextRetryTime, undefined);
  assert.is(nextWork(m), null);
});

test('operator commands name a message of the notification; an unknown one is 404', () => {
  spec
    .given([one])
    .when({ type: 'CancelUnsent', MessageId: mid(7), Reason: 'x', now: T0 })
    .thenThrows('MESSAGE.NOT_FOUND', 404);
  spec
    .given([])
    .when({ type: 'CancelUnsent', MessageId: mid(1), Reason: 'x', now: T0 })
    .thenThrows('NOTIFICATION.NOT_FOUND', 404);
});

test('eligibility lists every action with its answer', () => {
  const e = eligibility(retryPending, 1);
  assert.equal(Object.keys(e), ['RETRY', 'CANCEL', 'MANUAL_RECEIPT', 'COMPLETE_CHAIN']);
  assert.equal(e.CANCEL, { Eligible: true });
  assert.equal(e.COMPLETE_CHAIN, { Eligible: true });
  assert.is(e.RETRY.Eligible, false);
});

test('housekeeping marks the notification; evolve keeps its messages', () => {
  const h: NotificationEvent = { type: 'NotificationHousekept', data: { NotificationId: 'n', At: at(1) } };
  const s = live([...rejected, h]);
  assert.is(s.housekeptAt, at(1));
  assert.is(s.messages[mid(1)]!.State, 'FAILED');
  assert.equal(workAfter(h), []);
});

test.run();
