// What one delivered event costs the bridge: store calls, commits and log pages per event, counted at the
// ports (spec/bench/store-counters.ts) while N events are put over HTTP and delivered to a loopback
// receiver by one all-in-one platform in this process (the delivery benchmark's fixture set-up).
// Run: node --import tsx spec/bench/delivery-cost.ts [events=400] [concurrency=16]
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pino } from 'pino';
import { loadConfig } from '../../infra/core/config.ts';
import { startPlatform } from '../../infra/main.ts';
import { openStores } from '../../infra/stores.ts';
import { caughtUp } from '../core/eventually.ts';
import { publisherToken, setupDeliveryTenant } from '../http/bridge/fixtures/delivery-setup.ts';
import { timeSqlStatements } from './sql-timing.ts';
import { countingStores } from './store-counters.ts';

const EVENTS = Number(process.argv[2] ?? 400);
const CONCURRENCY = Number(process.argv[3] ?? 16);
const PUT = '/api/platform/platform-pub/eventBridge/event/v1/putEvent';

const seen = new Set<string>();
let waiting: (() => void) | undefined;
const receiver = createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    seen.add(String(req.headers['x-delivery-id']));
    waiting?.();
    res.end('{"ok":true}');
  });
});
await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
const dir = mkdtempSync(path.join(tmpdir(), 'delivery-cost-'));
const config = loadConfig({
  PORT: '0',
  HOST: '127.0.0.1',
  PUBLIC_BASE_URL: 'http://127.0.0.1:0',
  DATA_DIR: dir,
  LOG_LEVEL: 'silent',
  SERVICE_REGISTRY: `receiver=http://127.0.0.1:${(receiver.address() as AddressInfo).port}`,
  OUTBOUND_ALLOW: '127.0.0.1',
  ...(process.env.LOG_GATHER_MS !== undefined && { LOG_GATHER_MS: process.env.LOG_GATHER_MS }),
  ...(process.env.LOG_SETTLE_MS !== undefined && { LOG_SETTLE_MS: process.env.LOG_SETTLE_MS }),
  ...(process.env.DELIVERY_CONCURRENCY !== undefined && { DELIVERY_CONCURRENCY: process.env.DELIVERY_CONCURRENCY }),
});
const counted = countingStores(await openStores(config));
// COUNT_SQL=1: also every SQLite statement's count and time (both stores' connections in this process)
const sql = process.env.COUNT_SQL === '1' ? timeSqlStatements() : undefined;
const platform = await startPlatform({
  config,
  log: pino({ level: 'silent' }),
  services: ['identity', 'bridge'],
  stores: counted.stores,
});
await setupDeliveryTenant(platform);
const token = await publisherToken(platform);

let seq = 0;
const put = async () => {
  const res = await fetch(`${platform.url}${PUT}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      id: `cost-${++seq}`,
      source: 'shop:checkout',
      type: 'shop:Order:Placed',
      time: '2026-03-01T10:00:00',
      dataContentType: 'application/json',
      eventBusName: 'orders',
      data: { n: seq },
    }),
  });
  if (res.status !== 200) throw new Error(`putEvent ${res.status}: ${await res.text()}`);
  await res.text();
};
// a few events first, so that caches and the router's compiled matcher are warm
for (let i = 0; i < 20; i++) await put();
await new Promise<void>((r) => {
  waiting = () => seen.size >= 20 && r();
  waiting();
});
await caughtUp(...platform.runners, ...platform.workers);
counted.reset();
sql?.reset();
seen.clear();
const done = new Promise<void>((r) => (waiting = () => seen.size >= EVENTS && r()));
let next = 0;
await Promise.all(
  Array.from({ length: CONCURRENCY }, async () => {
    while (next++ < EVENTS) await put();
  }),
);
await done;
await caughtUp(...platform.runners, ...platform.workers);
const rows = Object.entries(counted.counts).sort(([a], [b]) => (a < b ? -1 : 1));
console.log(`per delivered event (${EVENTS} events, ${CONCURRENCY} concurrent puts):`);
for (const [k, n] of rows) console.log(`  ${k.padEnd(32)} ${(n / EVENTS).toFixed(2)}`);
if (sql !== undefined) {
  console.log('SQLite statements per delivered event (count, µs), by total time:');
  for (const r of sql.rows().slice(0, 40))
    console.log(
      `  ${(r.count / EVENTS).toFixed(2).padStart(6)} ${((r.micros / EVENTS) | 0).toString().padStart(6)} µs  ${r.sql}`,
    );
}
await platform.stop();
receiver.close();
rmSync(dir, { recursive: true, force: true });
