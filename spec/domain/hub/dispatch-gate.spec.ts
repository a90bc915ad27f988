import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { fold } from '../../../domain/core/decider.ts';
import { type AcceptedNotification, evaluateDispatchGate, type GateFacts } from '../../../domain/hub/dispatch-gate.ts';
import { notificationDecider } from '../../../domain/hub/notification.decider.ts';
import type { NotificationEvent, PlannedMessage } from '../../../domain/hub/notification.model.ts';
import type { Preference } from '../../../domain/hub/preference.decider.ts';
import { deciderSpec } from '../../core/decider-spec.ts';
import { acceptedEvent, aid, at, mid, outcome, planned, RETRY, started, T0 } from './notification-fixtures.ts';

// T0 = 2026-03-01T10:00:00Z (a Sunday; UTC 10:00 is 11:00 in Berlin, 05:00 in New York)
const live = (events: NotificationEvent[]) => fold(notificationDecider, events) as AcceptedNotification;
const pref = (Decision: 'ALLOW' | 'DENY', NotificationClass = 'TRANSACTIONAL', UpdatedAt = at(-60)): Preference => ({
  RecipientId: 'C-1',
  Channel: 'EMAIL',
  NotificationClass,
  Decision,
  Source: 'API',
  UpdatedAt,
});
const allowAll: GateFacts = {
  preference: { exact: null, channelWide: null, defaultAllow: true },
  quietHours: { windows: [], timeZone: 'UTC' },
  frequency: { cap: null },
};
const gate = (
  o: {
    events?: NotificationEvent[];
    facts?: Partial<GateFacts>;
    now?: string;
    kind?: 'AUTO' | 'MANUAL';
    message?: Partial<PlannedMessage>;
    expiresAt?: string;
  } = {},
) => {
  const events = o.events ?? [
    acceptedEvent({ messages: [planned(1, o.message)], ...(o.expiresAt !== undefined && { expiresAt: o.expiresAt }) }),
  ];
  const s = live(events);
  return evaluateDispatchGate({
    state: s,
    message: s.messages[mid(1)]!,
    now: o.now ?? T0,
    kind: o.kind ?? 'AUTO',
    facts: { ...allowAll, ...o.facts },
  });
};

test('gate: everything allows, no cap → PASS without a quota request', () => {
  assert.equal(gate(), { verdict: 'PASS', reserve: null });
});

test('gate: state, turn and due time first (AUTO): not due yet, a WAITING candidate, a submitted message', () => {
  assert.is(gate({ message: { State: 'SCHEDULED', DueAt: at(60) } }).verdict, 'NOT_DUE');
  const fallback = acceptedEvent({ count: 2, strategy: 'FALLBACK' });
  const s = live([fallback]);
  assert.is(
    evaluateDispatchGate({ state: s, message: s.messages[mid(2)]!, now: T0, kind: 'AUTO', facts: allowAll }).verdict,
    'NOT_DUE',
  );
  assert.is(gate({ events: [acceptedEvent(), started(1, 1)] }).verdict, 'NOT_DUE');
  // a denial is never reached before the state rules: an opted-out recipient's message not due yet is NOT_DUE
  assert.is(
    gate({
      message: { State: 'SCHEDULED', DueAt: at(60) },
      facts: { preference: { exact: pref('DENY'), channelWide: null, defaultAllow: true } },
    }).verdict,
    'NOT_DUE',
  );
});

test('gate: expiry before the policies (AUTO and MANUAL)', () => {
  assert.equal(gate({ expiresAt: T0 }), { verdict: 'EXPIRE' });
  assert.equal(
    gate({
      expiresAt: T0,
      kind: 'MANUAL',
      facts: { preference: { exact: pref('DENY'), channelWide: null, defaultAllow: true } },
    }),
    { verdict: 'EXPIRE' },
  );
});

test('gate: preference DENY → SUPPRESS PREFERENCE_OPTED_OUT; nothing allows and default-allow false → PREFERENCE_NOT_ALLOWED', () => {
  const denied = gate({ facts: { preference: { exact: pref('DENY'), channelWide: null, defaultAllow: true } } });
  assert.is(denied.verdict, 'SUPPRESS');
  assert.is((denied as { reason: string }).reason, 'PREFERENCE_OPTED_OUT');
  const none = gate({ facts: { preference: { exact: null, channelWide: null, defaultAllow: false } } });
  assert.is((none as { reason: string }).reason, 'PREFERENCE_NOT_ALLOWED');
  // an explicit ALLOW passes even with default-allow false
  assert.is(
    gate({ facts: { preference: { exact: pref('ALLOW'), channelWide: null, defaultAllow: false } } }).verdict,
    'PASS',
  );
});

test('gate: the latest of the class and the channel-wide (*) preference wins', () => {
  // an opt-out of the whole channel after an older class ALLOW
  const optOut = gate({
    facts: {
      preference: {
        exact: pref('ALLOW', 'TRANSACTIONAL', at(-100)),
        channelWide: pref('DENY', '*', at(-10)),
        defaultAllow: true,
      },
    },
  });
  assert.is((optOut as { reason: string }).reason, 'PREFERENCE_OPTED_OUT');
  // a later class ALLOW re-allows that class
  assert.is(
    gate({
      facts: {
        preference: {
          exact: pref('ALLOW', 'TRANSACTIONAL', at(-5)),
          channelWide: pref('DENY', '*', at(-10)),
          defaultAllow: false,
        },
      },
    }).verdict,
    'PASS',
  );
});

test('gate: preference BYPASS skips the lookup (no facts needed) but not the frequency cap', () => {
  const cap = { Category: '*', Limit: 3, WindowSeconds: 3600 };
  const d = gate({
    message: { Policies: { PreferencePolicy: 'BYPASS', FrequencyCapPolicy: 'RESPECT', QuietHoursPolicy: 'RESPECT' } },
    facts: { preference: undefined, frequency: { cap } },
  });
  assert.equal(d, {
    verdict: 'PASS',
    reserve: { RecipientId: 'C-1', MessageId: mid(1), Channel: 'EMAIL', NotificationClass: 'TRANSACTIONAL', Cap: cap },
  });
});

test('gate: a RESPECT policy whose facts were not read is a programming error, never a silent pass', () => {
  assert.throws(() => gate({ facts: { preference: undefined } }), /preference facts were not read/);
});

test('gate: frequency cap without RecipientId → SUPPRESS FREQUENCY_IDENTITY_MISSING; without a cap → PASS', () => {
  const noId = {
    Recipient: { Address: 'a@example.com' },
    Policies: {
      PreferencePolicy: 'BYPASS' as const,
      FrequencyCapPolicy: 'RESPECT' as const,
      QuietHoursPolicy: 'RESPECT' as const,
    },
  };
  const d = gate({
    message: noId,
    facts: { frequency: { cap: { Category: 'TRANSACTIONAL', Limit: 1, WindowSeconds: 60 } } },
  });
  assert.is(d.verdict, 'SUPPRESS');
  assert.is((d as { reason: string }).reason, 'FREQUENCY_IDENTITY_MISSING');
  assert.equal(gate({ message: noId, facts: { frequency: { cap: null } } }), { verdict: 'PASS', reserve: null });
  // FrequencyCapPolicy BYPASS: no identity needed
  assert.equal(
    gate({
      message: { ...noId, Policies: { ...noId.Policies, FrequencyCapPolicy: 'BYPASS' } },
      facts: { frequency: undefined },
    }),
    { verdict: 'PASS', reserve: null },
  );
});

test('gate: quiet hours defer to the window end, at most to ExpiresAt; BYPASS ignores them', () => {
  const quiet = { quietHours: { windows: [{ Start: '09:00', End: '12:00' }], timeZone: 'UTC' } };
  assert.equal(gate({ facts: quiet }), { verdict: 'DEFER', until: '2026-03-01T12:00:00.000Z', reason: 'QUIET_HOURS' });
  assert.equal(gate({ facts: quiet, expiresAt: at(3600) }), {
    verdict: 'DEFER',
    until: at(3600),
    reason: 'QUIET_HOURS',
  });
  assert.is(
    gate({
      facts: { quietHours: undefined },
      message: { Policies: { PreferencePolicy: 'RESPECT', FrequencyCapPolicy: 'RESPECT', QuietHoursPolicy: 'BYPASS' } },
    }).verdict,
    'PASS',
  );
  // MANUAL: denied the same way (the operator action makes no attempt)
  assert.is(gate({ facts: quiet, kind: 'MANUAL' }).verdict, 'DEFER');
});

test('gate: order: preference before quiet hours before frequency', () => {
  const all: Partial<GateFacts> = {
    preference: { exact: pref('DENY'), channelWide: null, defaultAllow: true },
    quietHours: { windows: [{ Start: '09:00', End: '12:00' }], timeZone: 'UTC' },
    frequency: { cap: { Category: '*', Limit: 0, WindowSeconds: 60 } },
  };
  assert.is((gate({ facts: all }) as { reason: string }).reason, 'PREFERENCE_OPTED_OUT');
  assert.is(
    gate({ facts: { ...all, preference: { exact: null, channelWide: null, defaultAllow: true } } }).verdict,
    'DEFER',
  );
});

test('gate: a due retry (FAILED with NextRetryTime) passes the same customer policies', () => {
  const events = [acceptedEvent(), started(1, 1)];
  const failed = notificationDecider.decide(outcome(1, 1, RETRY), live(events));
  const s = live([...events, ...failed]);
  const m = s.messages[mid(1)]!;
  assert.ok(m.NextRetryTime !== undefined);
  const d = evaluateDispatchGate({
    state: s,
    message: m,
    now: m.NextRetryTime!,
    kind: 'AUTO',
    facts: { ...allowAll, preference: { exact: pref('DENY'), channelWide: null, defaultAllow: true } },
  });
  assert.is((d as { reason: string }).reason, 'PREFERENCE_OPTED_OUT');
  assert.is(aid(1, 1), s.messages[mid(1)]!.Attempts[0]!.AttemptId);
});

const spec = deciderSpec(notificationDecider);

test('decider: SuppressByPolicy: PLANNED/SCHEDULED → SUPPRESSED with the reason, no attempt; each reason', () => {
  for (const Reason of [
    'PREFERENCE_OPTED_OUT',
    'PREFERENCE_NOT_ALLOWED',
    'FREQUENCY_CAP_EXCEEDED',
    'FREQUENCY_IDENTITY_MISSING',
  ] as const) {
    spec
      .given([acceptedEvent()])
      .when({ type: 'SuppressByPolicy', MessageId: mid(1), Reason, now: T0 })
      .then([{ type: 'MessageSuppressed', data: { MessageId: mid(1), Reason, At: T0 } }]);
  }
  spec
    .given([acceptedEvent({ messages: [planned(1, { State: 'SCHEDULED', DueAt: at(60) })] })])
    .when({ type: 'SuppressByPolicy', MessageId: mid(1), Reason: 'PREFERENCE_OPTED_OUT', now: at(60) })
    .then([{ type: 'MessageSuppressed', data: { MessageId: mid(1), Reason: 'PREFERENCE_OPTED_OUT', At: at(60) } }]);
  // the same suppression again: nothing new
  const suppressed: NotificationEvent = {
    type: 'MessageSuppressed',
    data: { MessageId: mid(1), Reason: 'PREFERENCE_OPTED_OUT', At: T0 },
  };
  spec
    .given([acceptedEvent(), suppressed])
    .when({ type: 'SuppressByPolicy', MessageId: mid(1), Reason: 'PREFERENCE_OPTED_OUT', now: T0 })
    .then([]);
  // in flight: refused
  spec
    .given([acceptedEvent(), started(1, 1)])
    .when({ type: 'SuppressByPolicy', MessageId: mid(1), Reason: 'PREFERENCE_OPTED_OUT', now: T0 })
    .thenThrows('MESSAGE.STATE_CONFLICT', 409);
  const s = live([acceptedEvent(), suppressed]);
  assert.is(s.messages[mid(1)]!.State, 'SUPPRESSED');
  assert.is(s.messages[mid(1)]!.Attempts.length, 0);
});

test('decider: SuppressByPolicy under FALLBACK passes the turn to the next WAITING candidate (no alert)', () => {
  spec
    .given([acceptedEvent({ count: 2, strategy: 'FALLBACK' })])
    .when({ type: 'SuppressByPolicy', MessageId: mid(1), Reason: 'PREFERENCE_OPTED_OUT', now: T0 })
    .then([
      { type: 'MessageSuppressed', data: { MessageId: mid(1), Reason: 'PREFERENCE_OPTED_OUT', At: T0 } },
      { type: 'MessagePromoted', data: { MessageId: mid(2), State: 'PLANNED', DueAt: T0, After: mid(1), At: T0 } },
    ]);
});

test('decider: DeferForQuietHours: initial work stays SCHEDULED with the due time moved; a retry stays FAILED with a later NextRetryTime', () => {
  const deferred: NotificationEvent = {
    type: 'MessageDeferred',
    data: { MessageId: mid(1), Work: 'dispatch', Until: at(7200), Reason: 'QUIET_HOURS', At: T0 },
  };
  spec
    .given([acceptedEvent()])
    .when({ type: 'DeferForQuietHours', MessageId: mid(1), Until: at(7200), now: T0 })
    .then([deferred]);
  const m = live([acceptedEvent(), deferred]).messages[mid(1)]!;
  assert.is(m.State, 'SCHEDULED');
  assert.is(m.DueAt, at(7200));
  spec
    .given([acceptedEvent(), deferred])
    .when({ type: 'DeferForQuietHours', MessageId: mid(1), Until: at(7200), now: T0 })
    .then([]);
  spec
    .given([acceptedEvent()])
    .when({ type: 'DeferForQuietHours', MessageId: mid(1), Until: T0, now: T0 })
    .thenThrows('MESSAGE.STATE_CONFLICT', 409);

  const events = [acceptedEvent(), started(1, 1)];
  const failed = notificationDecider.decide(outcome(1, 1, RETRY), live(events));
  const retryAt = live([...events, ...failed]).messages[mid(1)]!.NextRetryTime!;
  const later = new Date(Date.parse(retryAt) + 3_600_000).toISOString();
  const retryDeferred: NotificationEvent = {
    type: 'MessageDeferred',
    data: { MessageId: mid(1), Work: 'retry', Until: later, Reason: 'QUIET_HOURS', At: retryAt },
  };
  spec
    .given([...events, ...failed])
    .when({ type: 'DeferForQuietHours', MessageId: mid(1), Until: later, now: retryAt })
    .then([retryDeferred]);
  const after = live([...events, ...failed, retryDeferred]).messages[mid(1)]!;
  assert.is(after.State, 'FAILED');
  assert.is(after.NextRetryTime, later);
  // a submitted message cannot be deferred
  spec
    .given(events)
    .when({ type: 'DeferForQuietHours', MessageId: mid(1), Until: later, now: T0 })
    .thenThrows('MESSAGE.STATE_CONFLICT', 409);
});

test.run();
