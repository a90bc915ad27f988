// `node --import tsx spec/bench/identity-cost.ts [N]`: what one client_credentials token costs the server,
// counted rather than timed. The whole platform runs in this process (startPlatform, identity only, SQLite
// in a temp dir, its projections and workers as `npm start` runs them); N tokens are asked for one after
// the other over HTTP, and everything the process does meanwhile is counted: SQL statements run on each
// SQLite file (by statement), appends, scrypt runs and RSA signatures. The same time spent idle is counted
// too and subtracted, so background polls do not pass for per-token work.

import crypto from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire, syncBuiltinESMExports } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';

type Counts = Map<string, number>;
const counts: Counts = new Map();
const bump = (key: string) => counts.set(key, (counts.get(key) ?? 0) + 1);

// ---- instrumentation (before any platform module is loaded) ----
const require = createRequire(import.meta.url);
const Database = require('better-sqlite3') as typeof import('better-sqlite3');
{
  const probeDb = new Database(':memory:');
  const proto = Object.getPrototypeOf(probeDb.prepare('SELECT 1')) as Record<string, unknown>;
  probeDb.close();
  for (const method of ['all', 'get', 'run', 'iterate']) {
    const original = proto[method] as (...a: unknown[]) => unknown;
    proto[method] = function (this: { source: string; database: { name: string } }, ...args: unknown[]) {
      const file = path.basename(this.database.name);
      const sql = this.source.replace(/\s+/g, ' ').slice(0, 90);
      bump(`sql ${file}: ${sql}`);
      return original.apply(this, args);
    };
  }
  const dbProto = Database.prototype as unknown as Record<string, unknown>;
  for (const method of ['exec', 'pragma']) {
    const original = dbProto[method] as (...a: unknown[]) => unknown;
    dbProto[method] = function (this: { name: string }, ...args: unknown[]) {
      bump(`sql ${path.basename(this.name)}: ${method} ${String(args[0]).slice(0, 60)}`);
      return original.apply(this, args);
    };
  }
}
{
  const c = crypto as unknown as Record<string, (...a: unknown[]) => unknown>;
  const scrypt = c.scrypt!;
  c.scrypt = (...a: unknown[]) => {
    bump('crypto: scrypt');
    return scrypt(...a);
  };
  const sign = c.sign!;
  c.sign = (...a: unknown[]) => {
    bump('crypto: sign (node:crypto)');
    return sign(...a);
  };
  const subtle = crypto.webcrypto.subtle as unknown as Record<string, (...a: unknown[]) => unknown>;
  const subtleSign = subtle.sign!.bind(subtle);
  subtle.sign = (...a: unknown[]) => {
    bump('crypto: sign (WebCrypto)');
    return subtleSign(...a);
  };
  syncBuiltinESMExports();
}

const { pino } = await import('pino');
const { loadConfig } = await import('../../infra/core/config.ts');
const { startPlatform } = await import('../../infra/main.ts');
const { BENCH_SECRET } = { BENCH_SECRET: 'bench-secret-0123456789abcdefghijklmnopqrstuvwxyz' };

const N = Number(process.argv[2] ?? 200);
const dir = mkdtempSync(path.join(tmpdir(), 'identity-cost-'));
const config = loadConfig({
  PORT: '0',
  HOST: '127.0.0.1',
  PUBLIC_BASE_URL: 'http://127.0.0.1:0',
  DATA_DIR: dir,
  LOG_LEVEL: 'silent',
  SEED_CLIENT_SECRET: BENCH_SECRET,
  SEED_ADMIN_PASSWORD: 'bench-admin-password',
});
const platform = await startPlatform({ config, log: pino({ level: 'silent' }), services: ['identity'] });
const auth = `Basic ${Buffer.from(`${config.identity.seed.clientId}:${BENCH_SECRET}`).toString('base64')}`;
const token = async () => {
  const res = await fetch(`${platform.publicBaseUrl}/cas/oidc/token`, {
    method: 'POST',
    headers: { authorization: auth, 'content-type': 'application/x-www-form-urlencoded' },
    body: 'grant_type=client_credentials&scope=profile+email',
  });
  if (res.status !== 200) throw new Error(`token: ${res.status} ${await res.text()}`);
  await res.json();
};

try {
  for (let i = 0; i < 50; i++) await token(); // warm: keys loaded, secret verified once, caches filled
  await new Promise((r) => setTimeout(r, 500)); // let the projections settle

  counts.clear();
  const started = performance.now();
  for (let i = 0; i < N; i++) await token();
  await new Promise((r) => setTimeout(r, 300)); // what the tokens set off in the background (projections)
  const busyMs = performance.now() - started;
  const busy = new Map(counts);

  counts.clear();
  await new Promise((r) => setTimeout(r, busyMs));
  const idle = new Map(counts);

  const rows = [...new Set([...busy.keys(), ...idle.keys()])]
    .map((key) => ({ key, perToken: ((busy.get(key) ?? 0) - (idle.get(key) ?? 0)) / N }))
    .filter((r) => Math.abs(r.perToken) >= 0.01)
    .sort((a, b) => a.key.localeCompare(b.key));
  console.log(`\n## one client_credentials token, counted over ${N} sequential tokens (idle background subtracted)`);
  const total = (prefix: string) => rows.filter((r) => r.key.startsWith(prefix)).reduce((s, r) => s + r.perToken, 0);
  for (const r of rows) console.log(`${r.perToken.toFixed(2).padStart(7)}  ${r.key}`);
  console.log(
    `totals per token: events.sqlite statements ${total('sql events.sqlite').toFixed(2)}, read-models.sqlite statements ${total('sql read-models.sqlite').toFixed(2)}, ` +
      `appends ${rows
        .filter((r) => /INSERT INTO events/.test(r.key))
        .reduce((s, r) => s + r.perToken, 0)
        .toFixed(2)}, scrypt ${total('crypto: scrypt').toFixed(2)}, signatures ${total('crypto: sign').toFixed(2)}`,
  );
} finally {
  await platform.stop();
  rmSync(dir, { recursive: true, force: true });
}
