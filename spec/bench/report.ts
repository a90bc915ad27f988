/** Every benchmark prints its figure, its setup and its baseline side by side, with the ratio. */
export type BenchRow = { name: string; figure: number; unit: string; baseline?: { name: string; figure: number }; setup: string };

export function printRow(r: BenchRow): void {
  const fmt = (n: number) => (n >= 100 ? Math.round(n).toLocaleString('en-US') : n.toFixed(2));
  const ratio = r.baseline ? `  ratio ${(r.figure / r.baseline.figure).toFixed(2)}` : '';
  const base = r.baseline ? `  | baseline ${r.baseline.name}: ${fmt(r.baseline.figure)} ${r.unit}` : '';
  console.log(`${r.name}: ${fmt(r.figure)} ${r.unit}${base}${ratio}\n    setup: ${r.setup}`);
}

export const perSecond = (count: number, ms: number) => (count * 1000) / ms;

/**
 * Seconds of the measured load that each side, ours and its baseline alike, runs before its figure is taken
 * (BENCH_WARMUP_SECONDS, default 8): a figure is the server's steady state, not its start. Measured on the
 * hub (two platforms side by side, rounds of 1,000 sends alternated): the first 1,000 sends after start cost
 * about twice the CPU of the sends after 4,000 (2,040 against 1,050 µs), V8 compiling the code path
 * meanwhile; with --no-opt the cost stays flat at 1,600 µs from the first send. A warm-up of 200 requests
 * measured mostly that compilation.
 */
export const WARMUP_SECONDS = Number(process.env.BENCH_WARMUP_SECONDS ?? 8);

/** runs `round` (a slice of the measured load) again and again until `seconds` have passed */
export async function warmUp(round: () => Promise<unknown>, seconds = WARMUP_SECONDS): Promise<void> {
  const until = performance.now() + seconds * 1000;
  do await round();
  while (performance.now() < until);
}

/** the setup text's words for the warm-up */
export const warmUpText = (seconds = WARMUP_SECONDS) => `after ${seconds} s of warm-up at the same load`;

export async function timed<T>(fn: () => Promise<T> | T): Promise<{ ms: number; result: T }> {
  const start = performance.now();
  const result = await fn();
  return { ms: performance.now() - start, result };
}
