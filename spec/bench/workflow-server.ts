// A server for spec/bench/workflow.bench.ts in its own process: identity + workflow with their workers
// (startPlatform, SQLite stores in a temp dir: what `npm start` runs), tenant `bench` enabled for the
// workflow with a client holding workflow:user and workflow:admin, and the bench process deployed.
// Prints one line `READY <json>` when it listens; stops on SIGTERM.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pino } from 'pino';
import { createDirectoryCommands } from '../../commands/identity/directory.commands.ts';
import { systemClock } from '../../infra/core/clock.port.ts';
import { loadConfig } from '../../infra/core/config.ts';
import { startPlatform } from '../../infra/main.ts';
import { openStores } from '../../infra/stores.ts';

const SECRET = 'bench-secret-0123456789abcdefghijklmnopqrstuvwxyz';
const xml = process.argv[2] ?? '';
const dir = mkdtempSync(path.join(tmpdir(), 'bench-workflow-'));
const config = loadConfig({
  PORT: '0',
  HOST: '127.0.0.1',
  PUBLIC_BASE_URL: 'http://127.0.0.1:0',
  DATA_DIR: dir,
  LOG_LEVEL: 'silent',
  SEED_TENANT: 'bench',
});
const platform = await startPlatform({
  config,
  log: pino({ level: 'silent' }),
  services: ['identity', 'workflow'],
  stores: await openStores(config),
});
process.once('SIGTERM', () => {
  void platform.stop().finally(() => {
    rmSync(dir, { recursive: true, force: true });
    process.exit(0);
  });
});
const ctx = { tenant: 'bench', actor: 'bench' };
const directory = createDirectoryCommands({ eventStore: platform.stores.eventStore, clock: systemClock });
await directory.registerUser({ username: 'bench-wf', name: 'bench' }, ctx, 'bench/user');
await directory.registerClient(
  {
    clientId: 'bench-wf',
    grantTypes: ['client_credentials'],
    defaultUser: 'bench-wf',
    scopes: ['workflow:user', 'workflow:admin'],
    clientSecret: SECRET,
  },
  ctx,
  'bench/client',
);
const res = await fetch(`${platform.publicBaseUrl}/cas/oidc/token`, {
  method: 'POST',
  headers: {
    'content-type': 'application/x-www-form-urlencoded',
    authorization: `Basic ${Buffer.from(`bench-wf:${SECRET}`).toString('base64')}`,
  },
  body: new URLSearchParams({ grant_type: 'client_credentials', scope: 'workflow:user workflow:admin' }),
});
const token = ((await res.json()) as { access_token: string }).access_token;
const form = new FormData();
form.append('files', new Blob([xml]), 'bench.bpmn');
const deployed = await fetch(`${platform.publicBaseUrl}/workflow/v1/deployment`, {
  method: 'POST',
  headers: { authorization: `Bearer ${token}` },
  body: form,
});
if (deployed.status !== 201) throw new Error(`deploy: ${deployed.status} ${await deployed.text()}`);
console.log(`READY ${JSON.stringify({ url: platform.publicBaseUrl, token })}`);
