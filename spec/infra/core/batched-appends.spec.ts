import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { EventEnvelope } from '../../../domain/core/event.ts';
import { withBatchedAppends } from '../../../infra/core/batched-appends.ts';
import type { EventStore } from '../../../infra/core/event-store.port.ts';
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
    await rm(root, { recursive: true, force: true });
  }
});

test.run();
