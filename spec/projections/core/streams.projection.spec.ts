// core.streams, the stream catalog: one summary per stream, folded per page; a stream's first event reads
// no summary (there is none before it), a later one reads the summary it continues.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { RecordedEvent } from '../../../domain/core/event.ts';
import type { ReadStore } from '../../../infra/core/read-store.port.ts';
import { createSqliteReadStore } from '../../../infra/sqlite/read-store.sqlite.ts';
import { ensureGeneration } from '../../../projections/core/checkpoints.ts';
import { streamsProjection } from '../../../projections/core/streams.projection.ts';
import { applyCountingReads } from './fixtures/counting-reads.ts';

const test = suite('core.streams projection');
let dir: string;
let store: ReadStore;
let position = 0;
const event = (stream: string, revision: number, type: string, occurredAt: string): RecordedEvent =>
  ({
    id: `e${++position}`,
    type,
    data: {},
    stream,
    revision,
    position: String(position).padStart(20, '0'),
    metadata: { tenant: 'acme', occurredAt, schemaVersion: 1 },
  }) as RecordedEvent;

/** applies a page: the summaries the projection read */
const apply = (events: RecordedEvent[], o: { late?: true } = {}) =>
  applyCountingReads(store, streamsProjection, events, o);
const summary = (stream: string) => store.collection<any>('core.streams__streams__g1').get(stream);

test.before.each(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'streams-proj-'));
  store = createSqliteReadStore({ file: path.join(dir, 'read.sqlite') });
  await ensureGeneration(store, streamsProjection, 1);
});
test.after.each(async () => {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

test('a new stream reads nothing; its later events continue the summary (count, first and last time)', async () => {
  const a = 'hubNotification-acme.n1';
  const b = 'hubNotification-acme.n2';
  assert.is(await apply([event(a, 0, 'NotificationAccepted', 't0'), event(a, 1, 'AttemptStarted', 't1')]), 0);
  assert.is(await apply([event(a, 2, 'MessageAccepted', 't2'), event(b, 0, 'NotificationAccepted', 't3')]), 1);
  assert.equal(await summary(a), {
    id: a,
    category: 'hubNotification',
    tenant: 'acme',
    aggregateId: 'n1',
    revision: 2,
    events: 3,
    lastType: 'MessageAccepted',
    lastPosition: String(position - 1).padStart(20, '0'),
    firstAt: 't0',
    lastAt: 't2',
  });
  assert.equal([(await summary(b)).events, (await summary(b)).firstAt, (await summary(b)).revision], [1, 't3', 0]);
});

test('a parked first event applied late (retryParked) reads the summary its later events wrote and counts on from it', async () => {
  const a = 'hubNotification-acme.n1';
  const first = event(a, 0, 'NotificationAccepted', 't0'); // parked: its later events applied before it
  assert.is(await apply([event(a, 1, 'AttemptStarted', 't1'), event(a, 2, 'MessageAccepted', 't2')]), 1);
  assert.is(await apply([first], { late: true }), 1);
  assert.is((await summary(a)).events, 3);
});

test.run();
