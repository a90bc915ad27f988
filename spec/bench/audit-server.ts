// A server for spec/bench/audit.bench.ts, in its own process (a core to itself; the load generator does not
// share its event loop). Prints `READY <json>` ({url, token, pid}) when it listens; stops on SIGTERM.
//   write-api            a fresh platform (identity + audit metadata seeded), served without workers: an
//                        API process of a scaled-out deployment (the projections run elsewhere)
//   write-all            the same with every projection and worker in the process (npm start)
//   read <DATA_DIR>      the platform without workers over a store seeded by audit-seed.ts
//   bare                 express with its JSON parser: log/sync answers {id, sequence, hash, time},
//                        log/query-many a fixed page of 20 records of the seeded shape
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import express from 'express';
import { pino } from 'pino';
import { startHttpServer } from '../../http/core/server.ts';
import { loadConfig } from '../../infra/core/config.ts';
import { startPlatform } from '../../infra/main.ts';
import { openStores } from '../../infra/stores.ts';
import { seedPlatform, benchToken as token } from './audit-seed.ts';

const [kind, dataDirArg] = process.argv.slice(2);
const stops: Array<() => Promise<void>> = [];
process.once('SIGTERM', () => {
  void Promise.all(stops.map((s) => s())).finally(() => process.exit(0));
});
const V3 = '/api/platform/audit/1.0/audit/v3';

if (kind === 'write-api' || kind === 'write-all' || kind === 'read') {
  const fresh = kind !== 'read';
  const dir = fresh ? mkdtempSync(path.join(tmpdir(), 'bench-audit-')) : dataDirArg!;
  if (fresh) await seedPlatform(dir, ['audit:write', 'audit:read', 'audit:admin']);
  const config = loadConfig({
    PORT: '0',
    HOST: '127.0.0.1',
    PUBLIC_BASE_URL: 'http://127.0.0.1:0',
    DATA_DIR: dir,
    LOG_LEVEL: 'silent',
  });
  const platform = await startPlatform({
    config,
    log: pino({ level: 'silent' }),
    services: ['identity', 'audit'],
    workers: kind === 'write-all',
    stores: await openStores(config),
  });
  stops.push(async () => {
    await platform.stop();
    if (fresh) rmSync(dir, { recursive: true, force: true });
  });
  const scope = kind === 'read' ? 'audit:read' : 'audit:write';
  console.log(
    `READY ${JSON.stringify({ url: platform.publicBaseUrl, token: await token(platform.publicBaseUrl, scope), pid: process.pid })}`,
  );
} else if (kind === 'bare') {
  const app = express();
  app.disable('x-powered-by');
  app.use(express.json({ limit: '1mb' }));
  let n = 0;
  const record = (i: number) => ({
    id: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
    tenant: 'bench',
    sequence: i,
    time: new Date(Date.UTC(2026, 0, 1) + i * 8640).toISOString(),
    module_name: 'm1',
    transaction_name: 't1',
    transaction_vendor: 'bench-vendor',
    business_code: `PolicyNo:P-${i}`,
    client_ip: '10.1.2.3',
    new_data: JSON.stringify({ policy: `P-${i}`, premium: 120, status: 'ACTIVE' }),
    old_data: JSON.stringify({ policy: `P-${i}`, premium: 100, status: 'DRAFT' }),
    warning_type: 'INFO',
    trace_id: `trace-${i}`,
    tags: ['bench'],
    compress_type: 'none',
    hash: 'a'.repeat(64),
  });
  const page = {
    total: 111,
    return_size: 20,
    page_num: 1,
    records: Array.from({ length: 20 }, (_, i) => record(1000 + i)),
  };
  app.post(`${V3}/log/sync`, (req, res) => {
    if (typeof (req.body as { transaction_name?: unknown }).transaction_name !== 'string') return res.status(400).end();
    n += 1;
    res.json({ id: String(n), sequence: n, hash: 'a'.repeat(64), time: new Date().toISOString() });
  });
  app.post(`${V3}/log/query-many`, (req, res) => {
    if (typeof (req.body as { module_name?: unknown }).module_name !== 'string') return res.status(400).end();
    res.json(page);
  });
  const server = await startHttpServer(app, { port: 0, host: '127.0.0.1' });
  stops.push(() => server.close(1000));
  console.log(`READY ${JSON.stringify({ url: server.url, token: 'none', pid: process.pid })}`);
} else {
  console.error('usage: audit-server.ts write-api|write-all|read <DATA_DIR>|bare');
  process.exit(2);
}
