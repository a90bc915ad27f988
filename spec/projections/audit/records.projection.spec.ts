// The audit records projection and its queries on the embedded read store: documents
// with their sort keys, the key index, the chain document, retention removing a prefix (also when a rebuild
// replays it), the binary search of the retention cutoff, and the query filter walking the index.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { type LedgerEvent, type LedgerState, ledgerDecider } from '../../../domain/audit/ledger.decider.ts';
import type { RecordQuery } from '../../../domain/audit/query.ts';
import type { RetentionApplied } from '../../../domain/audit/retention.decider.ts';
import type { RecordedEvent } from '../../../domain/core/event.ts';
import type { ReadStore } from '../../../infra/core/read-store.port.ts';
import { createSqliteReadStore } from '../../../infra/sqlite/read-store.sqlite.ts';
import { recordsProjection } from '../../../projections/audit/records.projection.ts';
import {
  createRecordQueries,
  type RecordView,
  recordFilter,
  recordTextOf,
  viewOf,
} from '../../../projections/audit/records.queries.ts';
import { ensureGeneration, initCheckpoint } from '../../../projections/core/checkpoints.ts';
import { projectionStore } from '../../../projections/core/projection-store.ts';

const test = suite('audit records projection');
let dir: string;
let store: ReadStore;
const projection = recordsProjection();
const T0 = Date.parse('2026-03-01T00:00:00.000Z');
const HOUR = 3_600_000;
let position = 0;

const recorded = (e: { type: string; data: unknown }, tenant: string, key?: string): RecordedEvent =>
  ({
    id: `e${++position}`,
    type: e.type,
    data: e.data,
    stream: `s-${tenant}.x`,
    revision: 0,
    position: String(position).padStart(20, '0'),
    metadata: { tenant, occurredAt: '', schemaVersion: 1, ...(key && { k: key }) },
  }) as RecordedEvent;

const chains = new Map<string, LedgerState>();
function records(
  tenant: string,
  n: number,
  o: { key?: (i: number) => string | undefined; hours?: number } = {},
): RecordedEvent[] {
  const out: RecordedEvent[] = [];
  for (let i = 0; i < n; i++) {
    const state = chains.get(tenant) ?? ledgerDecider.initialState();
    const key = o.key?.(state.sequence + 1);
    const [event] = ledgerDecider.decide(
      {
        type: 'RecordAudit',
        id: `${tenant}-r${state.sequence + 1}`,
        tenant,
        now: new Date(T0 + (state.sequence + 1) * (o.hours ?? 1) * HOUR).toISOString(),
        fields: {
          module_name: 'policy',
          transaction_name: 'create',
          transaction_vendor: '',
          business_code: `B:${state.sequence + 1}`,
          client_ip: '10.0.0.1',
          new_data: '',
          old_data: '',
          warning_type: 'INFO',
          trace_id: '',
          tags: [],
          compress_type: 'none',
        },
        ...(key !== undefined && { idempotency_key: key, fingerprint: 'f' }),
      },
      state,
    );
    chains.set(tenant, ledgerDecider.evolve(state, event as LedgerEvent));
    out.push(recorded(event!, tenant));
  }
  return out;
}
const retire = (tenant: string, through: number): RecordedEvent =>
  recorded(
    {
      type: 'RetentionApplied',
      data: { cutoff: '2026-03-01T05:00:00.000Z', through_sequence: through, at: '' },
    } satisfies RetentionApplied,
    tenant,
  );
const apply = (events: RecordedEvent[], generation = 1) =>
  store.transaction((tx) => projection.apply(events, projectionStore(tx, projection, generation)));

test.before(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'audit-records-'));
  store = createSqliteReadStore({ file: path.join(dir, 'read.sqlite') });
  await initCheckpoint(store, projection, new Date().toISOString());
});
test.after(async () => {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

/** a page as answered, its records parsed */
const pageOf = async (
  q: ReturnType<typeof createRecordQueries>,
  tenant: string,
  query: RecordQuery,
  pageNum: number,
  size: number,
) => {
  const page = await q.pageText(tenant, query, pageNum, size);
  return { total: page.total, records: page.records.map((t) => JSON.parse(t.json) as RecordView) };
};

const query: RecordQuery = {
  module_name: 'policy',
  transaction_name: 'create',
  start: '2026-01-01T00:00:00.000Z',
  end: '2027-01-01T00:00:00.000Z',
};

test('records, keys and the chain document; newest first along the index', async () => {
  await apply([...records('acme', 10, { key: (s) => (s % 2 === 0 ? `k${s}` : undefined) }), ...records('beta', 3)]);
  const q = createRecordQueries(store);
  const page = await pageOf(q, 'acme', query, 1, 4);
  assert.is(page.total, 10);
  assert.equal(
    page.records.map((r) => r.sequence),
    [10, 9, 8, 7],
  );
  assert.not.ok('ts' in page.records[0]! || 'seq' in page.records[0]!, 'sort keys are not answered');
  const chain = await q.chain('acme');
  assert.equal([chain?.last_sequence, chain?.retired_through, chain?.last_hash], [10, 0, chains.get('acme')!.hash]);
  assert.equal(await q.key('acme', 'k4'), {
    id: 'acme-r4',
    sequence: 4,
    hash: (await q.range('acme', 4, 4, 1))[0]!.hash,
    time: new Date(T0 + 4 * HOUR).toISOString(),
    fingerprint: 'f',
  });
  assert.is(await q.key('acme', 'k3'), null);
  assert.is(await q.key('beta', 'k4'), null);
  const walked = await q.walkText('acme', query, { cursor: (await q.range('acme', 6, 6, 1))[0]!.ts }, 3);
  assert.equal(
    walked.map((t) => (JSON.parse(t.json) as RecordView).sequence),
    [5, 4, 3],
  );
  assert.equal(
    walked.map((t) => t.ts),
    (await q.range('acme', 3, 5, 10)).map((d) => d.ts).reverse(),
    'each text comes with its cursor',
  );
  assert.equal(
    (await q.range('acme', 3, 5, 10)).map((d) => d.sequence),
    [3, 4, 5],
  );
});

test('a page in JSON text is the stored text without the index keys; a text of another shape is parsed and written again', async () => {
  const q = createRecordQueries(store);
  const texts = await q.pageText('acme', query, 1, 3);
  const docs = await q.range('acme', 8, 10, 10);
  assert.equal(
    texts.records.map((t) => JSON.parse(t.json) as unknown),
    docs.reverse().map(viewOf),
  );
  for (const t of texts.records) assert.not.match(t.json, /"(ts|seq)":/);
  const doc = docs[0]!;
  const reordered = JSON.stringify({ ts: doc.ts, seq: doc.seq, ...viewOf(doc) });
  assert.equal(recordTextOf(reordered), { json: JSON.stringify(viewOf(doc)), ts: doc.ts });
  // data fields are JSON text: a `"ts"` inside them is escaped and never taken for the record's own
  const tricky = { ...viewOf(doc), new_data: '{"x":1,"ts":"1999","seq":"1"}', ts: doc.ts, seq: doc.seq };
  assert.equal(recordTextOf(JSON.stringify(tricky)), {
    json: JSON.stringify(viewOf(tricky as typeof doc)),
    ts: doc.ts,
  });
  // a key after the index keys, or index keys that are not plain strings: the long way, the same answer
  for (const odd of [
    { ...doc, extra: 1 },
    { ...viewOf(doc), ts: 'a"b', seq: doc.seq },
    { ...viewOf(doc), ts: doc.ts, seq: '' },
  ]) {
    const { ts: _t, seq: _s, ...rest } = odd as typeof doc;
    assert.equal(recordTextOf(JSON.stringify(odd)), { json: JSON.stringify(rest), ts: (odd as typeof doc).ts });
  }
});

test('the retention cutoff is found by binary search over the chain', async () => {
  const q = createRecordQueries(store);
  assert.is(await q.lastSequenceBefore('acme', new Date(T0 + 5.5 * HOUR).toISOString()), 5);
  assert.is(await q.lastSequenceBefore('acme', new Date(T0).toISOString()), 0);
  assert.is(await q.lastSequenceBefore('acme', new Date(T0 + 100 * HOUR).toISOString()), 10);
  assert.is(await q.lastSequenceBefore('nobody', new Date(T0 + 100 * HOUR).toISOString()), 0);
});

test('RetentionApplied removes the prefix (records and keys) of that tenant only; a rebuild does not bring it back', async () => {
  const q = createRecordQueries(store);
  await apply([retire('acme', 5)]);
  assert.equal(
    (await pageOf(q, 'acme', query, 1, 20)).records.map((r) => r.sequence),
    [10, 9, 8, 7, 6],
  );
  assert.is(await q.key('acme', 'k4'), null);
  assert.ok((await q.key('acme', 'k6')) !== null);
  assert.equal(
    [(await q.chain('acme'))?.retired_through, (await q.chain('acme'))?.retired_before],
    [5, '2026-03-01T05:00:00.000Z'],
  );
  assert.is((await pageOf(q, 'beta', query, 1, 20)).total, 3);
  assert.is(await q.lastSequenceBefore('acme', new Date(T0 + 100 * HOUR).toISOString()), 10);
  // never backwards
  await apply([retire('acme', 2)]);
  assert.is((await q.chain('acme'))?.retired_through, 5);
  // a rebuild into generation 2: the whole log again, the retired records stay out
  await ensureGeneration(store, projection, 2);
  chains.clear();
  position = 0;
  const replay = [...records('acme', 10), retire('acme', 5)];
  await apply(replay.slice(0, 10), 2);
  await apply(replay.slice(10), 2);
  const g2 = await store.collection('audit.records__records__g2').count({ tenant: 'acme' });
  assert.is(g2, 5);
});

test('the query filter: exact index conditions, optional filters, bounds for scrolls and exports', () => {
  const f = recordFilter(
    'acme',
    { ...query, business_code: 'B:1', tags: ['a'] },
    { snapshot: '2026-03-02', cursor: '2026-03-01T05' },
  );
  assert.equal(f, {
    tenant: 'acme',
    module_name: 'policy',
    transaction_name: 'create',
    ts: { $gte: query.start, $lt: '2026-03-01T05', $lte: '2026-03-02' },
    business_code: 'B:1',
    tags: { $in: ['a'] },
  });
  assert.equal(
    (recordFilter('acme', query, { cursor: '2099' }).ts as Record<string, string>).$lt,
    query.end,
    'a cursor never widens the range',
  );
});

test.run();
