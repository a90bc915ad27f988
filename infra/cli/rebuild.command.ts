import { systemClock } from '../core/clock.port.ts';
import { loadConfig } from '../core/config.ts';
import { platformProjections } from '../services.ts';
import { openCommandStores } from '../stores.ts';
import { type CliCommand, EXIT, parse, UsageError } from './cli-kit.ts';
import { rebuildWithProgress } from './rebuild.ts';

/** `platform rebuild`: fresh generations of projections, switched atomically. */
export const rebuildCommand: CliCommand = {
  name: 'rebuild',
  summary: 'rebuild projections beside the live ones and switch readers when they have caught up',
  usage: ['rebuild <projection> [<projection> …]'],
  description: `Builds a fresh generation of the named projections' collections from position 0, beside the live
ones, in one pass over the log, with a progress bar on stderr (events/s, ETA); then switches readers at once.
The live generation serves meanwhile. \`platform projections\` lists the names.`,
  examples: ['platform rebuild bridge.trace', 'platform rebuild identity.directory identity.revocations'],
  async run(args, io) {
    const { positionals } = parse(args, {}, { positionals: 'any', command: 'rebuild' });
    const all = platformProjections();
    const projections = positionals.map((name) => all.find((p) => p.name === name));
    if (positionals.length === 0 || projections.some((p) => p === undefined)) {
      const unknown = positionals.filter((_, i) => projections[i] === undefined);
      throw new UsageError(
        `${unknown.length > 0 ? `unknown projection ${unknown.join(', ')}; ` : ''}rebuild needs projection names: ${all.map((p) => p.name).join(', ')}`,
        'rebuild',
      );
    }
    const stores = await openCommandStores(loadConfig(io.env));
    try {
      const r = await rebuildWithProgress({
        eventStore: stores.eventStore,
        readStore: stores.readStore,
        projections: projections as typeof all,
        clock: systemClock,
      });
      for (const [name, generation] of Object.entries(r.generations)) {
        io.out(
          `${name}: generation ${generation} live at position ${r.position}; ${r.events} events in ${r.seconds.toFixed(1)} s (${r.rate} events/s)`,
        );
      }
    } finally {
      await stores.close();
    }
    return EXIT.ok;
  },
};
