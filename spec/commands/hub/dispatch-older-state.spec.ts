// The dispatch process's step on a state read off the log (the dispatch worker's remembered acceptance, which
// the stream may have moved on from): a step that appended on it stands, its revision checked; any other
// answer is taken again from the stream. The inline dispatch's state (its own append just left it) is
// trusted as it is.
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { commandHandler } from '../../../commands/core/command-handler.ts';
import { createDispatchProcess, notificationOf } from '../../../commands/hub/dispatch.process.ts';
import type { Snapshots } from '../../../commands/hub/snapshots.ts';
import {
  type NotificationCommand,
  notificationDecider,
  notificationStream,
} from '../../../domain/hub/notification.decider.ts';
import { manualClock } from '../../../infra/core/clock.port.ts';
import { createSqliteEventStore } from '../../../infra/sqlite/event-store.sqlite.ts';
import { acceptedEvent, aid, mid, outcome, REJECT, start, T0 } from '../../domain/hub/notification-fixtures.ts';

const dir = mkdtempSync(path.join(tmpdir(), 'hub-older-state-'));
const eventStore = createSqliteEventStore({ file: path.join(dir, 'events.db') });
const clock = manualClock(T0);
// no snapshot: a started attempt fails at once as unusable (nothing to call), which is all these steps need
const dispatch = createDispatchProcess({
  eventStore,
  clock,
  drivers: { get: () => undefined } as never,
  snapshots: { get: async () => null } as unknown as Snapshots,
  config: { services: { signingSecrets: async () => null } } as never,
  publicBaseUrl: 'http://127.0.0.1',
  outcomeAfterMs: (ms) => ms * 2,
});
const notification = commandHandler(eventStore, notificationDecider);
const ctx = { tenant: 'acme', actor: 'spec' };

test.after(() => {
  eventStore.close();
  rmSync(dir, { recursive: true, force: true });
});

/** FALLBACK of two: the acceptance (m1 PLANNED, m2 WAITING), then m1 rejected for good, which promotes m2 */
async function promotedSecond() {
  const stream = notificationStream('acme', randomUUID());
  const accepted = acceptedEvent({ count: 2, strategy: 'FALLBACK' });
  await eventStore.append(
    stream,
    [
      {
        id: randomUUID(),
        type: accepted.type,
        data: accepted.data,
        metadata: { tenant: 'acme', actor: 'spec', commandId: 'accept', occurredAt: T0, schemaVersion: 1 },
      },
    ],
    'no_stream',
  );
  const seen = notificationOf(await eventStore.readStream(stream))!; // what a page showed: the acceptance alone
  const apply = (command: NotificationCommand, id: string) =>
    notification({ stream, command, commandId: id, now: T0, context: ctx });
  await apply(start(1, 1), 'start-1');
  await apply(outcome(1, 1, REJECT), 'outcome-1');
  return { stream, seen };
}

test('a state read off the log that says "nothing to do" is checked against the stream: the promoted message is started', async () => {
  const { stream, seen } = await promotedSecond();
  assert.is(seen.state.messages[mid(2)]!.State, 'WAITING', 'the older state');
  assert.is(await dispatch.advance(stream, mid(2), seen, 'maybe-older'), 'submitted');
  const events = await eventStore.readStream(stream);
  const second = events
    .filter((e) => e.type === 'AttemptStarted')
    .map((e) => (e.data as { MessageId: string }).MessageId);
  assert.equal(second, [mid(1), mid(2)], `an attempt of the promoted message: ${events.map((e) => e.type).join(', ')}`);
});

test('the same state handed on as current (an inline dispatch) is trusted: nothing is started', async () => {
  const { stream, seen } = await promotedSecond();
  assert.is(await dispatch.advance(stream, mid(2), seen), 'nothing');
  assert.is((await eventStore.readStream(stream)).length, 4, 'nothing appended');
});

test('a step that would append on an older state races and is decided again on the stream: the first message is not started twice', async () => {
  const { stream, seen } = await promotedSecond();
  assert.is(seen.state.messages[mid(1)]!.State, 'PLANNED', 'the older state still has the first message to send');
  assert.is(await dispatch.advance(stream, mid(1), seen, 'maybe-older'), 'nothing');
  const attempts = (await eventStore.readStream(stream))
    .filter((e) => e.type === 'AttemptStarted')
    .map((e) => (e.data as { AttemptId: string }).AttemptId);
  assert.equal(attempts, [aid(1, 1)], 'only the first attempt');
});

test.run();
