/** Every benchmark prints its figure, its setup and its baseline side by side, with the ratio. */
export type BenchRow = { name: string; figure: number; unit: string; baseline?: { name: string; figure: number }; setup: string };

export function printRow(r: BenchRow): void {
  const fmt = (n: number) => (n >= 100 ? Math.round(n).toLocaleString('en-US') : n.toFixed(2));
  const ratio = r.baseline ? `  ratio ${(r.figure / r.baseline.figure).toFixed(2)}` : '';
  const base = r.baseline ? `  | baseline ${r.baseline.name}: ${fmt(r.baseline.figure)} ${r.unit}` : '';
  console.log(`${r.name}: ${fmt(r.figure)} ${r.unit}${base}${ratio}\n    setup: ${r.setup}`);
}

export const perSecond = (count: number, ms: number) => (count * 1000) / ms;

/** the value at quantile `q` (0.5: p50, 0.99: p99) of ascending `sorted` (0 when empty) */
export const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;

/** the median of `xs` (of an even count, the mean of the middle two) */
export const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 === 1 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};

/**
 * Seconds of the measured load that each side, ours and its baseline alike, runs before its figure is taken
 * (BENCH_WARMUP_SECONDS, default 8; 0: none), so that a figure is taken after the code path has warmed up.
 * Measured on the hub (two platforms side by side, rounds of 1,000 sends alternated, `/proc` CPU per round):
 * the first 1,000 sends after start cost 2,040 µs of CPU each, the sends after 4,000 1,050–1,330 µs; with
 * --no-opt (no optimizing compiler) the cost is flat at about 1,600 µs from the first send, so most of the
 * fall is V8 optimizing the path. The load generator's direct POST loop warms up too (2,138–2,745 posts/s
 * after 200 requests, 4,526–5,299 after 8 s). A warm-up of 200 requests left the hub's measured 2,000 sends,
 * and the POST loop beside them, partly cold.
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
export const warmUpText = (how = 'at the same load', seconds = WARMUP_SECONDS) => (seconds > 0 ? `after ${seconds} s of warm-up ${how}` : 'without warm-up');

export async function timed<T>(fn: () => Promise<T> | T): Promise<{ ms: number; result: T }> {
  const start = performance.now();
  const result = await fn();
  return { ms: performance.now() - start, result };
}
