import { SingleBar } from 'cli-progress';
import { positionValue } from '../core/position.ts';
import { rebuildProjection, type RebuildOptions } from '../../projections/core/rebuild.ts';

/** `platform rebuild <projection>`: the rebuild with a progress bar (events/s, ETA) on stderr. */
export async function rebuildWithProgress(o: Omit<RebuildOptions, 'onProgress'>, stream: NodeJS.WritableStream = process.stderr) {
  const started = Date.now();
  const bar = new SingleBar(
    {
      format: `${o.projection.name} [{bar}] {percentage}% | {value}/{total} positions | {rate} events/s | ETA {eta_formatted}`,
      stream,
      noTTYOutput: true,
      notTTYSchedule: 1000,
      etaBuffer: 50,
      etaAsynchronousUpdate: true,
    },
  );
  let begun = false;
  const result = await rebuildProjection({
    ...o,
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
  if (begun) bar.stop();
  const seconds = (Date.now() - started) / 1000;
  return { ...result, seconds, rate: Math.round(result.events / Math.max(seconds, 0.001)) };
}
