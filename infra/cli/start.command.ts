import { loadConfig } from '../core/config.ts';
import { describeSeed } from '../identity/seed.ts';
import { createLogger } from '../logger.ts';
import { SERVICES, type ServiceName, startPlatform } from '../main.ts';
import { type CliCommand, EXIT, parse, UsageError } from './cli-kit.ts';

/** `platform start`: the HTTP services and, unless --no-workers, the projections and workers. */
export const startCommand: CliCommand = {
  name: 'start',
  summary: 'start the HTTP services and the workers (the platform server)',
  usage: [`start [--services ${SERVICES.join(',')} | none] [--workers | --no-workers]`],
  description: `Starts the HTTP services (all by default) and, unless --no-workers, the projections, reactors and
workers in this process. Any subset can run in separate processes against the same stores: that is how it
scales out. The banner names the URL (PORT=0: a free port); the first start also prints the generated demo
secrets, once. SIGTERM or SIGINT: stop accepting, drain the requests in flight, finish the work in hand,
close the stores, exit 0.

options:
  --services LIST   comma-separated services to serve (${SERVICES.join(', ')}), or none: a worker
                    process with only /health and /metrics
  --workers         run projections and workers here (the default)
  --no-workers      serve HTTP only (run the workers in another process)`,
  examples: [
    'platform start                                     # everything in one process',
    'platform start --no-workers                        # an API process ...',
    'PORT=8081 platform start --services none           # ... and its worker process',
    'PORT=0 DATA_DIR=/tmp/p platform start --services identity,bridge',
  ],
  // a server whose stdout reader went away keeps serving (without its banner)
  closedOutput: 'ignore',
  async run(args, io) {
    const { values } = parse(
      args,
      { services: { type: 'string' }, workers: { type: 'boolean' }, 'no-workers': { type: 'boolean' } },
      { command: 'start' },
    );
    if (values.workers === true && values['no-workers'] === true)
      throw new UsageError('--workers and --no-workers exclude each other', 'start');
    const services = values.services !== undefined ? parseServices(values.services) : SERVICES;
    // the shipped start configuration turns the hub's recovery sweeps on (the spec's source default of
    // comm-hub.sweep.enabled is false): HUB_SWEEP_ENABLED=false, or the property on the platform tenant,
    // turns them off (the sweeps run for every tenant at once and read the platform tenant's value only)
    const sweeps =
      io.env.HUB_SWEEP_ENABLED === undefined || io.env.HUB_SWEEP_ENABLED === '' ? 'true' : io.env.HUB_SWEEP_ENABLED;
    io.env.HUB_SWEEP_ENABLED = sweeps;
    process.env.HUB_SWEEP_ENABLED = sweeps;
    const cfg = loadConfig(io.env);
    const log = createLogger(cfg);
    const platform = await startPlatform({
      config: cfg,
      log,
      services,
      workers: values['no-workers'] !== true,
      // the store was down at start and the seed ran later: its one-time values are printed then
      onIdentitySeed: (report) => io.out(describeSeed(report).join('\n')),
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
    const local = reachableUrl(platform.url);
    io.out(
      [
        `Platform listening on ${platform.url}`,
        `  public base URL : ${base}`,
        `  services        : ${services.join(', ') || 'none (worker process)'}`,
        `  workers         : ${values['no-workers'] === true ? 'off' : 'on'}`,
        ...(services.includes('hub') || values['no-workers'] !== true
          ? [
              `  hub sweeps      : ${sweeps === 'true' ? 'on' : 'off'} (comm-hub.sweep.enabled; HUB_SWEEP_ENABLED=${sweeps === 'true' ? 'false to turn them off' : 'true to turn them on'})`,
            ]
          : []),
        `  event store     : ${kinds.eventStore}${kinds.eventStore === 'sqlite' ? ` (${cfg.dataDir})` : ''}`,
        `  read store      : ${kinds.readStore}`,
        `  code            : ${compiled() ? 'compiled (dist/)' : 'TypeScript sources (tsx)'}`,
        // health and metrics are this process's own: the bound address (a worker process's PORT, not the API's)
        `  health          : ${local}/health/ready   metrics: ${local}/metrics`,
        ...(services.includes('identity') ? [`  identity        : ${base}/.well-known/openid-configuration`] : []),
        ...(services.includes('portal') ? [`  portal          : ${base}/portal/ (sign in as the tenant's admin)`] : []),
        // first start only: generated passwords and secrets, shown this once (never logged)
        ...(platform.identitySeed ? ['', ...describeSeed(platform.identitySeed)] : []),
      ].join('\n'),
    );
    await stopped;
    return EXIT.ok;
  },
};

/** the bound URL, a wildcard address (HOST=0.0.0.0 or ::) named by this host's loopback address */
export function reachableUrl(bound: string): string {
  const u = new URL(bound);
  if (u.hostname === '0.0.0.0') u.hostname = '127.0.0.1';
  else if (u.hostname === '[::]') u.hostname = '[::1]';
  return u.origin;
}

/** whether this code runs compiled (dist/*.js) rather than from the TypeScript sources */
const compiled = (): boolean => import.meta.url.endsWith('.js');

function parseServices(list: string): ServiceName[] {
  // a worker process: projectors and process managers, with health and metrics but no service routes
  if (list.trim() === 'none') return [];
  const names = list
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const unknown = names.filter((n) => !(SERVICES as readonly string[]).includes(n));
  if (unknown.length > 0 || names.length === 0) {
    throw new UsageError(
      `--services takes a comma-separated list of ${SERVICES.join(', ')}, or none; unknown: ${unknown.join(', ') || '(empty)'}`,
      'start',
    );
  }
  return names as ServiceName[];
}
