import { createHash } from 'node:crypto';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import {
  type LedgerEvent,
  ledgerDecider,
  ledgerStream,
  type RecordAudit,
} from '../../../domain/audit/ledger.decider.ts';
import {
  canonicalRecord,
  chainHash,
  GENESIS_HASH,
  type RecordFields,
  recordOf,
  seqKey,
  tsKey,
} from '../../../domain/audit/record.ts';
import { fold } from '../../../domain/core/decider.ts';

const test = suite('audit ledger decider and chain');
const T0 = '2026-01-01T00:00:00.000Z';
const T1 = '2026-01-01T00:00:01.000Z';

const fields = (o: Partial<RecordFields> = {}): RecordFields => ({
  module_name: 'policy',
  transaction_name: 'create',
  transaction_vendor: 'v1',
  business_code: 'PolicyNo:1',
  client_ip: '10.0.0.1',
  new_data: '{"a":1}',
  old_data: '',
  warning_type: 'INFO',
  trace_id: '',
  tags: [],
  compress_type: 'none',
  ...o,
});
const record = (id: string, now: string, o: Partial<RecordFields> = {}): RecordAudit => ({
  type: 'RecordAudit',
  id,
  tenant: 'acme',
  fields: fields(o),
  now,
});

const decideAll = (commands: RecordAudit[], given: LedgerEvent[] = []) => {
  let state = fold(ledgerDecider, given);
  const out: LedgerEvent[] = [];
  for (const c of commands) {
    for (const e of ledgerDecider.decide(c, state)) {
      out.push(e);
      state = ledgerDecider.evolve(state, e);
    }
  }
  return { events: out, state };
};

test('one chain stream per tenant', () => {
  assert.is(ledgerStream('acme'), 'auditLedger-acme.chain');
});

test('records get gapless sequences from 1 and hashes chained from the genesis hash', () => {
  const { events, state } = decideAll([record('r1', T0), record('r2', T0), record('r3', T1)]);
  assert.equal(
    events.map((e) => e.data.sequence),
    [1, 2, 3],
  );
  let previous = GENESIS_HASH;
  for (const e of events) {
    const expected = createHash('sha256')
      .update(Buffer.from(previous, 'hex'))
      .update(canonicalRecord(recordOf(e.data)), 'utf8')
      .digest('hex');
    assert.is(e.data.hash, expected);
    assert.is(chainHash(previous, recordOf(e.data)), expected);
    previous = e.data.hash;
  }
  assert.equal(state, { sequence: 3, hash: events[2]!.data.hash, time: T1 });
});

test("a record's time never goes back along the chain (a clock stepping back)", () => {
  const { events } = decideAll([record('r1', T1), record('r2', T0)]);
  assert.equal(
    events.map((e) => e.data.time),
    [T1, T1],
  );
});

test('the canonical text has exactly the stored fields, keys sorted; any change changes the hash', () => {
  const { events } = decideAll([record('r1', T0, { tags: ['b', 'a'] })]);
  const data = events[0]!.data;
  const text = canonicalRecord({ ...recordOf(data), extra: 'ignored' } as never);
  assert.equal(Object.keys(JSON.parse(text)), [...Object.keys(JSON.parse(text))].sort());
  assert.not.ok(text.includes('hash'));
  assert.not.ok(text.includes('ignored'));
  for (const change of [
    { business_code: 'PolicyNo:2' },
    { tags: ['a', 'b'] },
    { sequence: 2 },
    { time: T1 },
    { tenant: 'beta' },
  ]) {
    assert.is.not(chainHash(GENESIS_HASH, { ...recordOf(data), ...change }), data.hash, JSON.stringify(change));
  }
});

test('sortable keys: time then sequence', () => {
  assert.is(seqKey(42), '000000000042');
  assert.is(tsKey(T0, 7), `${T0}|000000000007`);
  assert.ok(tsKey(T0, 10) > tsKey(T0, 9));
  assert.ok(T0 <= tsKey(T0, 1) && tsKey(T0, 1) < T1, 'a start bound is inclusive, an end bound exclusive');
});

test('idempotency key and fingerprint travel in the event, outside the hashed record', () => {
  const { events } = decideAll([{ ...record('r1', T0), idempotency_key: 'k1', fingerprint: 'f' }]);
  assert.is(events[0]!.data.idempotency_key, 'k1');
  assert.is(events[0]!.data.hash, chainHash(GENESIS_HASH, recordOf(events[0]!.data)));
});

test.run();
