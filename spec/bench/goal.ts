/**
 * What a benchmark row must reach, as data, so that a run can say whether it is met: a bound on the row's
 * figure (in its unit) or on its ratio to its baseline. `text` replaces the generated wording.
 */
export type Goal = { of: 'ratio' | 'figure'; op: '>=' | '>' | '<=' | '<'; value: number; text?: string };

/** the part of a row a goal is measured on */
export type Measured = { figure: number; unit: string; baseline?: { figure: number } };

/** figure / baseline (NaN without a baseline) */
export const ratioOf = (row: Measured): number => (row.baseline ? row.figure / row.baseline.figure : Number.NaN);

/** whether `row` meets `goal`; a figure or ratio that is not a number meets none */
export function goalMet(goal: Goal, row: Measured): boolean {
  const x = goal.of === 'ratio' ? ratioOf(row) : row.figure;
  switch (goal.op) {
    case '>=':
      return x >= goal.value;
    case '>':
      return x > goal.value;
    case '<=':
      return x <= goal.value;
    case '<':
      return x < goal.value;
    default: {
      const never: never = goal.op;
      return never;
    }
  }
}

const SIGN: Record<Goal['op'], string> = { '>=': '≥', '>': '>', '<=': '≤', '<': '<' };

/** the goal in words: `ratio ≥ 0.5`, `≤ 2 ms` */
export function goalText(goal: Goal, unit: string): string {
  if (goal.text !== undefined) return goal.text;
  const value = goal.value.toLocaleString('en-US', { maximumFractionDigits: 6 });
  return goal.of === 'ratio' ? `ratio ${SIGN[goal.op]} ${value}` : `${SIGN[goal.op]} ${value} ${unit}`;
}

const OPS: ReadonlyArray<Goal['op']> = ['>=', '>', '<=', '<'];

/** a goal read back from JSON, or undefined when `v` is not one */
export function parseGoal(v: unknown): Goal | undefined {
  if (typeof v !== 'object' || v === null) return undefined;
  const g = v as Record<string, unknown>;
  if (g.of !== 'ratio' && g.of !== 'figure') return undefined;
  const op = OPS.find((o) => o === g.op);
  if (op === undefined || typeof g.value !== 'number' || (g.text !== undefined && typeof g.text !== 'string'))
    return undefined;
  return { of: g.of, op, value: g.value, ...(g.text === undefined ? {} : { text: g.text }) };
}
