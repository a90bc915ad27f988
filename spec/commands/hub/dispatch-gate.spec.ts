// The dispatch gate's I/O half (commands/hub/dispatch-gate.ts) over real SQLite event stores: two store
// instances on one file stand for two worker processes. Caps under concurrent claims (never over the
// limit), a retry taking no new slot, release of an uncommitted reservation, live preferences and quiet
// hours (the claim's `now` is the injected clock).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { commandHandler } from '../../../commands/core/command-handler.ts';
import { createCustomerPolicies } from '../../../commands/hub/customer-policy.commands.ts';
import { createDispatchGate } from '../../../commands/hub/dispatch-gate.ts';
import { type HubSettings, SETTING } from '../../../commands/hub/hub.contracts.ts';
import { fold } from '../../../domain/core/decider.ts';
import type { AcceptedNotification, GateDecision } from '../../../domain/hub/dispatch-gate.ts';
import { quotaDecider, quotaStream } from '../../../domain/hub/frequency-quota.decider.ts';
import { notificationDecider } from '../../../domain/hub/notification.decider.ts';
import type { NotificationEvent, PlannedMessage } from '../../../domain/hub/notification.model.ts';
import { withBatchedAppends } from '../../../infra/core/batched-appends.ts';
import { manualClock } from '../../../infra/core/clock.port.ts';
import { createSqliteEventStore } from '../../../infra/sqlite/event-store.sqlite.ts';
import { acceptedEvent, OK, outcome, planned, REJECT, start, T0 } from '../../domain/hub/notification-fixtures.ts';

const dir = mkdtempSync(path.join(tmpdir(), 'hub-gate-'));
const file = path.join(dir, 'events.db');
const storeA = createSqliteEventStore({ file });
const storeB = createSqliteEventStore({ file });
const values: Record<string, string> = { [SETTING.preferenceDefaultAllow]: 'true', [SETTING.timeZone]: 'UTC' };
const settings: HubSettings = { get: async (_t, key) => values[key] };
const clock = manualClock(T0);
const gateA = createDispatchGate({ eventStore: withBatchedAppends(storeA), settings, defaultTimeZone: 'UTC' });
const gateB = createDispatchGate({ eventStore: withBatchedAppends(storeB), settings, defaultTimeZone: 'UTC' });
const policies = createCustomerPolicies({ eventStore: storeA, clock, settings });
const ctx = { tenant: 'acme', actor: 'spec' };
let n = 0;

test.after(() => {
  storeA.close?.();
  storeB.close?.();
  rmSync(dir, { recursive: true, force: true });
});

/** a fresh accepted notification (its own message id) for recipient `rid` of class MARKETING */
function notification(
  rid: string | undefined,
  o: Partial<PlannedMessage> = {},
): { state: AcceptedNotification; events: NotificationEvent[] } {
  const id = `m-${++n}`;
  const accepted = acceptedEvent({
    messages: [
      planned(1, {
        MessageId: id,
        Recipient: rid === undefined ? { Address: 'x@example.com' } : { RecipientId: rid, Address: 'x@example.com' },
        ...o,
      }),
    ],
  });
  (accepted.data as { Notification: { NotificationClass: string } }).Notification.NotificationClass = 'MARKETING';
  return { state: fold(notificationDecider, [accepted]) as AcceptedNotification, events: [accepted] };
}
const claim = (g: typeof gateA, s: AcceptedNotification, now = T0, kind: 'AUTO' | 'MANUAL' = 'AUTO') =>
  g.claim({ tenant: 'acme', state: s, message: Object.values(s.messages)[0]!, now, kind });
const reason = (d: GateDecision) => (d.verdict === 'SUPPRESS' ? d.reason : d.verdict);
const quotaEvents = async (rid: string) => (await storeA.readStream(quotaStream('acme', rid))).map((e) => e.type);

test('20 concurrent claims for one recipient, limit 3, two worker processes: exactly 3 pass, 17 FREQUENCY_CAP_EXCEEDED', async () => {
  await policies.frequencyCaps.save({ Category: 'MARKETING', Limit: 3, WindowSeconds: 3600 }, ctx, 'cap-1');
  const states = Array.from({ length: 20 }, () => notification('R-20').state);
  const decisions = await Promise.all(states.map((s, i) => claim(i % 2 === 0 ? gateA : gateB, s)));
  const passed = decisions.filter((d) => d.verdict === 'PASS');
  assert.is(passed.length, 3);
  assert.is(decisions.filter((d) => reason(d) === 'FREQUENCY_CAP_EXCEEDED').length, 17);
  assert.equal(await quotaEvents('R-20'), ['QuotaReserved', 'QuotaReserved', 'QuotaReserved']);
  const usage = await policies.frequencyCaps.usage('acme', 'R-20');
  assert.equal(usage.Caps, [{ Category: 'MARKETING', Limit: 3, WindowSeconds: 3600, Used: 3 }]);
});

test('a message holding a reservation takes no new slot on its retries (AUTO or MANUAL), even at the limit', async () => {
  await policies.frequencyCaps.save({ Category: 'MARKETING', Limit: 1, WindowSeconds: 3600 }, ctx, 'cap-2');
  const a = notification('R-retry').state;
  assert.is((await claim(gateA, a)).verdict, 'PASS');
  assert.is((await claim(gateB, a)).verdict, 'PASS', 'a second worker claiming the same message');
  assert.is((await claim(gateA, a, T0, 'MANUAL')).verdict, 'PASS', 'an operator retry');
  assert.is(reason(await claim(gateA, notification('R-retry').state)), 'FREQUENCY_CAP_EXCEEDED');
  assert.equal(await quotaEvents('R-retry'), ['QuotaReserved']);
});

test('a definite rejection releases the uncommitted reservation; an accepted message keeps it', async () => {
  await policies.frequencyCaps.save({ Category: 'MARKETING', Limit: 1, WindowSeconds: 3600 }, ctx, 'cap-2');
  const one = notification('R-release', {
    RetryPolicy: { MaxAttempts: 1, RetryInitialDelaySeconds: 1, RetryBackoffMultiplier: 1, RetryMaxDelaySeconds: 1 },
  });
  assert.is((await claim(gateA, one.state)).verdict, 'PASS');
  const messageId = Object.keys(one.state.messages)[0]!;
  const fold1 = (events: NotificationEvent[], cmd: Parameters<typeof notificationDecider.decide>[0]) => [
    ...events,
    ...notificationDecider.decide(cmd, fold(notificationDecider, events)),
  ];
  // the fixtures' commands, aimed at this notification's message
  const withId = (c: unknown, id: string) =>
    ({ ...(c as object), MessageId: id }) as Parameters<typeof notificationDecider.decide>[0];
  let events = fold1(one.events, withId(start(1, 1), messageId));
  events = fold1(events, withId(outcome(1, 1, REJECT), messageId));
  const failed = fold(notificationDecider, events) as AcceptedNotification;
  assert.is(failed.messages[messageId]!.State, 'FAILED');
  assert.ok(await gateA.releaseIfUncommitted({ tenant: 'acme', state: failed, messageId, now: T0 }));
  assert.not.ok(
    await gateA.releaseIfUncommitted({ tenant: 'acme', state: failed, messageId, now: T0 }),
    'released once',
  );
  assert.equal(await quotaEvents('R-release'), ['QuotaReserved', 'QuotaReleased']);

  const two = notification('R-release');
  assert.is((await claim(gateB, two.state)).verdict, 'PASS', 'the released slot is free again');
  const id2 = Object.keys(two.state.messages)[0]!;
  let ev2 = fold1(two.events, withId(start(1, 1), id2));
  ev2 = fold1(ev2, withId(outcome(1, 1, OK), id2));
  const acceptedState = fold(notificationDecider, ev2) as AcceptedNotification;
  assert.not.ok(
    await gateA.releaseIfUncommitted({ tenant: 'acme', state: acceptedState, messageId: id2, now: T0 }),
    'accepted keeps it',
  );
  assert.is(reason(await claim(gateA, notification('R-release').state)), 'FREQUENCY_CAP_EXCEEDED');
});

test("a first claim reads only the window of the recipient's quota stream (backwards, in pages), a retry reads it all; both count right", async () => {
  const seed = commandHandler(storeA, quotaDecider);
  const big = { Category: 'MARKETING', Limit: 100_000, WindowSeconds: 366 * 86_400 };
  for (let i = 0; i < 300; i++) {
    const at = new Date(Date.parse(T0) - (300 - i) * 86_400_000).toISOString(); // one a day, the last a day before T0
    await seed({
      stream: quotaStream('acme', 'R-old'),
      command: {
        type: 'ReserveQuota',
        RecipientId: 'R-old',
        MessageId: `old-${i}`,
        Channel: 'SMS',
        NotificationClass: 'MARKETING',
        Cap: big,
        now: at,
      },
      commandId: `seed-${i}`,
      now: at,
      context: ctx,
    });
  }
  let read = 0;
  const counting = {
    ...storeA,
    readStream: async (...args: Parameters<typeof storeA.readStream>) => {
      const r = await storeA.readStream(...args);
      if (args[0] === quotaStream('acme', 'R-old')) read += r.length;
      return r;
    },
  };
  const gate = createDispatchGate({ eventStore: counting, settings, defaultTimeZone: 'UTC' });
  await policies.frequencyCaps.save({ Category: 'MARKETING', Limit: 2, WindowSeconds: 3 * 86_400 }, ctx, 'cap-old');
  // within 3 days: the reservations of T0-1d, -2d (the one of -3d is at the window's edge: not counted)
  const first = notification('R-old').state;
  assert.is(reason(await claim(gate, first)), 'FREQUENCY_CAP_EXCEEDED');
  assert.ok(read > 0 && read < 300, `read ${read} of 300 events`);
  await policies.frequencyCaps.save({ Category: 'MARKETING', Limit: 3, WindowSeconds: 3 * 86_400 }, ctx, 'cap-old-3');
  assert.is((await claim(gate, first)).verdict, 'PASS');
  // a message that made attempts reads the whole stream (its own slot may be older than the window)
  read = 0;
  const retried = {
    ...first,
    messages: Object.fromEntries(
      Object.entries(first.messages).map(([k, m]) => [k, { ...m, Attempts: [{} as never] }]),
    ),
  };
  assert.is((await claim(gate, retried as AcceptedNotification)).verdict, 'PASS', 'holds its slot: no new one');
  assert.is(read, 301);
  assert.equal((await storeA.readStream(quotaStream('acme', 'R-old'))).length, 301);
});

test('FREQUENCY_IDENTITY_MISSING: a RESPECT cap applies and the message has no RecipientId', async () => {
  await policies.frequencyCaps.save({ Category: '*', Limit: 5, WindowSeconds: 60 }, ctx, 'cap-3');
  const s = notification(undefined, {
    Policies: { PreferencePolicy: 'BYPASS', FrequencyCapPolicy: 'RESPECT', QuietHoursPolicy: 'BYPASS' },
  }).state;
  assert.is(reason(await claim(gateA, s)), 'FREQUENCY_IDENTITY_MISSING');
  const bypass = notification(undefined, {
    Policies: { PreferencePolicy: 'BYPASS', FrequencyCapPolicy: 'BYPASS', QuietHoursPolicy: 'BYPASS' },
  }).state;
  assert.is((await claim(gateA, bypass)).verdict, 'PASS');
});

test('preferences are read live at each claim: opt-out, re-allow, and the default', async () => {
  const bypassCap = {
    Policies: {
      PreferencePolicy: 'RESPECT' as const,
      FrequencyCapPolicy: 'BYPASS' as const,
      QuietHoursPolicy: 'BYPASS' as const,
    },
  };
  const s = notification('R-pref', bypassCap).state;
  assert.is((await claim(gateA, s)).verdict, 'PASS', 'default-allow true, nothing stored');
  values[SETTING.preferenceDefaultAllow] = 'false';
  assert.is(reason(await claim(gateA, s)), 'PREFERENCE_NOT_ALLOWED');
  clock.set('2026-03-01T09:00:00.000Z');
  await policies.preferences.set(
    { RecipientId: 'R-pref', Channel: 'EMAIL', NotificationClass: 'MARKETING' },
    'ALLOW',
    ctx,
    'p-1',
  );
  assert.is((await claim(gateB, s)).verdict, 'PASS');
  clock.set('2026-03-01T09:30:00.000Z');
  await policies.interactions.record(
    { InteractionId: 'stop-1', Type: 'OPT_OUT', RecipientId: 'R-pref', Channel: 'EMAIL' },
    ctx,
  );
  assert.is(reason(await claim(gateB, s)), 'PREFERENCE_OPTED_OUT', 'the channel opt-out is later than the class ALLOW');
  values[SETTING.preferenceDefaultAllow] = 'true';
});

test('quiet hours at claim: tenant-local window across midnight, in the tenant time zone', async () => {
  const s = notification('R-quiet', {
    Channel: 'SMS',
    Policies: { PreferencePolicy: 'BYPASS', FrequencyCapPolicy: 'BYPASS', QuietHoursPolicy: 'RESPECT' },
  }).state;
  await policies.quietHours.save({ Channel: 'SMS', Windows: [{ Start: '22:00', End: '07:00' }] }, ctx, 'q-1');
  values[SETTING.timeZone] = 'Europe/Berlin';
  // 21:30Z = 22:30 in Berlin
  assert.equal(await claim(gateA, s, '2026-03-01T21:30:00.000Z'), {
    verdict: 'DEFER',
    until: '2026-03-02T06:00:00.000Z',
    reason: 'QUIET_HOURS',
  });
  assert.is((await claim(gateA, s, '2026-03-02T06:00:00.000Z')).verdict, 'PASS');
  values[SETTING.timeZone] = 'America/New_York';
  assert.is((await claim(gateA, s, '2026-03-01T21:30:00.000Z')).verdict, 'PASS', '16:30 in New York');
  values[SETTING.timeZone] = 'UTC';
});

test.run();
