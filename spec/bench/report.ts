/** Every benchmark prints its figure, its setup and its baseline side by side, with the ratio. */
export type BenchRow = { name: string; figure: number; unit: string; baseline?: { name: string; figure: number }; setup: string };

export function printRow(r: BenchRow): void {
  const fmt = (n: number) => (n >= 100 ? Math.round(n).toLocaleString('en-US') : n.toFixed(2));
  const ratio = r.baseline ? `  ratio ${(r.figure / r.baseline.figure).toFixed(2)}` : '';
  const base = r.baseline ? `  | baseline ${r.baseline.name}: ${fmt(r.baseline.figure)} ${r.unit}` : '';
  console.log(`${r.name}: ${fmt(r.figure)} ${r.unit}${base}${ratio}\n    setup: ${r.setup}`);
}

export const perSecond = (count: number, ms: number) => (count * 1000) / ms;

export async function timed<T>(fn: () => Promise<T> | T): Promise<{ ms: number; result: T }> {
  const start = performance.now();
  const result = await fn();
  return { ms: performance.now() - start, result };
}
