import path from 'node:path';
import Database from 'better-sqlite3';
import { parse } from 'csv-parse';
import ExcelJS from 'exceljs';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { chainHash, recordOf } from '../../../domain/audit/record.ts';
import { type AuditPlatform, aQuery, aRecord, startAuditPlatform, V3 } from './audit-harness.ts';

// Tamper evidence, export and retention end to end: verify recomputes the chain from
// the log and from the query store; the tests alter both SQLite files directly.
const test = suite('audit integrity: verify, export, retention');
let p: AuditPlatform;
let acme: string;
let beta: string;

const sync = (body: unknown, token = acme) => p.call('POST', `${V3}/log/sync`, { token, body });
const verify = async (query = '', token = acme) => (await p.call('GET', `${V3}/verify${query}`, { token })).body;
const RECORDS_TABLE = '"coll_audit.records__records__g1"';
const files = () => ({
  events: path.join(p.config.dataDir, 'events.sqlite'),
  reads: path.join(p.config.dataDir, 'read-models.sqlite'),
});
const withDb = <T>(file: string, fn: (db: Database.Database) => T): T => {
  const db = new Database(file);
  try {
    return fn(db);
  } finally {
    db.close();
  }
};

async function writeMany(token: string, n: number, o: Record<string, unknown> = {}): Promise<number> {
  let last = 0;
  for (let i = 0; i < n; i += 100) {
    const answers = await Promise.all(
      Array.from({ length: Math.min(100, n - i) }, (_, j) =>
        sync(aRecord({ business_code: `Export:${i + j}`, ...o }), token),
      ),
    );
    for (const a of answers) {
      assert.is(a.status, 200, JSON.stringify(a.body));
      last = Math.max(last, a.body.sequence);
    }
  }
  await p.projected(token, last);
  return last;
}

test.before(async () => {
  p = await startAuditPlatform();
  acme = await p.token('acme');
  beta = await p.token('beta');
  await p.metadata(acme, 'policy', ['createPolicy']);
  await p.metadata(beta, 'policy', ['createPolicy']);
});
test.after(async () => {
  await p.stop();
});

test('log/export streams every matching record, newest first, as CSV or XLSX', async () => {
  const last = await writeMany(acme, 1200);
  const res = await fetch(`${p.base}${V3}/log/export?format=csv`, {
    method: 'POST',
    headers: { authorization: `Bearer ${acme}`, 'content-type': 'application/json' },
    body: JSON.stringify(aQuery()),
  });
  assert.is(res.status, 200);
  assert.match(res.headers.get('content-type') ?? '', /text\/csv/);
  const bytes = Buffer.from(await res.arrayBuffer());
  const rows = await new Promise<string[][]>((resolve, reject) =>
    parse(bytes, {}, (err, r: string[][]) => (err ? reject(err) : resolve(r))),
  );
  assert.equal(rows[0]!.slice(0, 5), ['sequence', 'time', 'id', 'tenant', 'module_name']);
  assert.is(rows.length, 1201);
  assert.equal(
    rows.slice(1).map((r) => Number(r[0])),
    Array.from({ length: 1200 }, (_, i) => last - i),
  );
  const newest = (
    await p.call('POST', `${V3}/log/query-many`, { token: acme, body: aQuery({ page_num: 1, return_size: 1 }) })
  ).body.records[0];
  const header = rows[0]!;
  const row = Object.fromEntries(header.map((h, i) => [h, rows[1]![i]]));
  assert.equal(row, { ...newest, sequence: String(newest.sequence), tags: JSON.stringify(newest.tags) });

  const xlsx = await fetch(`${p.base}${V3}/log/export?format=xlsx`, {
    method: 'POST',
    headers: { authorization: `Bearer ${acme}`, 'content-type': 'application/json' },
    body: JSON.stringify(aQuery({ business_code: 'Export:7' })),
  });
  assert.is(xlsx.status, 200);
  const book = new ExcelJS.Workbook();
  await book.xlsx.load(await xlsx.arrayBuffer());
  const sheet = book.worksheets[0]!;
  assert.is(sheet.rowCount, 2);
  assert.is(sheet.getRow(2).getCell(8).value, 'Export:7');

  const bad = await p.call('POST', `${V3}/log/export?format=pdf`, { token: acme, body: aQuery() });
  assert.is(bad.status, 400);
  assert.is(
    (await p.call('POST', `${V3}/log/export`, { token: acme, body: aQuery({ page_num: 1 }) })).body.details[0].field,
    'page_num',
  );
});

test('verify: a valid chain, then a record altered in the query store and one in the log each fail at their sequence', async () => {
  const clean = await verify();
  assert.is(clean.valid, true, JSON.stringify(clean));
  assert.equal(
    [clean.from_sequence, clean.to_sequence, clean.log.checked, clean.read_store.checked],
    [1, clean.head_sequence, clean.head_sequence, clean.head_sequence],
  );

  // the query store: a business code changed in place
  withDb(files().reads, (db) =>
    db
      .prepare(
        `UPDATE ${RECORDS_TABLE} SET doc = json_set(doc, '$.business_code', 'forged') WHERE json_extract(doc, '$.tenant') = 'acme' AND json_extract(doc, '$.sequence') = 3`,
      )
      .run(),
  );
  const storeAltered = await verify();
  assert.is(storeAltered.valid, false);
  assert.equal(
    [storeAltered.log.status, storeAltered.read_store.status, storeAltered.read_store.first_bad_sequence],
    ['valid', 'altered', 3],
  );
  assert.is((await verify('?from_sequence=4&to_sequence=50')).valid, true, 'a range without it is valid');

  // a forger who also rewrites the hashes of the store's chain is still caught: the log is the anchor
  withDb(files().reads, (db) => {
    const two = JSON.parse(
      db
        .prepare(
          `SELECT doc FROM ${RECORDS_TABLE} WHERE json_extract(doc, '$.tenant') = 'acme' AND json_extract(doc, '$.sequence') = 2`,
        )
        .pluck()
        .get() as string,
    );
    const three = JSON.parse(
      db
        .prepare(
          `SELECT doc FROM ${RECORDS_TABLE} WHERE json_extract(doc, '$.tenant') = 'acme' AND json_extract(doc, '$.sequence') = 3`,
        )
        .pluck()
        .get() as string,
    );
    three.hash = chainHash(two.hash, recordOf(three));
    db.prepare(`UPDATE ${RECORDS_TABLE} SET doc = ? WHERE id = ?`).run(JSON.stringify(three), three.id);
  });
  const rehashed = await verify('?from_sequence=3&to_sequence=3');
  assert.equal([rehashed.read_store.status, rehashed.read_store.first_bad_sequence], ['altered', 3]);

  // the log: the event store file, changed under the running platform
  withDb(files().events, (db) =>
    db
      .prepare(
        `UPDATE events SET data = json_set(data, '$.client_ip', '6.6.6.6') WHERE stream = 'auditLedger-acme.chain' AND revision = 4`,
      )
      .run(),
  );
  const logAltered = await verify();
  assert.equal([logAltered.log.status, logAltered.log.first_bad_sequence], ['altered', 5]);
  assert.match(logAltered.log.reason, /hash/);
  assert.equal([logAltered.read_store.status, logAltered.read_store.first_bad_sequence], ['altered', 3]);
  // a renumbered event is caught as well
  withDb(files().events, (db) =>
    db
      .prepare(
        `UPDATE events SET data = json_set(data, '$.sequence', 99) WHERE stream = 'auditLedger-acme.chain' AND revision = 9`,
      )
      .run(),
  );
  const renumbered = await verify('?from_sequence=6&to_sequence=20');
  assert.equal([renumbered.log.status, renumbered.log.first_bad_sequence], ['altered', 10]);
});

test('verify: records missing from the query store, a range past the head, a bad range', async () => {
  const last = await writeMany(beta, 10);
  withDb(files().reads, (db) =>
    db
      .prepare(
        `DELETE FROM ${RECORDS_TABLE} WHERE json_extract(doc, '$.tenant') = 'beta' AND json_extract(doc, '$.sequence') IN (4, 5, 8)`,
      )
      .run(),
  );
  const r = await verify('', beta);
  assert.is(r.valid, false);
  assert.equal([r.log.status, r.read_store.status, r.read_store.first_bad_sequence], ['valid', 'missing', 4]);
  assert.equal(r.read_store.missing, [
    { from_sequence: 4, to_sequence: 5 },
    { from_sequence: 8, to_sequence: 8 },
  ]);
  const past = await verify(`?from_sequence=1&to_sequence=${last + 5}`, beta);
  assert.equal([past.log.status, past.log.first_bad_sequence], ['missing', last + 1]);
  const bad = await p.call('GET', `${V3}/verify?from_sequence=5&to_sequence=2`, { token: beta });
  assert.is(bad.status, 400);
  assert.is(bad.body.code, 'VERIFY.RANGE_INVALID');
  assert.is((await p.call('GET', `${V3}/verify?from_sequence=0`, { token: beta })).status, 400);
  // put them back, as a rebuild would: verify passes again
  withDb(files().events, (db) => {
    const rows = db
      .prepare(`SELECT data FROM events WHERE stream = 'auditLedger-beta.chain' AND revision IN (3, 4, 7)`)
      .pluck()
      .all() as string[];
    withDb(files().reads, (reads) => {
      for (const data of rows) {
        const d = JSON.parse(data);
        const doc = {
          ...recordOf(d),
          hash: d.hash,
          ts: `${d.time}|${String(d.sequence).padStart(12, '0')}`,
          seq: String(d.sequence).padStart(12, '0'),
        };
        reads.prepare(`INSERT INTO ${RECORDS_TABLE} (id, doc) VALUES (?, ?)`).run(d.id, JSON.stringify(doc));
      }
    });
  });
  assert.is((await verify('', beta)).valid, true);
});

test('retention: a daily job retires old records from the query store only; verify passes and names the retired range', async () => {
  const before = (await verify('', beta)).head_sequence as number;
  p.clock.advance(3 * 86_400_000);
  let tenantToken = await p.freshToken('beta');
  const recent = await writeMany(tenantToken, 3, { business_code: 'Recent' });
  const put = await p.call('PUT', `${V3}/retention`, { token: tenantToken, body: { days: 2 } });
  assert.is(put.status, 200, JSON.stringify(put.body));
  assert.is(put.body.days, 2);
  // setting a retention makes a run due at once: the work engine picks it up
  const retired = await p.eventually(async () => {
    const r = (await p.call('GET', `${V3}/retention`, { token: tenantToken })).body;
    return r.retired_through_sequence > 0 ? r : undefined;
  }, 'the first retention run');
  assert.is(retired.retired_through_sequence, before);
  await p.eventually(
    async () => ((await verify('', tenantToken)).read_store.retired?.to_sequence === before ? true : undefined),
    'the records projection removed them',
  );
  const q = await p.call('POST', `${V3}/log/query-many`, { token: tenantToken, body: aQuery({ page_num: 1 }) });
  assert.equal(
    q.body.records.map((r: { sequence: number }) => r.sequence),
    [recent, recent - 1, recent - 2],
  );
  const v = await verify('', tenantToken);
  assert.is(v.valid, true, JSON.stringify(v));
  assert.equal(v.read_store.retired, { from_sequence: 1, to_sequence: before });
  assert.is(v.log.checked, recent, 'the log keeps every record');

  // a day later nothing new is old enough; three days later the rest goes (the next daily run)
  const engine = p.audit().engines.find((e) => e.name === 'audit.retention')!;
  // the engine polls on its own as well: a run is seen by its time, whichever of the two took it
  const nextRun = async (label: string) => {
    const since = p.clock.now().toISOString();
    return p.eventually(async () => {
      await engine.runDue();
      const r = (await p.call('GET', `${V3}/retention`, { token: tenantToken })).body;
      return r.last_run_at !== null && r.last_run_at >= since ? r : undefined;
    }, label);
  };
  p.clock.advance(86_400_000);
  tenantToken = await p.freshToken('beta');
  assert.is((await nextRun('the run a day later')).retired_through_sequence, before);
  p.clock.advance(2 * 86_400_000);
  tenantToken = await p.freshToken('beta');
  await nextRun('the run three days later');
  await p.eventually(
    async () => ((await verify('', tenantToken)).read_store.retired?.to_sequence === recent ? true : undefined),
    'everything retired',
  );
  assert.is(
    (await p.call('POST', `${V3}/log/query-many`, { token: tenantToken, body: aQuery({ page_num: 1 }) })).body.total,
    0,
  );
  assert.is((await verify('', tenantToken)).valid, true);

  // keep forever again; bad values are 400
  assert.is((await p.call('PUT', `${V3}/retention`, { token: tenantToken, body: { days: null } })).body.days, null);
  for (const days of [0, 1.5, 'x', 36_501]) {
    const r = await p.call('PUT', `${V3}/retention`, { token: tenantToken, body: { days } });
    assert.is(r.status, 400, String(days));
  }
  assert.is(
    (await p.call('GET', `${V3}/retention`, { token: await p.freshToken('beta', ['audit:read']) })).status,
    403,
  );
});

test.run();
