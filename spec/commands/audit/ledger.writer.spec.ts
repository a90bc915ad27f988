// The audit ledger writer on a real SQLite event store: group commit, gapless sequences
// and a valid chain under concurrency — also with two writers on one file (two processes) — and the
// Idempotency-Key rule (first answer, nothing stored twice, exact across writers and restarts).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createLedgerWriter, type KeyEntry, type WriteRequest } from '../../../commands/audit/ledger.writer.ts';
import { type AuditRecordedData, ledgerStream } from '../../../domain/audit/ledger.decider.ts';
import { chainHash, GENESIS_HASH, type RecordFields, recordOf } from '../../../domain/audit/record.ts';
import { isDomainError } from '../../../domain/core/domain-error.ts';
import { manualClock } from '../../../infra/core/clock.port.ts';
import type { EventStore } from '../../../infra/core/event-store.port.ts';
import { createSqliteEventStore } from '../../../infra/sqlite/event-store.sqlite.ts';

const test = suite('audit ledger writer');
let dir: string;
let file: string;
const stores: EventStore[] = [];
const clock = manualClock('2026-03-01T10:00:00.000Z');

/** what the records projection would know: nothing unless a spec says so */
const projection = { keys: new Map<string, KeyEntry>(), sequence: 0 };

const open = () => {
  const store = createSqliteEventStore({ file });
  stores.push(store);
  return store;
};
const writerOn = (eventStore: EventStore, o: { maxBatch?: number } = {}) =>
  createLedgerWriter({
    eventStore,
    clock,
    projectedKey: async (tenant, key) => projection.keys.get(`${tenant}/${key}`) ?? null,
    projectedSequence: async () => projection.sequence,
    ...o,
  });

let n = 0;
const fields = (o: Partial<RecordFields> = {}): RecordFields => ({
  module_name: 'policy',
  transaction_name: 'createPolicy',
  transaction_vendor: 'v',
  business_code: `PolicyNo:${++n}`,
  client_ip: '10.0.0.1',
  new_data: '{}',
  old_data: '',
  warning_type: 'INFO',
  trace_id: '',
  tags: [],
  compress_type: 'none',
  ...o,
});
const request = (tenant: string, o: Partial<WriteRequest> = {}): WriteRequest => ({
  fields: fields(),
  context: { tenant, actor: 'spec' },
  ...o,
});

/** the tenant's chain as stored: sequences 1..n in order, every hash recomputed */
async function assertChain(store: EventStore, tenant: string, expected: number): Promise<void> {
  const events = await store.readStream(ledgerStream(tenant));
  assert.is(events.length, expected);
  let previous = GENESIS_HASH;
  events.forEach((e, i) => {
    const d = e.data as AuditRecordedData;
    assert.is(d.sequence, i + 1);
    assert.is(d.hash, chainHash(previous, recordOf(d)));
    previous = d.hash;
  });
}

test.before(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'audit-ledger-'));
  file = path.join(dir, 'events.sqlite');
});
test.after(async () => {
  for (const s of stores) await s.close();
  rmSync(dir, { recursive: true, force: true });
});

test('concurrent writes of a tenant are committed in groups: gapless sequences, one valid chain', async () => {
  const writer = writerOn(open());
  const results = await Promise.all(Array.from({ length: 300 }, () => writer.write(request('acme'))));
  assert.equal(
    results.map((r) => r.sequence).sort((a, b) => a - b),
    Array.from({ length: 300 }, (_, i) => i + 1),
  );
  assert.ok(results.every((r) => !r.replayed));
  const stats = writer.stats();
  assert.is(stats.records, 300);
  assert.ok(stats.appends < 20, `300 records in ${stats.appends} appends`);
  await assertChain(stores[0]!, 'acme', 300);
  // tenants have chains of their own
  assert.is((await writer.write(request('beta'))).sequence, 1);
});

test('the batch size is bounded (maxBatch)', async () => {
  const writer = writerOn(open(), { maxBatch: 7 });
  await Promise.all(Array.from({ length: 50 }, () => writer.write(request('gamma'))));
  assert.ok(writer.stats().appends >= 8, `${writer.stats().appends} appends`);
  await assertChain(stores[0]!, 'gamma', 50);
});

test('two writers on one file (two processes) interleave: the expected revision serializes them, nothing lost, no gap', async () => {
  const a = writerOn(open());
  const b = writerOn(open());
  const all = await Promise.all(Array.from({ length: 200 }, (_, i) => (i % 2 === 0 ? a : b).write(request('delta'))));
  assert.equal(
    all.map((r) => r.sequence).sort((x, y) => x - y),
    Array.from({ length: 200 }, (_, i) => i + 1),
  );
  assert.ok(a.stats().conflicts + b.stats().conflicts > 0, 'they did race');
  await assertChain(stores[0]!, 'delta', 200);
});

test('Idempotency-Key: concurrent and later retries answer the first record; other content is a 422', async () => {
  const writer = writerOn(open());
  const body = fields({ business_code: 'Idem:1' });
  const req = request('eps', { fields: body, idempotencyKey: 'k-1' });
  const [first, second] = await Promise.all([writer.write(req), writer.write(req)]);
  assert.is(first!.replayed, false);
  assert.equal({ ...second!, replayed: false }, first);
  assert.is(second!.replayed, true);
  const later = await writer.write(req);
  assert.equal([later.id, later.sequence, later.replayed], [first!.id, first!.sequence, true]);
  try {
    await writer.write(request('eps', { fields: fields({ business_code: 'Idem:other' }), idempotencyKey: 'k-1' }));
    assert.unreachable('422');
  } catch (err) {
    if (err instanceof assert.Assertion) throw err;
    assert.ok(isDomainError(err));
    assert.equal([err.code, err.status], ['REQUEST.IDEMPOTENCY_KEY_REUSED', 422]);
  }
  // the same key in another tenant is another write
  assert.is((await writer.write(request('zeta', { fields: body, idempotencyKey: 'k-1' }))).replayed, false);
  await assertChain(stores[0]!, 'eps', 1);
});

test("Idempotency-Key across writers and restarts: another process's key, the unprojected tail, the projection's index", async () => {
  const a = writerOn(open());
  const b = writerOn(open());
  // the same key at once through two processes: one record
  const req = request('eta', { fields: fields({ business_code: 'Both' }), idempotencyKey: 'both' });
  const [x, y] = await Promise.all([a.write(req), b.write(req)]);
  assert.is(x!.sequence, y!.sequence);
  assert.ok(x!.replayed !== y!.replayed);
  for (let i = 0; i < 5; i++) await a.write(request('eta', { idempotencyKey: `tail-${i}` }));
  // a restarted process whose projection has seen nothing: it reads the tail and knows every key
  projection.sequence = 0;
  etaEvents = await stores[0]!.readStream(ledgerStream('eta'));
  const restarted = writerOn(open());
  const again = await restarted.write(request('eta', { fields: keyed('tail-3'), idempotencyKey: 'tail-3' }));
  assert.is(again.replayed, true);
  // a process whose projection has applied everything: the key comes from the projection's index
  const events = await stores[0]!.readStream(ledgerStream('eta'));
  const stored = events.find((e) => (e.data as AuditRecordedData).idempotency_key === 'tail-1')!
    .data as AuditRecordedData;
  projection.sequence = events.length;
  projection.keys.set('eta/tail-1', {
    id: stored.id,
    sequence: stored.sequence,
    hash: stored.hash,
    time: stored.time,
    fingerprint: stored.fingerprint!,
  });
  const fresh = writerOn(open());
  const viaIndex = await fresh.write(request('eta', { fields: recordFieldsOf(stored), idempotencyKey: 'tail-1' }));
  assert.equal([viaIndex.sequence, viaIndex.replayed], [stored.sequence, true]);
  await assertChain(stores[0]!, 'eta', 6);
  projection.sequence = 0;
  projection.keys.clear();
});

const recordFieldsOf = (d: AuditRecordedData): RecordFields => {
  const { id: _i, tenant: _t, sequence: _s, time: _m, hash: _h, idempotency_key: _k, fingerprint: _f, ...rest } = d;
  return rest;
};
/** the content written with `key` in tenant eta (what a client retries with) */
let etaEvents: Array<{ data: unknown }> = [];
const keyed = (key: string): RecordFields =>
  recordFieldsOf(
    etaEvents.find((e) => (e.data as AuditRecordedData).idempotency_key === key)!.data as AuditRecordedData,
  );

test('time never goes back along a chain, whatever the clock does', async () => {
  const writer = writerOn(open());
  clock.set('2026-03-01T12:00:00.000Z');
  const one = await writer.write(request('theta'));
  clock.set('2026-03-01T11:00:00.000Z');
  const two = await writer.write(request('theta'));
  assert.is(two.time, one.time);
  assert.is(two.sequence, one.sequence + 1);
});

test.run();
