import { SingleBar } from 'cli-progress';
import type { Projection } from '../../projections/core/projection.ts';
import { type RebuildOptions, rebuildProjections } from '../../projections/core/rebuild.ts';
import { positionValue } from '../core/position.ts';

/**
 * `platform rebuild <projection…>`: the rebuild (several projections in one pass over the log) with a
 * progress bar (events/s, ETA) on stderr.
 */
export async function rebuildWithProgress(
  o: Omit<RebuildOptions, 'onProgress'> & ({ projection: Projection } | { projections: Projection[] }),
  stream: NodeJS.WritableStream = process.stderr,
) {
  const projections = 'projections' in o ? o.projections : [o.projection];
  const label = projections.map((p) => p.name).join(', ');
  const started = Date.now();
  const bar = new SingleBar({
    format: `${label} [{bar}] {percentage}% | {value}/{total} positions | {rate} events/s | ETA {eta_formatted}`,
    stream,
    noTTYOutput: true,
    notTTYSchedule: 1000,
    etaBuffer: 50,
    etaAsynchronousUpdate: true,
  });
  let begun = false;
  const result = await rebuildProjections({
    ...o,
    projections,
    onProgress(p) {
      const total = Math.max(positionValue(p.head), 1);
      const rate = Math.round(p.events / Math.max((Date.now() - started) / 1000, 0.001));
      if (!begun) {
        bar.start(total, 0, { rate });
        begun = true;
      }
      bar.setTotal(Math.max(total, positionValue(p.position)));
      bar.update(positionValue(p.position), { rate });
    },
  });
  // completion is 100 %, whatever the last report said (an empty log has a total of 1 and no position)
  if (begun) {
    bar.update(bar.getTotal());
    bar.stop();
  }
  const seconds = (Date.now() - started) / 1000;
  // one projection: its generation, as `platform rebuild` prints it
  const generation = result.generations[projections[0]!.name]!;
  return { ...result, generation, seconds, rate: Math.round(result.events / Math.max(seconds, 0.001)) };
}
