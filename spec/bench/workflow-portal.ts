// The task list's search through the portal beside the same search straight to the workflow API, over the
// store the workflow section seeded (100,000 open tasks): the platform started on that DATA_DIR as
// `npm start` runs it (identity, workflow and the portal in one process, workers on), the demo admin of the
// tenant signed in through the provider's login form, a machine client for the direct calls.
import { pino } from 'pino';
import { createDirectoryCommands } from '../../commands/identity/directory.commands.ts';
import { WORKFLOW_ADMIN_SCOPE, WORKFLOW_USER_SCOPE } from '../../domain/workflow/workflow.scopes.ts';
import { systemClock } from '../../infra/core/clock.port.ts';
import { loadConfig } from '../../infra/core/config.ts';
import { startPlatform } from '../../infra/main.ts';
import { machineToken } from '../http/identity/machine-token.ts';
import { type Latency, portalBesideDirect } from './portal-proxy.ts';

const ADMIN = { username: 'admin', password: 'bench admin password 0123' };

export async function taskSearchThroughPortal(o: {
  dataDir: string;
  tenant: string;
  body: (i: number) => Record<string, unknown>;
  count: number;
  warmup: number;
}): Promise<{ portal: Latency; direct: Latency }> {
  const config = loadConfig({
    PORT: '0',
    HOST: '127.0.0.1',
    PUBLIC_BASE_URL: 'http://127.0.0.1:0',
    DATA_DIR: o.dataDir,
    LOG_LEVEL: 'silent',
    SEED_TENANT: o.tenant,
    SEED_ADMIN_USERNAME: ADMIN.username,
    SEED_ADMIN_PASSWORD: ADMIN.password,
  });
  const platform = await startPlatform({
    config,
    log: pino({ level: 'silent' }),
    services: ['identity', 'workflow', 'portal'],
  });
  try {
    const base = platform.publicBaseUrl;
    const directory = createDirectoryCommands({ eventStore: platform.stores.eventStore, clock: systemClock });
    const token = await machineToken({
      baseUrl: base,
      directory,
      tenant: o.tenant,
      clientId: 'bench-tasks',
      scopes: [WORKFLOW_USER_SCOPE, WORKFLOW_ADMIN_SCOPE],
    });
    return await portalBesideDirect({
      base,
      user: { tenant: o.tenant, ...ADMIN },
      token,
      path: '/workflow/v1/tasks',
      body: (i) => JSON.stringify(o.body(i)),
      ok: (text) => text.includes('"results":[{'),
      count: o.count,
      warmup: o.warmup,
    });
  } finally {
    await platform.stop();
  }
}
