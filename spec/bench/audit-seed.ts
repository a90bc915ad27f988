// Bulk seeding for the audit benchmark (spec/bench/audit.bench.ts), in processes of its own:
//   node --import tsx spec/bench/audit-seed.ts <DATA_DIR> <records>
// 1. `seedPlatform`: the platform once (identity seed, tenant `bench`, a client with the audit scopes, the
//    metadata: module m0 with transaction t0, modules m1..m9 with transactions t1..t9), then stopped;
// 2. the records, straight into the stores, nothing through HTTP: the ledger's events (chained by the
//    ledger decider, exactly as the writer does) appended to the log 5,000 per append, and the same events
//    applied to the `audit.records` projection (its own apply) 5,000 per read-store transaction — the two
//    files written by two processes side by side (`log` and `reads`), each deciding the same deterministic
//    records;
// 3. the projection's checkpoint moved to the log's head.
// Every 10th record is (m0, t0) — the export's 100,000 at 1,000,000 records — the others spread over the 81
// pairs m1..m9 × t1..t9; times 8.64 s apart from 2026-01-01 (100 days hold 1,000,000). Prints `SEEDED <json>`.
import { spawn } from 'node:child_process';
import { pino } from 'pino';
import { v7 as uuidv7 } from 'uuid';
import { createCatalogCommands } from '../../commands/audit/catalog.commands.ts';
import { createAuditMetadata } from '../../commands/audit/metadata.cache.ts';
import { forTenant } from '../../commands/core/envelopes.ts';
import { eventIdFor } from '../../commands/core/event-id.ts';
import { createDirectoryCommands } from '../../commands/identity/directory.commands.ts';
import { type LedgerState, ledgerDecider, ledgerStream } from '../../domain/audit/ledger.decider.ts';
import type { EventEnvelope } from '../../domain/core/event.ts';
import { systemClock } from '../../infra/core/clock.port.ts';
import { loadConfig } from '../../infra/core/config.ts';
import { startPlatform } from '../../infra/main.ts';
import { openStores } from '../../infra/stores.ts';
import { recordsProjection } from '../../projections/audit/records.projection.ts';
import { checkpoints, initCheckpoint, readCheckpoint } from '../../projections/core/checkpoints.ts';
import { projectionStore } from '../../projections/core/projection-store.ts';

export const BENCH_SECRET = 'bench-secret-0123456789abcdefghijklmnopqrstuvwxyz';
export const BENCH_TENANT = 'bench';
export const BENCH_ADMIN = { tenant: BENCH_TENANT, username: 'bench-admin', password: 'bench admin password 0123' };
export const START_MS = Date.parse('2026-01-01T00:00:00.000Z');
export const STEP_MS = 8640;
const BATCH = 5000;
export const pairOf = (i: number): [string, string] =>
  i % 10 === 0 ? ['m0', 't0'] : [`m${1 + (i % 9)}`, `t${1 + (Math.floor(i / 9) % 9)}`];
const storesOf = (dataDir: string) =>
  openStores({ dataDir, esdbUrl: undefined, mongodbUrl: undefined, mongodbDatabase: 'platform' });

/** a token of the seeded bench client (client_credentials) from the platform at `url` */
export async function benchToken(url: string, scope: string): Promise<string> {
  const res = await fetch(`${url}/cas/oidc/token`, {
    method: 'POST',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      authorization: `Basic ${Buffer.from(`bench-audit:${BENCH_SECRET}`).toString('base64')}`,
    },
    body: new URLSearchParams({ grant_type: 'client_credentials', scope }),
  });
  const body = (await res.json()) as { access_token?: string };
  if (body.access_token === undefined) throw new Error(`no token: ${JSON.stringify(body)}`);
  return body.access_token;
}

/** identity (tenant, client) and the audit metadata, through the platform's own commands */
export async function seedPlatform(dataDir: string, scopes: string[]): Promise<void> {
  const config = loadConfig({
    PORT: '0',
    HOST: '127.0.0.1',
    PUBLIC_BASE_URL: 'http://127.0.0.1:0',
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
  });
  const platform = await startPlatform({
    config,
    log: pino({ level: 'silent' }),
    services: ['identity', 'audit'],
    stores: await openStores(config),
  });
  const { eventStore } = platform.stores;
  const ctx = { tenant: 'platform', actor: 'bench' };
  const directory = createDirectoryCommands({ eventStore, clock: systemClock });
  await directory.createTenant({ name: 'Bench' }, forTenant(ctx, BENCH_TENANT), 'bench/tenant');
  await directory.registerUser(
    { username: 'bench-svc', name: 'bench' },
    { ...ctx, tenant: BENCH_TENANT },
    'bench/user',
  );
  // a person of the tenant for the portal's figures: signs in through the provider's login form
  await directory.registerUser(
    { username: BENCH_ADMIN.username, name: 'bench admin', password: BENCH_ADMIN.password, roles: scopes },
    { ...ctx, tenant: BENCH_TENANT },
    'bench/admin',
  );
  await directory.registerClient(
    {
      clientId: 'bench-audit',
      grantTypes: ['client_credentials'],
      defaultUser: 'bench-svc',
      scopes,
      clientSecret: BENCH_SECRET,
    },
    { ...ctx, tenant: BENCH_TENANT },
    'bench/client',
  );
  const catalog = createCatalogCommands({
    eventStore,
    clock: systemClock,
    metadata: createAuditMetadata({ eventStore }),
  });
  const rows = [{ module_name: 'm0', transaction_name: 't0' }];
  for (let m = 1; m <= 9; m++)
    for (let t = 1; t <= 9; t++) rows.push({ module_name: `m${m}`, transaction_name: `t${t}` });
  await catalog.import(rows, { tenant: BENCH_TENANT, actor: 'bench' }, 'bench/metadata');
  for (const r of [...platform.runners, ...platform.workers]) {
    while ((await r.status()).lag > 0) await new Promise((resolve) => setTimeout(resolve, 20));
  }
  await platform.stop();
}

/** the records from..to-1 as the ledger's events, chained on `state` (deterministic: both writers decide the same) */
function decideBatch(from: number, to: number, state: LedgerState): { envelopes: EventEnvelope[]; state: LedgerState } {
  const stream = ledgerStream(BENCH_TENANT);
  const envelopes: EventEnvelope[] = [];
  const random = new Uint8Array(16);
  for (let i = from; i < to; i++) {
    const [module_name, transaction_name] = pairOf(i);
    new DataView(random.buffer).setUint32(12, i);
    const [event] = ledgerDecider.decide(
      {
        type: 'RecordAudit',
        // time-ordered ids, as the writer's (UUID v7), made deterministic
        id: uuidv7({ msecs: START_MS + i * STEP_MS, random }),
        tenant: BENCH_TENANT,
        now: new Date(START_MS + i * STEP_MS).toISOString(),
        fields: {
          module_name,
          transaction_name,
          transaction_vendor: 'bench-vendor',
          business_code: `PolicyNo:P-${i}`,
          client_ip: '10.1.2.3',
          new_data: JSON.stringify({ policy: `P-${i}`, premium: 100 + (i % 50), status: 'ACTIVE' }),
          old_data: JSON.stringify({ policy: `P-${i}`, premium: 100, status: 'DRAFT' }),
          warning_type: i % 7 === 0 ? 'WARN' : 'INFO',
          trace_id: `trace-${i}`,
          tags: ['bench'],
          compress_type: 'none',
        },
      },
      state,
    );
    state = ledgerDecider.evolve(state, event!);
    const commandId = `bench/${i}`;
    envelopes.push({
      id: eventIdFor(commandId, 0, stream),
      type: event!.type,
      data: event!.data,
      metadata: { tenant: BENCH_TENANT, actor: 'bench', commandId, occurredAt: event!.data.time, schemaVersion: 1 },
    });
  }
  return { envelopes, state };
}

/** one side of the records: the log's events, or the projection's documents */
export async function seedSide(dataDir: string, count: number, side: 'log' | 'reads'): Promise<void> {
  const stores = await storesOf(dataDir);
  const { eventStore, readStore } = stores;
  const projection = recordsProjection();
  const stream = ledgerStream(BENCH_TENANT);
  await initCheckpoint(readStore, projection, new Date().toISOString());
  const generation = (await readCheckpoint(readStore, projection.name))!.generation;
  let state = ledgerDecider.initialState();
  for (let from = 0; from < count; from += BATCH) {
    const batch = decideBatch(from, Math.min(count, from + BATCH), state);
    state = batch.state;
    if (side === 'log') await eventStore.append(stream, batch.envelopes, from === 0 ? 'no_stream' : from - 1);
    else {
      const recorded = batch.envelopes.map((e, k) => ({ ...e, stream, revision: from + k, position: '0' }));
      await readStore.transaction((tx) => projection.apply(recorded, projectionStore(tx, projection, generation)));
    }
  }
  await stores.close();
}

/** the projection's checkpoint at the log's head (the seeded events are applied) */
async function moveCheckpoint(dataDir: string): Promise<void> {
  const stores = await storesOf(dataDir);
  const head = await stores.eventStore.headPosition();
  await stores.readStore.transaction(async (tx) => {
    const cp = (await checkpoints(tx).get(recordsProjection().name))!;
    await checkpoints(tx).upsert({ ...cp, position: head, updatedAt: new Date().toISOString() });
  });
  await stores.close();
}

const run = (args: string[]) =>
  new Promise<void>((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', import.meta.filename, ...args], {
      stdio: ['ignore', 'inherit', 'inherit'],
    });
    child.once('exit', (code) =>
      code === 0 ? resolve() : reject(new Error(`audit-seed ${args.join(' ')} exited ${code}`)),
    );
  });

if (import.meta.url === `file://${process.argv[1]}`) {
  const [dataDir, count, side] = process.argv.slice(2);
  if (side === 'log' || side === 'reads') await seedSide(dataDir!, Number(count), side);
  else {
    await seedPlatform(dataDir!, ['audit:write', 'audit:read', 'audit:admin']);
    const started = performance.now();
    await Promise.all([run([dataDir!, count!, 'log']), run([dataDir!, count!, 'reads'])]);
    await moveCheckpoint(dataDir!);
    console.log(`SEEDED ${JSON.stringify({ records: Number(count), ms: performance.now() - started })}`);
  }
  process.exit(0);
}
