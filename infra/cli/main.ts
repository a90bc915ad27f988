import { parseArgs } from 'node:util';
import { listParked, retryParked } from '../../projections/core/parked-events.ts';
import { projectionStatus } from '../../projections/core/projection-status.ts';
import { systemClock } from '../core/clock.port.ts';
import { ConfigError, loadConfig, type Config } from '../core/config.ts';
import { createLogger } from '../logger.ts';
import { SERVICES, startPlatform, type ServiceName } from '../main.ts';
import { platformDeciders, platformProjections } from '../services.ts';
import { describeSeed } from '../identity/seed.ts';
import { openStores } from '../stores.ts';
import { keysRotate, KEYS_USAGE } from './keys.ts';
import { rebuildWithProgress } from './rebuild.ts';
import { replay, type ReplayQuery } from './replay.ts';

const USAGE = `usage: platform <command> [options]

  start [--services bridge,identity,audit,workflow,hub | none] [--workers | --no-workers]
        start the HTTP services (all by default; none: a worker process) and, unless --no-workers, the
        projectors and workers
  replay --stream S | --correlation C | --from T --to T [--category X]   [--state]
        print a timeline of events (time, stream@revision, type, key data); --state adds the aggregate
        state after each event
  rebuild <projection> [<projection> …]
        rebuild projections (in one pass over the log) beside the live ones and switch readers when they
        have caught up
  projections
        list the projections with their position, lag and parked events
  projections parked [<projection>]
        list the events projections parked (could not apply), with their error
  projections retry <projection>
        apply a projection's parked events again (after a fix); those that apply leave the list
  ${KEYS_USAGE}

Configuration comes from environment variables (see README).`;

class UsageError extends Error {}

export async function runCli(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  switch (command) {
    case 'start':
      return start(rest);
    case 'replay':
      return replayCommand(rest);
    case 'rebuild':
      return rebuildCommand(rest);
    case 'projections':
      return projectionsCommand(rest);
    case 'keys':
      return keysCommand(rest);
    case undefined:
    case 'help':
    case '--help':
    case '-h':
      console.log(USAGE);
      return command === undefined ? 2 : 0;
    default:
      throw new UsageError(`unknown command "${command}"`);
  }
}

function config(): Config {
  return loadConfig(process.env);
}

async function start(args: string[]): Promise<number> {
  const { values } = parseArgs({
    args,
    options: { services: { type: 'string' }, workers: { type: 'boolean' }, 'no-workers': { type: 'boolean' } },
    strict: true,
  });
  const services = values.services ? parseServices(values.services) : SERVICES;
  const cfg = config();
  const log = createLogger(cfg);
  const platform = await startPlatform({
    config: cfg,
    log,
    services,
    workers: !values['no-workers'],
    // the store was down at start and the seed ran later: its one-time values are printed then
    onIdentitySeed: (report) => console.log(describeSeed(report).join('\n')),
  });
  // Signal handlers go in before the banner: whoever reads the banner may send SIGTERM at once, and a signal
  // that arrives before a handler exists kills the process without a graceful shutdown.
  const stopped = new Promise<void>((resolve) => {
    const shutdown = (signal: string) => {
      log.info({ signal }, 'shutting down');
      platform.stop().then(resolve, (err) => {
        log.error({ err }, 'shutdown failed');
        resolve();
      });
    };
    process.once('SIGTERM', () => shutdown('SIGTERM'));
    process.once('SIGINT', () => shutdown('SIGINT'));
  });
  const kinds = platform.stores.kinds;
  const base = platform.publicBaseUrl;
  console.log(
    [
      `Platform listening on ${platform.url}`,
      `  public base URL : ${base}`,
      `  services        : ${services.join(', ') || 'none (worker process)'}`,
      `  workers         : ${values['no-workers'] ? 'off' : 'on'}`,
      `  event store     : ${kinds.eventStore}${kinds.eventStore === 'sqlite' ? ` (${cfg.dataDir})` : ''}`,
      `  read store      : ${kinds.readStore}`,
      `  health          : ${base}/health/ready   metrics: ${base}/metrics`,
      ...(services.includes('identity') ? [`  identity        : ${base}/.well-known/openid-configuration`] : []),
      // first start only: generated passwords and secrets, shown this once (never logged)
      ...(platform.identitySeed ? ['', ...describeSeed(platform.identitySeed)] : []),
    ].join('\n'),
  );
  await stopped;
  return 0;
}

function parseServices(list: string): ServiceName[] {
  // a worker process: projectors and process managers, with health and metrics but no service routes
  if (list.trim() === 'none') return [];
  const names = list.split(',').map((s) => s.trim()).filter(Boolean);
  const unknown = names.filter((n) => !(SERVICES as readonly string[]).includes(n));
  if (unknown.length > 0 || names.length === 0) {
    throw new UsageError(`--services takes a comma-separated list of ${SERVICES.join(', ')}; unknown: ${unknown.join(', ') || '(empty)'}`);
  }
  return names as ServiceName[];
}

async function replayCommand(args: string[]): Promise<number> {
  const { values } = parseArgs({
    args,
    options: {
      stream: { type: 'string' },
      correlation: { type: 'string' },
      from: { type: 'string' },
      to: { type: 'string' },
      category: { type: 'string' },
      state: { type: 'boolean' },
    },
    strict: true,
  });
  let query: ReplayQuery;
  if (values.stream) query = { kind: 'stream', stream: values.stream };
  else if (values.correlation) query = { kind: 'correlation', correlationId: values.correlation };
  else if (values.from && values.to) {
    const from = instant(values.from, '--from');
    const to = instant(values.to, '--to');
    query = { kind: 'window', from, to, ...(values.category && { category: values.category }) };
  } else throw new UsageError('replay needs --stream S, --correlation C, or --from T --to T');
  const stores = openStores(config());
  try {
    await replay(stores.eventStore, query, { state: values.state ?? false, deciders: platformDeciders(), write: (l) => console.log(l) });
  } finally {
    await stores.close();
  }
  return 0;
}

function instant(value: string, flag: string): string {
  const t = new Date(value);
  if (Number.isNaN(t.getTime())) throw new UsageError(`${flag} must be a date-time such as 2026-11-22T10:00:00Z, got "${value}"`);
  return t.toISOString();
}

async function rebuildCommand(args: string[]): Promise<number> {
  const { positionals } = parseArgs({ args, allowPositionals: true, strict: true });
  const all = platformProjections();
  const projections = positionals.map((name) => all.find((p) => p.name === name));
  if (positionals.length === 0 || projections.some((p) => p === undefined)) {
    throw new UsageError(`rebuild needs projection names: ${all.map((p) => p.name).join(', ')}`);
  }
  const stores = openStores(config());
  try {
    const r = await rebuildWithProgress({ eventStore: stores.eventStore, readStore: stores.readStore, projections: projections as typeof all, clock: systemClock });
    for (const [name, generation] of Object.entries(r.generations)) {
      console.log(`${name}: generation ${generation} live at position ${r.position}; ${r.events} events in ${r.seconds.toFixed(1)} s (${r.rate} events/s)`);
    }
  } finally {
    await stores.close();
  }
  return 0;
}

async function keysCommand(args: string[]): Promise<number> {
  const [sub, ...rest] = args;
  if (sub !== 'rotate') throw new UsageError(`keys needs a subcommand: ${KEYS_USAGE.split('\n', 1)[0]}`);
  const cfg = config();
  const stores = openStores(cfg);
  try {
    return await keysRotate(rest, { eventStore: stores.eventStore, config: cfg });
  } finally {
    await stores.close();
  }
}

async function projectionsCommand(args: string[]): Promise<number> {
  const [sub, ...rest] = args;
  const all = platformProjections();
  const named = (name: string | undefined) => {
    const p = all.find((x) => x.name === name);
    if (p === undefined) throw new UsageError(`projections ${sub} needs a projection name: ${all.map((x) => x.name).join(', ')}`);
    return p;
  };
  const stores = openStores(config());
  try {
    switch (sub) {
      case undefined: {
        const parked = new Map<string, number>();
        for (const p of await listParked(stores.readStore)) parked.set(p.projection, (parked.get(p.projection) ?? 0) + 1);
        console.log('projection'.padEnd(28) + 'version  generation  position              lag       parked');
        for (const projection of all) {
          const s = await projectionStatus(stores.eventStore, stores.readStore, projection, 'stopped');
          console.log(`${s.name.padEnd(28)}${String(s.version).padEnd(9)}${String(s.generation).padEnd(12)}${s.position.padEnd(22)}${String(s.lag).padEnd(10)}${parked.get(s.name) ?? 0}`);
        }
        return 0;
      }
      case 'parked': {
        const list = await listParked(stores.readStore, rest[0] === undefined ? undefined : named(rest[0]).name);
        for (const p of list) console.log(`${p.projection}  ${p.position}  ${p.stream}@${p.revision}  ${p.type}  parked ${p.parkedAt}  retries ${p.retries}\n    ${p.error}`);
        if (list.length === 0) console.log('no parked events');
        return 0;
      }
      case 'retry': {
        const projection = named(rest[0]);
        const r = await retryParked({ eventStore: stores.eventStore, readStore: stores.readStore, projection, now: () => systemClock.now().toISOString() });
        console.log(`${projection.name}: ${r.applied} parked event(s) applied, ${r.failed} still failing`);
        return r.failed > 0 ? 1 : 0;
      }
      default:
        throw new UsageError(`unknown projections subcommand "${sub}"`);
    }
  } finally {
    await stores.close();
  }
}

export async function main(argv = process.argv.slice(2)): Promise<void> {
  try {
    process.exitCode = await runCli(argv);
  } catch (err) {
    if (err instanceof UsageError || err instanceof ConfigError || (err as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')) {
      console.error(`platform: ${(err as Error).message}`);
      if (err instanceof UsageError) console.error(`\n${USAGE}`);
      process.exitCode = 2;
      return;
    }
    console.error(`platform: ${err instanceof Error ? err.message : String(err)}`);
    process.exitCode = 1;
  }
}
