import type { BenchRow } from './bench-row.ts';
import { goalMet, goalText, ratioOf } from './goal.ts';
import { machineText, thisMachine } from './machine.ts';
import { recordRow } from './recorded-rows.ts';

/** prints a row (figure, baseline, ratio, setup, goal) and hands it to npm run bench when it runs this section */
export function printRow(r: BenchRow): void {
  const fmt = (n: number) => (n >= 100 ? Math.round(n).toLocaleString('en-US') : n.toFixed(2));
  const ratio = r.baseline ? `  ratio ${ratioOf(r).toFixed(2)}` : '';
  const base = r.baseline ? `  | baseline ${r.baseline.name}: ${fmt(r.baseline.figure)} ${r.unit}` : '';
  const goal = r.goal ? `\n    goal: ${goalText(r.goal, r.unit)}: ${goalMet(r.goal, r) ? 'met' : 'NOT met'}` : '';
  console.log(`${r.name}: ${fmt(r.figure)} ${r.unit}${base}${ratio}\n    setup: ${r.setup}${goal}`);
  recordRow(r);
}

/** a section's first line: its title and the machine it runs on */
export const printSection = (title: string) => console.log(`\n## ${title} (machine: ${machineText(thisMachine())})`);

export const perSecond = (count: number, ms: number) => (count * 1000) / ms;

/** the value at quantile `q` (0.5: p50, 0.99: p99) of ascending `sorted` (0 when empty) */
export const quantile = (sorted: number[], q: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;

/** the median of `xs` (of an even count, the mean of the middle two) */
export const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 === 1 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};

/**
 * Seconds of the measured load each side, ours and its baseline alike, runs before its figure is taken
 * (BENCH_WARMUP_SECONDS, default 8; 0: none): so that both are measured after V8 has optimized their hot paths.
 */
export const WARMUP_SECONDS = Math.max(0, Number(process.env.BENCH_WARMUP_SECONDS ?? 8) || 0);

/** `concurrency` loops each calling `one` again until `seconds` have passed; every answer, in the order they came */
export async function closedLoops<R>(concurrency: number, seconds: number, one: () => Promise<R>): Promise<R[]> {
  const answers: R[] = [];
  const until = performance.now() + seconds * 1000;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (performance.now() < until) answers.push(await one());
    }),
  );
  return answers;
}

/** runs `round` (a slice of the measured load) again and again until `seconds` have passed; nothing when 0 */
export async function warmUp(round: () => Promise<unknown>, seconds = WARMUP_SECONDS): Promise<void> {
  const until = performance.now() + seconds * 1000;
  while (performance.now() < until) await round();
}

/** the setup text's words for the warm-up (`how`: the rounds it ran, when they are not the measured load itself) */
export const warmUpText = (how = 'at the same load', seconds = WARMUP_SECONDS) =>
  seconds > 0 ? `after ${seconds} s of warm-up ${how}` : 'without warm-up';

export async function timed<T>(fn: () => Promise<T> | T): Promise<{ ms: number; result: T }> {
  const start = performance.now();
  const result = await fn();
  return { ms: performance.now() - start, result };
}
