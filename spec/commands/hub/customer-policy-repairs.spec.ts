// Customer-policy effects that must not be lost between two appends (docs/hub.md#customer-policies), over real
// SQLite stores and the real reactors (drained by hand), commands and dispatch gate:
// - an OPT_OUT interaction stored without its preference change (the process stopped between the two
//   appends) still changes the preference once hub.interaction-preference runs; applied once only;
// - a frequency-quota slot reserved after its message ended (a cancel and its release landed before a slow
//   reservation) is released by hub.quota-release reacting to the reservation;
// - an operator's manual retry whose start the decider refuses after the gate reserved (ExpiresAt passed in
//   between) releases the slot it took.
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { commandHandler } from '../../../commands/core/command-handler.ts';
import { createCustomerPolicies } from '../../../commands/hub/customer-policy.commands.ts';
import { createDispatchProcess } from '../../../commands/hub/dispatch.process.ts';
import { createDispatchGate } from '../../../commands/hub/dispatch-gate.ts';
import { type HubSettings, SETTING } from '../../../commands/hub/hub.contracts.ts';
import { createInteractionPreferenceReactor } from '../../../commands/hub/interaction-preference.reactor.ts';
import { createOperatorCommands } from '../../../commands/hub/operator.commands.ts';
import { createQuotaReleaseReactor } from '../../../commands/hub/quota-release.reactor.ts';
import type { Snapshots } from '../../../commands/hub/snapshots.ts';
import { fold } from '../../../domain/core/decider.ts';
import type { AcceptedNotification } from '../../../domain/hub/dispatch-gate.ts';
import { quotaStream } from '../../../domain/hub/frequency-quota.decider.ts';
import { interactionDecider, interactionStream } from '../../../domain/hub/interaction.decider.ts';
import {
  type NotificationCommand,
  notificationDecider,
  notificationStream,
} from '../../../domain/hub/notification.decider.ts';
import type { NotificationEvent } from '../../../domain/hub/notification.model.ts';
import { preferenceStream } from '../../../domain/hub/preference.decider.ts';
import { manualClock } from '../../../infra/core/clock.port.ts';
import { createSqliteEventStore } from '../../../infra/sqlite/event-store.sqlite.ts';
import { createSqliteReadStore } from '../../../infra/sqlite/read-store.sqlite.ts';
import { acceptedEvent, planned, T0 } from '../../domain/hub/notification-fixtures.ts';

const dir = mkdtempSync(path.join(tmpdir(), 'hub-policy-repairs-'));
const eventStore = createSqliteEventStore({ file: path.join(dir, 'events.db') });
const readStore = createSqliteReadStore({ file: path.join(dir, 'read.db') });
const values: Record<string, string> = { [SETTING.preferenceDefaultAllow]: 'true', [SETTING.timeZone]: 'UTC' };
const settings: HubSettings = { get: async (_t, key) => values[key] };
const clock = manualClock(T0);
const gate = createDispatchGate({ eventStore, settings, defaultTimeZone: 'UTC' });
const policies = createCustomerPolicies({ eventStore, clock, settings });
const interactionReactor = createInteractionPreferenceReactor({ eventStore, readStore, clock, policies });
const quotaReactor = createQuotaReleaseReactor({ eventStore, readStore, clock, gate });
const ctx = { tenant: 'acme', actor: 'spec' };
const CAP = { Category: 'MARKETING', Limit: 1, WindowSeconds: 86_400 };

test.after(() => {
  eventStore.close?.();
  readStore.close?.();
  rmSync(dir, { recursive: true, force: true });
});

const types = async (stream: string) => (await eventStore.readStream(stream)).map((e) => e.type);

/** a stored accepted notification of class MARKETING with one message for `rid` (a real notification id: the reactor finds it from the MessageId) */
async function storedNotification(rid: string, o: { expiresAt?: string; maxAttempts?: number } = {}) {
  const nid = randomUUID();
  const messageId = `${nid}.m1`;
  const accepted = acceptedEvent({
    ...(o.expiresAt !== undefined && { expiresAt: o.expiresAt }),
    messages: [
      planned(1, {
        MessageId: messageId,
        Recipient: { RecipientId: rid, Address: 'x@example.com' },
        ...(o.maxAttempts !== undefined && {
          RetryPolicy: {
            MaxAttempts: o.maxAttempts,
            RetryInitialDelaySeconds: 1,
            RetryBackoffMultiplier: 1,
            RetryMaxDelaySeconds: 1,
          },
        }),
      }),
    ],
  });
  const data = accepted.data as { Notification: { NotificationId: string; NotificationClass: string } };
  data.Notification.NotificationId = nid;
  data.Notification.NotificationClass = 'MARKETING';
  const stream = notificationStream('acme', nid);
  // the acceptance as stored by the send path (the decider has no command for it: it is appended as decided)
  await eventStore.append(
    stream,
    [
      {
        id: randomUUID(),
        type: accepted.type,
        data: accepted.data,
        metadata: { tenant: 'acme', actor: 'spec', commandId: `accept/${nid}`, occurredAt: T0, schemaVersion: 1 },
      },
    ],
    'no_stream' as never,
  );
  return { nid, messageId, stream };
}

const notificationCommand = commandHandler(eventStore, notificationDecider);
const apply = (stream: string, command: NotificationCommand, id: string) =>
  notificationCommand({ stream, command, commandId: id, now: clock.now().toISOString(), context: ctx });
const state = async (stream: string) =>
  fold(
    notificationDecider,
    (await eventStore.readStream(stream)) as unknown as NotificationEvent[],
  ) as AcceptedNotification;

test('an OPT_OUT interaction stored alone (crash before the preference append) sets the preference once the reactor runs, once', async () => {
  const record = commandHandler(eventStore, interactionDecider);
  const interaction = {
    InteractionId: 'i-crash',
    Type: 'OPT_OUT' as const,
    RecipientId: 'C-crash',
    Channel: 'SMS',
    ReceivedAt: T0,
  };
  await record({
    stream: interactionStream('acme', 'i-crash'),
    command: { type: 'RecordInteraction', interaction, now: T0 },
    commandId: 'interaction/i-crash/x',
    now: T0,
    context: ctx,
  });
  const key = { RecipientId: 'C-crash', Channel: 'SMS', NotificationClass: '*' };
  assert.is(await policies.preferences.get('acme', key), null, 'the crash: interaction stored, preference not');
  assert.ok((await interactionReactor.drain()) >= 1);
  const p = await policies.preferences.get('acme', key);
  assert.is(p?.Decision, 'DENY');
  assert.is(p?.Source, 'INTERACTION');
  assert.is((await policies.preferences.effective('acme', { ...key, NotificationClass: 'MARKETING' })).Allowed, false);
  // the request path (a resend) and the reactor again: the same command id, nothing more appended
  await policies.interactions.record(interaction, ctx);
  await interactionReactor.drain();
  assert.equal(await types(preferenceStream('acme', key)), ['PreferenceSet']);
});

test('an OPT_IN recorded through the request and then seen by the reactor is applied once', async () => {
  const key = { RecipientId: 'C-in', Channel: 'EMAIL', NotificationClass: 'MARKETING' };
  const r = await policies.interactions.record(
    { InteractionId: 'i-in', Type: 'OPT_IN', RecipientId: 'C-in', Channel: 'EMAIL', NotificationClass: 'MARKETING' },
    ctx,
  );
  assert.is(r.preference?.Decision, 'ALLOW', 'the immediate answer');
  await interactionReactor.drain();
  assert.equal(await types(preferenceStream('acme', key)), ['PreferenceSet']);
});

test('an OPT_IN stored alone and reached late by the reactor does not undo a newer OPT_OUT', async () => {
  const record = commandHandler(eventStore, interactionDecider);
  const key = { RecipientId: 'C-late', Channel: 'EMAIL', NotificationClass: '*' };
  // the old OPT_IN: stored, its preference change lost (the process stopped between the appends)
  const old = {
    InteractionId: 'i-old-in',
    Type: 'OPT_IN' as const,
    RecipientId: 'C-late',
    Channel: 'EMAIL',
    ReceivedAt: T0,
  };
  await record({
    stream: interactionStream('acme', 'i-old-in'),
    command: { type: 'RecordInteraction', interaction: old, now: T0 },
    commandId: 'interaction/i-old-in/x',
    now: T0,
    context: ctx,
  });
  // the customer opts out afterwards, through the request (applied at once)
  await policies.interactions.record(
    { InteractionId: 'i-new-out', Type: 'OPT_OUT', RecipientId: 'C-late', Channel: 'EMAIL' },
    ctx,
  );
  assert.is((await policies.preferences.get('acme', key))?.Decision, 'DENY');
  await interactionReactor.drain();
  assert.is(
    (await policies.preferences.get('acme', key))?.Decision,
    'DENY',
    'the late OPT_IN must not override the newer OPT_OUT',
  );
  assert.equal(await types(preferenceStream('acme', key)), ['PreferenceSet']);
});

test('a reservation appended after its message was cancelled (and the cancel released nothing) is released by the reactor', async () => {
  await policies.frequencyCaps.save(CAP, ctx, 'cap-b');
  await quotaReactor.drain(); // earlier events are not this test's
  const n = await storedNotification('R-late');
  const before = await state(n.stream);
  // the slow claim read the message while it was PLANNED; the cancel (and the reactor's look at it) came first
  await apply(
    n.stream,
    { type: 'CancelUnsent', MessageId: n.messageId, Reason: 'operator', now: T0 },
    `cancel/${n.messageId}`,
  );
  await quotaReactor.drain();
  assert.equal(await types(quotaStream('acme', 'R-late')), [], 'nothing reserved yet: nothing to release');
  assert.is(
    (await gate.claim({ tenant: 'acme', state: before, message: before.messages[n.messageId]!, now: T0, kind: 'AUTO' }))
      .verdict,
    'PASS',
  );
  assert.equal(await types(quotaStream('acme', 'R-late')), ['QuotaReserved']);
  await quotaReactor.drain();
  assert.equal(await types(quotaStream('acme', 'R-late')), ['QuotaReserved', 'QuotaReleased']);
  assert.equal((await policies.frequencyCaps.usage('acme', 'R-late')).Caps[0]!.Used, 0);
});

test('a reservation of a message still in flight is kept by the reactor', async () => {
  await policies.frequencyCaps.save(CAP, ctx, 'cap-b');
  const n = await storedNotification('R-live');
  const s = await state(n.stream);
  assert.is(
    (await gate.claim({ tenant: 'acme', state: s, message: s.messages[n.messageId]!, now: T0, kind: 'AUTO' })).verdict,
    'PASS',
  );
  await quotaReactor.drain();
  assert.equal(await types(quotaStream('acme', 'R-live')), ['QuotaReserved']);
});

test('a manual retry whose start is refused after the gate reserved (ExpiresAt passed in between) releases the slot', async () => {
  await policies.frequencyCaps.save(CAP, ctx, 'cap-b');
  clock.set(T0);
  const n = await storedNotification('R-manual', {
    expiresAt: new Date(Date.parse(T0) + 3600_000).toISOString(),
    maxAttempts: 1,
  });
  const ids = { AttemptId: randomUUID(), ClientRequestId: randomUUID(), CallbackId: 'cb' };
  await apply(
    n.stream,
    { type: 'StartAttempt', MessageId: n.messageId, ...ids, Kind: 'AUTO', OutcomeDueBy: T0, now: T0 },
    'a1',
  );
  await apply(
    n.stream,
    {
      type: 'RecordOutcome',
      MessageId: n.messageId,
      AttemptId: ids.AttemptId,
      outcome: { kind: 'REJECTED', reason: '400', httpStatus: 400 },
      now: T0,
    },
    'o1',
  );
  assert.is((await state(n.stream)).messages[n.messageId]!.State, 'FAILED');

  // the real gate, with the clock moving past ExpiresAt right after it reserved (the time between the two steps)
  const slowGate = {
    claim: async (input: Parameters<typeof gate.claim>[0]) => {
      const d = await gate.claim(input);
      clock.set(new Date(Date.parse(T0) + 2 * 3600_000));
      return d;
    },
    releaseIfUncommitted: gate.releaseIfUncommitted,
  };
  const dispatch = createDispatchProcess({
    eventStore,
    clock,
    drivers: { get: () => undefined } as never,
    snapshots: { get: async () => null } as unknown as Snapshots,
    config: {} as never,
    publicBaseUrl: 'http://127.0.0.1',
    outcomeAfterMs: (ms) => ms * 2,
  });
  const operator = createOperatorCommands({ eventStore, clock, dispatch, gate: slowGate });
  clock.set(new Date(Date.parse(T0) + 600_000));
  try {
    await operator.retry(n.messageId, { Reason: 'retry it', key: 'k1' }, ctx);
    assert.unreachable('the start is refused: the notification expired');
  } catch (err) {
    assert.match(String((err as { code?: string }).code), /NOT_ELIGIBLE|STATE_CONFLICT/);
  }
  assert.equal(await types(quotaStream('acme', 'R-manual')), ['QuotaReserved', 'QuotaReleased']);
  assert.equal((await policies.frequencyCaps.usage('acme', 'R-manual')).Caps[0]!.Used, 0);
  clock.set(T0);
});

test.run();
