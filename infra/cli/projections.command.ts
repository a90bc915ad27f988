import { listParked, retryParked } from '../../projections/core/parked-events.ts';
import type { Projection } from '../../projections/core/projection.ts';
import { projectionStatus } from '../../projections/core/projection-status.ts';
import { systemClock } from '../core/clock.port.ts';
import { loadConfig } from '../core/config.ts';
import { platformProjections } from '../services.ts';
import { openCommandStores, type Stores } from '../stores.ts';
import { type CliCommand, type CliIo, EXIT, parse, UsageError } from './cli-kit.ts';

const withStores = async <T>(io: CliIo, f: (stores: Stores) => Promise<T>): Promise<T> => {
  const stores = await openCommandStores(loadConfig(io.env));
  try {
    return await f(stores);
  } finally {
    await stores.close();
  }
};

const named = (name: string | undefined, sub: string): Projection => {
  const all = platformProjections();
  const p = all.find((x) => x.name === name);
  if (p === undefined)
    throw new UsageError(
      `projections ${sub} needs a projection name: ${all.map((x) => x.name).join(', ')}`,
      `projections ${sub}`,
    );
  return p;
};

const parkedCommand: CliCommand = {
  name: 'parked',
  summary: 'the events projections parked (could not apply), with their error',
  usage: ['projections parked [<projection>]'],
  description:
    'Lists the parked events of every projection, or of one: position, stream@revision, type, when, retries, and the error.',
  examples: ['platform projections parked', 'platform projections parked bridge.trace'],
  async run(args, io) {
    const { positionals } = parse(args, {}, { positionals: 1, command: 'projections parked' });
    const only = positionals[0] === undefined ? undefined : named(positionals[0], 'parked').name;
    const list = await withStores(io, (s) => listParked(s.readStore, only));
    for (const p of list)
      io.out(
        `${p.projection}  ${p.position}  ${p.stream}@${p.revision}  ${p.type}  parked ${p.parkedAt}  retries ${p.retries}\n    ${p.error}`,
      );
    if (list.length === 0) io.out('no parked events');
    return EXIT.ok;
  },
};

const retryCommand: CliCommand = {
  name: 'retry',
  summary: "apply a projection's parked events again (after a fix)",
  usage: ['projections retry <projection>'],
  description:
    'Applies the parked events of one projection again; those that apply leave the list. Exit code 1 while some still fail.',
  examples: ['platform projections retry bridge.trace && echo all applied'],
  async run(args, io) {
    const { positionals } = parse(args, {}, { positionals: 1, command: 'projections retry' });
    const projection = named(positionals[0], 'retry');
    const r = await withStores(io, (s) =>
      retryParked({
        eventStore: s.eventStore,
        readStore: s.readStore,
        projection,
        now: () => systemClock.now().toISOString(),
      }),
    );
    io.out(`${projection.name}: ${r.applied} parked event(s) applied, ${r.failed} still failing`);
    return r.failed > 0 ? EXIT.failed : EXIT.ok;
  },
};

/** `platform projections [parked | retry]`. */
export const projectionsCommand: CliCommand = {
  name: 'projections',
  summary: 'list the projections: version, generation, position, lag, parked events',
  usage: ['projections', 'projections parked [<projection>]', 'projections retry <projection>'],
  description:
    'Without a subcommand: each projection with its version, generation, checkpoint position, lag (positions behind the log) and parked events.',
  examples: ['platform projections', 'platform projections | grep bridge', 'platform projections | head -3'],
  subcommands: [parkedCommand, retryCommand],
  async run(args, io) {
    const { positionals } = parse(args, {}, { positionals: 1, command: 'projections' });
    if (positionals.length > 0)
      throw new UsageError(`unknown projections subcommand "${positionals[0]}"`, 'projections');
    await withStores(io, async (stores) => {
      const parked = new Map<string, number>();
      for (const p of await listParked(stores.readStore)) parked.set(p.projection, (parked.get(p.projection) ?? 0) + 1);
      io.out(`${'projection'.padEnd(28)}version  generation  position              lag       parked`);
      for (const projection of platformProjections()) {
        const s = await projectionStatus(stores.eventStore, stores.readStore, projection, 'stopped');
        io.out(
          `${s.name.padEnd(28)}${String(s.version).padEnd(9)}${String(s.generation).padEnd(12)}${s.position.padEnd(22)}${String(s.lag).padEnd(10)}${parked.get(s.name) ?? 0}`,
        );
      }
    });
    return EXIT.ok;
  },
};
