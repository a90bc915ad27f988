import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { EventEnvelope } from '../../../domain/core/event.ts';
import { withBatchedAppends } from '../../../infra/core/batched-appends.ts';
import type { AppendResult, EventStore } from '../../../infra/core/event-store.port.ts';
import { WrongExpectedRevisionError } from '../../../infra/core/store-errors.ts';
import { createSqliteEventStore } from '../../../infra/sqlite/event-store.sqlite.ts';

const root = await mkdtemp(join(tmpdir(), 'batched-appends-'));
const event = (type: string): EventEnvelope => ({
  id: randomUUID(),
  type,
  data: { type },
  metadata: { tenant: 'acme', occurredAt: '2024-01-01T00:00:00.000Z', schemaVersion: 1 },
});

test('the group-committing store offers changes() where its store does (the log reader ends a pause by it), and not where it does not', async () => {
  const store = createSqliteEventStore({ file: join(root, 'events.sqlite') });
  try {
    const batched = withBatchedAppends(store);
    const before = batched.changes!();
    await Promise.all([
      batched.append('rule-acme.a', [event('RuleCreated')], 'no_stream'),
      batched.append('rule-acme.b', [event('RuleCreated')], 'no_stream'),
    ]);
    assert.ok(batched.changes!() !== before, 'a group commit through it moves the counter');
    const { changes: _none, ...withoutChanges } = store;
    assert.is(withBatchedAppends(withoutChanges as EventStore).changes, undefined);
  } finally {
    await store.close();
  }
});

test('appends and appendMany groups of one turn go as one appendMany, each group’s `after` kept to its own entries', async () => {
  const store = createSqliteEventStore({ file: join(root, 'groups.sqlite') });
  const calls: number[] = [];
  try {
    const counted: EventStore = { ...store, appendMany: (b) => (calls.push(b.length), store.appendMany(b)) };
    const batched = withBatchedAppends(counted);
    await store.append('rule-acme.taken', [event('RuleCreated')], 'no_stream');
    const [single, duplicate, fresh] = await Promise.all([
      batched.append('rule-acme.one', [event('RuleCreated')], 'no_stream'),
      // a group whose first entry conflicts: its dependent writes nothing
      batched.appendMany([
        { stream: 'rule-acme.taken', events: [event('RuleCreated')], expected: 'no_stream' },
        { stream: 'rule-acme.skipped', events: [event('RuleCreated')], expected: 'no_stream', after: 0 },
      ]),
      // a group whose first entry goes ahead: its dependent is appended
      batched.appendMany([
        { stream: 'rule-acme.new', events: [event('RuleCreated')], expected: 'no_stream' },
        { stream: 'rule-acme.follows', events: [event('RuleCreated')], expected: 'no_stream', after: 0 },
      ]),
    ]);
    assert.equal(calls, [5], 'one store call for the three');
    assert.is(single.revision, 0);
    assert.instance(duplicate[0], WrongExpectedRevisionError);
    assert.is(duplicate[1], duplicate[0]);
    assert.is((fresh[0] as AppendResult).revision, 0);
    assert.is((fresh[1] as AppendResult).revision, 0);
    assert.equal(await store.readStream('rule-acme.skipped'), []);
    assert.is((await store.readStream('rule-acme.follows')).length, 1);
    // a conflict of a single append rejects, as the store's append does: alone, and inside a joined batch
    const rejected = await batched.append('rule-acme.one', [event('RuleCreated')], 'no_stream').catch((e) => e);
    assert.instance(rejected, WrongExpectedRevisionError);
    const [joinedConflict, joinedFresh] = await Promise.allSettled([
      batched.append('rule-acme.one', [event('RuleCreated')], 'no_stream'),
      batched.append('rule-acme.two', [event('RuleCreated')], 'no_stream'),
    ]);
    assert.is(calls.at(-1), 2, 'joined');
    assert.instance(joinedConflict.status === 'rejected' && joinedConflict.reason, WrongExpectedRevisionError);
    assert.is(joinedFresh.status, 'fulfilled');
    // a group's `after` that names no earlier entry of its own fails that caller alone
    const [bad, good] = await Promise.allSettled([
      batched.appendMany([
        { stream: 'rule-acme.bad', events: [event('RuleCreated')], expected: 'no_stream', after: 0 },
      ]),
      batched.append('rule-acme.three', [event('RuleCreated')], 'no_stream'),
    ]);
    assert.is(bad.status, 'rejected');
    assert.is(good.status, 'fulfilled');
    assert.equal(await store.readStream('rule-acme.bad'), []);
  } finally {
    await store.close();
  }
});

test.after(() => rm(root, { recursive: true, force: true }));

test.run();
