import { spawn } from 'node:child_process';
import path from 'node:path';
import Database from 'better-sqlite3';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { RECORDS_PROJECTION } from '../../../projections/audit/records.projection.ts';
import { readCheckpoint } from '../../../projections/core/checkpoints.ts';
import { type AuditPlatform, aQuery, aRecord, startAuditPlatform, V3 } from './audit-harness.ts';

// A new index on the audit projection (a version bump) is built by `platform rebuild`
// (infra/cli/rebuild.ts, in its own process as a deployment runs it: rebuild-child.ts) in a new generation
// beside the live one, while the serving platform keeps answering queries from the live one.
const test = suite('audit records: rebuild with a new index while queries answer');
let p: AuditPlatform;

test.before(async () => {
  p = await startAuditPlatform();
});
test.after(async () => {
  await p.stop();
});

test('queries answer in full during the rebuild, and from the new generation (with its index) after it', async () => {
  const token = await p.token('acme');
  await p.metadata(token, 'policy', ['createPolicy']);
  let last = 0;
  for (let i = 0; i < 200; i += 50) {
    const answers = await Promise.all(
      Array.from({ length: 50 }, (_, j) =>
        p.call('POST', `${V3}/log/sync`, { token, body: aRecord({ business_code: `R:${i + j}` }) }),
      ),
    );
    last = Math.max(last, ...answers.map((a) => a.body.sequence as number));
  }
  await p.projected(token, last);
  const query = () => p.call('POST', `${V3}/log/query-many`, { token, body: aQuery({ page_num: 2, return_size: 50 }) });
  const expected = (await query()).body;
  assert.is(expected.total, 200);

  const child = spawn(
    process.execPath,
    ['--import', 'tsx', path.join(import.meta.dirname, 'rebuild-child.ts'), p.config.dataDir],
    { stdio: ['pipe', 'pipe', 'pipe'] },
  );
  let out = '';
  let err = '';
  child.stderr.on('data', (d) => (err += d));
  const line = (what: string) =>
    new Promise<string>((resolve, reject) => {
      const check = () => {
        const m = new RegExp(`^${what}(.*)$`, 'm').exec(out);
        if (m) resolve(m[1]!.trim());
      };
      child.stdout.on('data', (d) => {
        out += d;
        check();
      });
      child.once('exit', () => (check(), reject(new Error(`rebuild exited before ${what}: ${err.slice(-2000)}`))));
      check();
    });
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));

  await line('PAGE');
  // the rebuild is under way (its next page waits, holding a read-store write transaction): queries answer in full
  for (let i = 0; i < 3; i++) {
    const r = await query();
    assert.is(r.status, 200);
    assert.equal(r.body, expected, 'the live generation answers in full while the new one is built');
  }
  assert.equal((await readCheckpoint(p.platform.stores.readStore, RECORDS_PROJECTION))?.generation, 1);
  child.stdin.write('GO\n');
  const done = JSON.parse(await line('DONE'));
  assert.is(await exited, 0);
  assert.is(done.generation, 2);
  const checkpoint = await readCheckpoint(p.platform.stores.readStore, RECORDS_PROJECTION);
  assert.equal([checkpoint?.version, checkpoint?.generation], [2, 2]);

  assert.equal((await query()).body, expected, 'the new generation answers the same');
  const v = await p.call('GET', `${V3}/verify`, { token });
  assert.is(v.body.valid, true, JSON.stringify(v.body));
  const db = new Database(path.join(p.config.dataDir, 'read-models.sqlite'), { readonly: true });
  try {
    const indexes = db
      .prepare(`SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = ?`)
      .pluck()
      .all(`coll_${RECORDS_PROJECTION}__records__g2`) as string[];
    assert.ok(indexes.includes(`ix:${RECORDS_PROJECTION}__records__g2:by_business_code`), indexes.join(', '));
    assert.ok(indexes.includes(`ix:${RECORDS_PROJECTION}__records__g2:by_query`));
  } finally {
    db.close();
  }
});

test.run();
