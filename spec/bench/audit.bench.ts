// `npm run bench` (section "audit"): the audit log's figures, each beside its baseline in the same
// run. Servers run in their own processes (spec/bench/audit-server.ts), one at a time; this process only
// generates load. Sizes: BENCH_AUDIT_RECORDS (default 1,000,000: the seeded store of the query, export and
// verify figures), BENCH_AUDIT_SECONDS (5: each write run), BENCH_AUDIT_CONCURRENCY (16), BENCH_AUDIT_QUERIES
// (2,000 per latency figure), BENCH_AUDIT_QUERY_WARMUP (2,000 before it). Run alone: npm run bench -- audit
import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { BENCH_ADMIN, benchToken } from './audit-seed.ts';
import { spawnBenchServer } from './bench-server.ts';
import { type Latency, portalBesideDirect } from './portal-proxy.ts';
import { closedLoops, perSecond, printRow, printSection, quantile, warmUp, warmUpText } from './report.ts';

const RECORDS = Number(process.env.BENCH_AUDIT_RECORDS ?? 1_000_000);
const SECONDS = Number(process.env.BENCH_AUDIT_SECONDS ?? 5);
const CONCURRENCY = Number(process.env.BENCH_AUDIT_CONCURRENCY ?? 16);
const QUERIES = Number(process.env.BENCH_AUDIT_QUERIES ?? 2000);
// queries before a latency figure: the JIT settled and the index pages in cache, as in a server that has
// been up a while (the first few thousand queries' tail is the warm-up's, not the service's)
const QUERY_WARMUP = Number(process.env.BENCH_AUDIT_QUERY_WARMUP ?? 2000);
const V3 = '/api/platform/audit/1.0/audit/v3';
const DAY_MS = 86_400_000;
const EXPORTED = Math.ceil(RECORDS / 10); // every 10th seeded record is (m0, t0)

type Ready = { url: string; token: string; pid: number };
const start = (...args: string[]) =>
  spawnBenchServer<Ready>([path.join(import.meta.dirname, 'audit-server.ts'), ...args], `audit ${args[0]} server`);
const status = (pid: number, field: 'VmRSS' | 'VmHWM') => {
  const m = new RegExp(`${field}:\\s+(\\d+) kB`).exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) / 1024 : NaN;
};

/** Linux: writing 5 to clear_refs resets the process's peak RSS (VmHWM) to its current RSS */
const resetPeak = (pid: number): boolean => {
  try {
    writeFileSync(`/proc/${pid}/clear_refs`, '5');
    return true;
  } catch {
    return false;
  }
};

// node:http with one keep-alive socket per loop: the client's own cost per request stays far below the
// server's (fetch adds about a millisecond and its garbage to every latency sample)
const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });
function post(url: string, token: string, body: string): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      url,
      {
        method: 'POST',
        agent,
        headers: {
          authorization: `Bearer ${token}`,
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(body),
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

const root = path.resolve(import.meta.dirname, '../..');
let built: boolean | undefined;
/**
 * The read server as production runs it: `platform start --services identity,audit --no-workers` from the
 * compiled dist/ (built here first; the Dockerfile and `npm run build` do the same), so its memory is the
 * service's and not a development loader's. Falls back to the sources when the build fails.
 */
async function startProduction(dir: string): Promise<{ ready: Ready & { compiled: boolean }; stop(): Promise<void> }> {
  built ??=
    spawnSync(
      process.execPath,
      [path.join(root, 'node_modules/typescript/bin/tsc'), '-p', path.join(root, 'tsconfig.build.json')],
      { cwd: root, stdio: 'ignore' },
    ).status === 0;
  const env = {
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? '',
    PORT: '0',
    HOST: '127.0.0.1',
    PUBLIC_BASE_URL: 'http://127.0.0.1:0',
    DATA_DIR: dir,
    LOG_LEVEL: 'silent',
    ...(built ? {} : { PLATFORM_SOURCES: '1' }),
  };
  // ready once the start banner has printed the public base URL and which code runs
  const banner = (out: string) => {
    const m = /public base URL : (\S+)[\s\S]*code {12}: (compiled)?/.exec(out);
    return m ? { url: m[1]!, compiled: m[2] !== undefined } : undefined;
  };
  const server = await spawnBenchServer(
    [path.join(root, 'bin/platform.js'), 'start', '--services', 'identity,audit,portal', '--no-workers'],
    'platform start',
    { tsx: false, env, cwd: root, ready: banner },
  );
  const { url, compiled } = server.ready;
  return { ready: { url, token: await benchToken(url, 'audit:read'), pid: server.pid, compiled }, stop: server.stop };
}

let seq = 0;
const aRecord = () =>
  JSON.stringify({
    transaction_name: 't0',
    transaction_vendor: 'bench-vendor',
    business_code: `PolicyNo:W-${++seq}`,
    client_ip: '10.1.2.3',
    new_data: JSON.stringify({
      policy: `W-${seq}`,
      premium: 120,
      status: 'ACTIVE',
      holder: { name: 'A. Bench', city: 'Zurich' },
    }),
    old_data: JSON.stringify({ policy: `W-${seq}`, premium: 100, status: 'DRAFT' }),
    tags: ['bench'],
  });

/** CONCURRENCY keep-alive loops for SECONDS writing records; every answer must be 200 */
async function writes(server: Ready): Promise<{ rate: number; p50: number; p99: number; count: number }> {
  const one = async () => {
    const started = performance.now();
    const r = await post(`${server.url}${V3}/log/sync`, server.token, aRecord());
    if (r.status !== 200) throw new Error(`log/sync answered ${r.status}: ${r.text}`);
    return performance.now() - started;
  };
  await warmUp(() => closedLoops(CONCURRENCY, 1, one));
  const t0 = performance.now();
  const latencies = await closedLoops(CONCURRENCY, SECONDS, one);
  const ms = performance.now() - t0;
  latencies.sort((a, b) => a - b);
  return {
    rate: perSecond(latencies.length, ms),
    p50: quantile(latencies, 0.5),
    p99: quantile(latencies, 0.99),
    count: latencies.length,
  };
}

/** `count` queries one after another (latency, not throughput); every answer must be 200 with records */
async function latencies(
  server: Ready,
  body: () => string,
  count: number,
): Promise<{ p50: number; p99: number; mean: number }> {
  const one = async () => {
    const started = performance.now();
    const r = await post(`${server.url}${V3}/log/query-many`, server.token, body());
    if (r.status !== 200 || !r.text.includes('"records":[{'))
      throw new Error(`query-many answered ${r.status}: ${r.text.slice(0, 300)}`);
    return performance.now() - started;
  };
  for (let i = 0; i < Math.min(QUERY_WARMUP, count); i++) await one();
  const all: number[] = [];
  for (let i = 0; i < count; i++) all.push(await one());
  const mean = all.reduce((a, b) => a + b, 0) / all.length;
  all.sort((a, b) => a - b);
  return { p50: quantile(all, 0.5), p99: quantile(all, 0.99), mean };
}

let rnd = 42;
const random = () => (rnd = (rnd * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff;
const days = Math.max(1, Math.floor((RECORDS * 8640) / DAY_MS));
const dayQuery = () => {
  const m = 1 + Math.floor(random() * 9);
  const t = 1 + Math.floor(random() * 9);
  const day = Math.floor(random() * Math.max(1, days - 1));
  const from = Date.UTC(2026, 0, 1) + day * DAY_MS;
  return JSON.stringify({
    module_name: `m${m}`,
    transaction_name: `t${t}`,
    start_time: new Date(from).toISOString(),
    end_time: new Date(from + DAY_MS).toISOString(),
    page_num: 1,
    return_size: 20,
  });
};
// page 500 of 20 needs 10,000 matching records: m1/t1 holds ~0.9 × RECORDS / 81 (smaller runs: its last full page)
const DEEP_PAGE = Math.max(1, Math.min(500, Math.floor((RECORDS * 0.9) / 81 / 20)));
const deepQuery = () =>
  JSON.stringify({
    module_name: 'm1',
    transaction_name: 't1',
    start_time: '2026-01-01T00:00:00.000Z',
    end_time: '2100-01-01T00:00:00.000Z',
    page_num: DEEP_PAGE,
    return_size: 20,
  });
const exportBody = JSON.stringify({
  module_name: 'm0',
  transaction_name: 't0',
  start_time: '2026-01-01T00:00:00.000Z',
  end_time: '2100-01-01T00:00:00.000Z',
});

async function seed(dir: string): Promise<number> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', path.join(import.meta.dirname, 'audit-seed.ts'), dir, String(RECORDS)],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  let out = '';
  child.stdout.on('data', (d) => (out += d));
  await new Promise((resolve) => child.once('exit', resolve));
  const m = /SEEDED (\{.*\})/.exec(out);
  if (!m) throw new Error(`seeding failed: ${out}`);
  return (JSON.parse(m[1]!) as { ms: number }).ms;
}

/** one export kind on a fresh read server: records/s and the server's peak RSS */
async function exportRun(
  dir: string,
  kind: 'scroll' | 'csv' | 'xlsx',
): Promise<{
  rate: number;
  rssBefore: number;
  peak: number;
  bytes: number;
  records: number;
  compiled: boolean;
  reset: boolean;
}> {
  const server = await startProduction(dir);
  try {
    const { url, token, pid } = server.ready;
    // one query first, so the figure is the export's, not the first request's warm-up
    await post(`${url}${V3}/log/query-many`, token, dayQuery());
    // the peak so far is start-up's (and the token request's scrypt): reset it so VmHWM is the export's
    const reset = resetPeak(pid);
    const rssBefore = status(pid, 'VmRSS');
    const t0 = performance.now();
    let records = 0;
    let bytes = 0;
    if (kind === 'scroll') {
      let scrollId = '';
      for (;;) {
        const r = await post(
          `${url}${V3}/log/query-many`,
          token,
          JSON.stringify({ ...JSON.parse(exportBody), return_size: 1000, scroll_id: scrollId }),
        );
        bytes += r.text.length;
        const body = JSON.parse(r.text) as { scroll_id: string; records: unknown[] };
        if (body.records.length === 0) break;
        records += body.records.length;
        scrollId = body.scroll_id;
      }
    } else {
      const res = await fetch(`${url}${V3}/log/export?format=${kind}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: exportBody,
      });
      for await (const chunk of res.body!) bytes += (chunk as Uint8Array).length;
      records = EXPORTED;
    }
    const ms = performance.now() - t0;
    return {
      rate: perSecond(records, ms),
      rssBefore,
      peak: status(pid, 'VmHWM'),
      bytes,
      records,
      compiled: server.ready.compiled,
      reset,
    };
  } finally {
    await server.stop();
  }
}

export async function auditBench(): Promise<void> {
  printSection('audit log');

  // writes over HTTP, each server alone on the machine
  const measure = async (kind: 'bare' | 'write-api' | 'write-all') => {
    const server = await start(kind);
    try {
      return await writes(server.ready);
    } finally {
      await server.stop();
    }
  };
  const bare = await measure('bare');
  const api = await measure('write-api');
  const all = await measure('write-all');
  const base = (figure: number) => ({ name: 'bare express JSON handler', figure });
  const common = `${CONCURRENCY} concurrent keep-alive loops for ${SECONDS} s ${warmUpText()}, one tenant, ~400-byte records (the spec's minimal form with JSON data and tags), the server in its own process. Ours: bearer token verified (RS256), body validated, data checked as JSON, transaction and level looked up (in memory), record chained (SHA-256) and appended to the tenant's ledger with its expected revision, concurrent writes of the tenant group-committed into one append`;
  printRow({
    name: 'audit: log/sync over HTTP, API process (workers elsewhere)',
    figure: api.rate,
    unit: 'records/s',
    baseline: base(bare.rate),
    setup: `${common}; ${api.count} and ${bare.count} requests`,
    goal: { of: 'ratio', op: '>=', value: 0.5 },
  });
  printRow({
    name: 'audit: log/sync p50 latency, API process',
    figure: api.p50,
    unit: 'ms',
    baseline: base(bare.p50),
    setup: `same run`,
  });
  printRow({
    name: 'audit: log/sync p99 latency, API process',
    figure: api.p99,
    unit: 'ms',
    baseline: base(bare.p99),
    setup: `same run`,
  });
  printRow({
    name: 'audit: log/sync over HTTP, all in one process (npm start)',
    figure: all.rate,
    unit: 'records/s',
    baseline: base(bare.rate),
    setup: `as above, with the projections (audit records, stream catalog) in the server process: every record is also projected into the read store while the load runs, the warm-up's records too where the projections have not caught up with them; ${all.count} requests`,
  });
  printRow({
    name: 'audit: log/sync p50 latency, all in one process',
    figure: all.p50,
    unit: 'ms',
    baseline: base(bare.p50),
    setup: 'same run',
  });
  printRow({
    name: 'audit: log/sync p99 latency, all in one process',
    figure: all.p99,
    unit: 'ms',
    baseline: base(bare.p99),
    setup: 'same run',
  });

  // a seeded store: queries, exports, verify
  const dir = mkdtempSync(path.join(tmpdir(), 'bench-audit-read-'));
  try {
    const seedMs = await seed(dir);
    printRow({
      name: `audit: seeding ${RECORDS.toLocaleString('en-US')} records in bulk (not a figure of the service)`,
      figure: perSecond(RECORDS, seedMs),
      unit: 'records/s',
      setup: `tenant bench, 82 (module, transaction) pairs, times 8.64 s apart over ${days} days; the ledger's events appended to the log 5,000 per append and the same events applied to the audit.records projection 5,000 per read-store transaction (its own apply, its two indexes), no HTTP`,
    });

    const bareServer = await start('bare');
    let bareDay: { p50: number; p99: number; mean: number };
    try {
      bareDay = await latencies(bareServer.ready, dayQuery, QUERIES);
    } finally {
      await bareServer.stop();
    }
    const read = await startProduction(dir);
    let day: { p50: number; p99: number; mean: number };
    let deep: { p50: number; p99: number; mean: number };
    let proxied: { portal: Latency; direct: Latency };
    try {
      day = await latencies(read.ready, dayQuery, QUERIES);
      deep = await latencies(read.ready, deepQuery, Math.max(50, Math.floor(QUERIES / 10)));
      proxied = await portalBesideDirect({
        base: read.ready.url,
        user: BENCH_ADMIN,
        token: read.ready.token,
        path: `${V3}/log/query-many`,
        body: () => dayQuery(),
        ok: (text) => text.includes('"records":[{'),
        count: Math.floor(QUERIES / 2),
        warmup: Math.min(QUERY_WARMUP, 500),
      });
    } finally {
      await read.stop();
    }
    const querySetup = `${RECORDS.toLocaleString('en-US')} records in the embedded store (SQLite), \`platform start --services identity,audit --no-workers\` (${read.ready.compiled ? 'compiled' : 'sources through tsx'}), one request at a time over HTTP (keep-alive, node:http client) after ${Math.min(QUERY_WARMUP, QUERIES)} warm-up queries (the same for the baseline), ${QUERIES} queries`;
    printRow({
      name: 'audit: query-many p50, module + transaction + 1-day range, page 1 of 20',
      figure: day.p50,
      unit: 'ms',
      baseline: { name: 'bare express answering a fixed page of 20 records', figure: bareDay.p50 },
      setup: `${querySetup}; a random pair of the 81 and a random day (~${Math.round(RECORDS / 82 / days)} matching records): count + the page along the (tenant, module, transaction, ts) index; token verified per request`,
    });
    printRow({
      name: 'audit: query-many p99, same queries',
      figure: day.p99,
      unit: 'ms',
      baseline: { name: 'bare express', figure: bareDay.p99 },
      setup: `same run; mean ${day.mean.toFixed(2)} ms (bare ${bareDay.mean.toFixed(2)} ms)`,
      goal: { of: 'figure', op: '<=', value: 2 },
    });
    printRow({
      name: `portal: the audit records query p95 through the portal's API call, at ${RECORDS.toLocaleString('en-US')} records`,
      figure: proxied.portal.p95,
      unit: 'ms',
      baseline: {
        name: 'the same query straight to the audit API with a bearer token, p95',
        figure: proxied.direct.p95,
      },
      setup: `${RECORDS.toLocaleString('en-US')} records, the same server (\`--services identity,audit,portal --no-workers\`); the records page's request (module + transaction + 1-day range, page 1 of 20) as \`/portal/api…/log/query-many\` with the session cookie of a real sign-in, alternating with the same query sent direct, ${Math.floor(QUERIES / 2)} each after ${Math.min(QUERY_WARMUP, 500)} warm-up pairs; p50 ${proxied.portal.p50.toFixed(2)} ms against ${proxied.direct.p50.toFixed(2)} ms. Goal: the portal's session lookup and proxying add at most half of the API's own p95`,
      goal: { of: 'ratio', op: '<=', value: 1.5 },
    });
    const deepSetup = `m1/t1 over its whole range (~${Math.round((RECORDS * 0.9) / 81).toLocaleString('en-US')} records): the index walked to offset ${((DEEP_PAGE - 1) * 20).toLocaleString('en-US')}, and the total counted; one at a time`;
    printRow({
      name: `audit: query-many page ${DEEP_PAGE} of 20 p50`,
      figure: deep.p50,
      unit: 'ms',
      baseline: { name: 'page 1 of a 1-day range, p50', figure: day.p50 },
      setup: deepSetup,
    });
    printRow({
      name: `audit: query-many page ${DEEP_PAGE} of 20 p99`,
      figure: deep.p99,
      unit: 'ms',
      baseline: { name: 'page 1 of a 1-day range, p99', figure: day.p99 },
      setup: 'same run',
    });

    // raw SQLite floor of an export: the same rows, same index, parsed
    const db = new Database(path.join(dir, 'read-models.sqlite'), { readonly: true });
    const rawT0 = performance.now();
    let raw = 0;
    for (const json of db
      .prepare(
        `SELECT doc FROM "coll_audit.records__records__g1" WHERE json_extract(doc, '$.tenant') = 'bench' AND json_extract(doc, '$.module_name') = 'm0' ` +
          `AND json_extract(doc, '$.transaction_name') = 't0' AND json_extract(doc, '$.ts') >= '' ORDER BY json_extract(doc, '$.ts') DESC`,
      )
      .pluck()
      .iterate() as Iterable<string>) {
      JSON.parse(json);
      raw += 1;
    }
    const rawRate = perSecond(raw, performance.now() - rawT0);
    db.close();
    for (const kind of ['scroll', 'csv', 'xlsx'] as const) {
      const r = await exportRun(dir, kind);
      const what = kind === 'scroll' ? 'query-many scroll mode, return_size 1,000' : `log/export format=${kind}`;
      const pages = kind === 'scroll' ? 'scroll pages of 1,000' : kind === 'csv' ? 'pages of 500' : 'pages of 250';
      printRow({
        name: `audit: full export of ${r.records.toLocaleString('en-US')} records, ${what}`,
        figure: r.rate,
        unit: 'records/s',
        baseline: {
          name: 'raw better-sqlite3 iteration of the same rows along the same index, JSON-parsed',
          figure: rawRate,
        },
        setup: `${(r.bytes / 1048576).toFixed(1)} MB received; ${pages} along the index with a (time, sequence) cursor, written with backpressure; a fresh read server (no workers) per kind`,
      });
      printRow({
        name: `audit: peak RSS of the server process during the ${kind} export`,
        figure: r.peak,
        unit: 'MB',
        baseline: {
          name: `the same process at rest just before the export (\`platform start --services identity,audit --no-workers\`, ${r.compiled ? 'compiled dist/' : 'sources through tsx'})`,
          figure: r.rssBefore,
        },
        setup: `VmHWM of the server process after the export, ${r.reset ? 'reset to the resident size just before it (/proc/<pid>/clear_refs)' : 'since the process started (clear_refs refused: start-up included)'}: the export itself took ${Math.round(r.peak - r.rssBefore)} MB`,
        ...(kind === 'scroll' ? { goal: { of: 'figure', op: '<', value: 200 } as const } : {}),
      });
    }

    // verify of the whole chain, beside the floor of hashing alone
    const server = await start('read', dir);
    let verifyRate: number;
    let valid: boolean;
    try {
      const t0 = performance.now();
      const res = await fetch(`${server.ready.url}${V3}/verify`, {
        headers: { authorization: `Bearer ${server.ready.token}` },
      });
      const body = (await res.json()) as { valid: boolean; log: { checked: number } };
      verifyRate = perSecond(body.log.checked, performance.now() - t0);
      valid = body.valid;
    } finally {
      await server.stop();
    }
    const text = JSON.stringify({
      business_code: 'PolicyNo:P-1',
      client_ip: '10.1.2.3',
      compress_type: 'none',
      id: 'x'.repeat(36),
      module_name: 'm1',
      new_data: '{"policy":"P-1","premium":101,"status":"ACTIVE"}',
      old_data: '{"policy":"P-1","premium":100,"status":"DRAFT"}',
      sequence: 1,
      tags: ['bench'],
      tenant: 'bench',
      time: '2026-01-01T00:00:00.000Z',
      trace_id: 'trace-1',
      transaction_name: 't1',
      transaction_vendor: 'bench-vendor',
      warning_type: 'INFO',
    });
    const h0 = performance.now();
    let prev = Buffer.alloc(32);
    for (let i = 0; i < RECORDS; i++) prev = createHash('sha256').update(prev).update(text, 'utf8').digest();
    const hashRate = perSecond(RECORDS, performance.now() - h0);
    printRow({
      name: `audit: verify of ${RECORDS.toLocaleString('en-US')} records (the whole chain, log and query store)`,
      figure: verifyRate,
      unit: 'records/s',
      baseline: { name: 'SHA-256 chaining of the same number of canonical records, nothing read', figure: hashRate },
      setup: `one GET verify over HTTP (answer valid: ${valid}); pages of 5,000: the ledger's events read and each hash recomputed, the query store's documents read along (tenant, seq) and hashed on the log's previous hash; two hashes per record`,
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await auditBench();
