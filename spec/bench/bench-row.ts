import type { Goal } from './goal.ts';

/**
 * One benchmark's result: its figure, its setup and its baseline side by side; `goal`, when the row has one,
 * says what it must reach. Printed by printRow and written by npm run bench into docs/benchmarks.md.
 */
export type BenchRow = {
  name: string;
  figure: number;
  unit: string;
  baseline?: { name: string; figure: number };
  setup: string;
  goal?: Goal;
};
