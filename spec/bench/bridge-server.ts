// A server for spec/bench/bridge.bench.ts, run in its own process so that it has a core to itself and
// the load generator does not share its event loop. `platform-all`: identity + bridge with their workers
// in one process (startPlatform, SQLite stores in a temp dir: what `npm start` runs); `platform-api`: the
// same store after the workers brought the read models up to date, served by a process without workers
// (an API process of a scaled-out deployment). Both have a tenant `bench` with a custom bus `orders` and
// a client with bridge:publish. `bare`: express with its JSON parser and a handler answering what
// putEvent answers, nothing else.
// Prints one line `READY <json>` when it listens; stops on SIGTERM.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import express from 'express';
import { pino } from 'pino';
import { createBusCommands } from '../../commands/bridge/buses.commands.ts';
import { forTenant } from '../../commands/core/envelopes.ts';
import { createDirectoryCommands } from '../../commands/identity/directory.commands.ts';
import { startHttpServer } from '../../http/core/server.ts';
import { systemClock } from '../../infra/core/clock.port.ts';
import { loadConfig } from '../../infra/core/config.ts';
import { startPlatform } from '../../infra/main.ts';
import { openStores } from '../../infra/stores.ts';

const SECRET = 'bench-secret-0123456789abcdefghijklmnopqrstuvwxyz';
const kind = process.argv[2];
const stops: Array<() => Promise<void>> = [];
process.once('SIGTERM', () => {
  void Promise.all(stops.map((s) => s())).finally(() => process.exit(0));
});

if (kind === 'platform-api' || kind === 'platform-all') {
  const dir = mkdtempSync(path.join(tmpdir(), 'bench-bridge-'));
  const config = loadConfig({
    PORT: '0',
    HOST: '127.0.0.1',
    PUBLIC_BASE_URL: 'http://127.0.0.1:0',
    DATA_DIR: dir,
    LOG_LEVEL: 'silent',
    OUTBOUND_ALLOW: '127.0.0.1,::1,localhost',
  });
  const log = pino({ level: 'silent' });
  // first the whole platform with its workers: seeds, creates the read models and brings them up to date
  let platform = await startPlatform({
    config,
    log,
    services: ['identity', 'bridge'],
    stores: await openStores(config),
  });
  const ctx = { tenant: 'platform', actor: 'bench' };
  const { eventStore } = platform.stores;
  const directory = createDirectoryCommands({ eventStore, clock: systemClock });
  await directory.createTenant({ name: 'Bench' }, forTenant(ctx, 'bench'), 'bench/tenant');
  await directory.registerUser({ username: 'bench-svc', name: 'bench' }, { ...ctx, tenant: 'bench' }, 'bench/user');
  await directory.registerClient(
    {
      clientId: 'bench-publisher',
      grantTypes: ['client_credentials'],
      defaultUser: 'bench-svc',
      scopes: ['bridge:publish'],
      clientSecret: SECRET,
    },
    { ...ctx, tenant: 'bench' },
    'bench/client',
  );
  await createBusCommands({ eventStore, clock: systemClock }).createBus(
    { name: 'orders', kind: 'custom' },
    { ...ctx, tenant: 'bench' },
    'bench/bus',
  );
  for (const r of [...platform.runners, ...platform.workers]) {
    while ((await r.status()).lag > 0) await new Promise((resolve) => setTimeout(resolve, 20));
  }
  if (kind === 'platform-api') {
    // then an API process of a scaled-out deployment: HTTP only, the workers run elsewhere
    await platform.stop();
    platform = await startPlatform({
      config,
      log,
      services: ['identity', 'bridge'],
      workers: false,
      stores: await openStores(config),
    });
  }
  const running = platform;
  stops.push(async () => {
    await running.stop();
    rmSync(dir, { recursive: true, force: true });
  });
  const res = await fetch(`${running.publicBaseUrl}/cas/oidc/token`, {
    method: 'POST',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      authorization: `Basic ${Buffer.from(`bench-publisher:${SECRET}`).toString('base64')}`,
    },
    body: new URLSearchParams({ grant_type: 'client_credentials', scope: 'bridge:publish' }),
  });
  const token = ((await res.json()) as { access_token: string }).access_token;
  console.log(`READY ${JSON.stringify({ url: running.publicBaseUrl, token })}`);
} else if (kind === 'bare') {
  const app = express();
  app.disable('x-powered-by');
  app.use(express.json({ limit: '1mb' }));
  let n = 0;
  app.post('/api/platform/platform-pub/eventBridge/event/v1/putEvent', (req, res) => {
    if (typeof (req.body as { id?: unknown }).id !== 'string') return res.status(400).end();
    res.json({ eventId: String(++n), duplicate: false });
  });
  const server = await startHttpServer(app, { port: 0, host: '127.0.0.1' });
  stops.push(() => server.close(1000));
  console.log(`READY ${JSON.stringify({ url: server.url, token: 'none' })}`);
} else {
  console.error('usage: bridge-server.ts platform-api|platform-all|bare');
  process.exit(2);
}
