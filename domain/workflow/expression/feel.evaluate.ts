import { evaluate, parseExpression } from 'feelin';

/**
 * FEEL through feelin: Zeebe's expressions (`=…`) and Camunda 7 conditions that declare `language="feel"`.
 * feelin answers null with warnings where FEEL yields null (an unknown variable); the caller decides what a
 * null means (a condition must be a boolean).
 */

export class FeelError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'FeelError';
  }
}

/** the FEEL text of an expression: Zeebe's leading `=` removed */
export const feelBody = (text: string): string => {
  const t = text.trim();
  return t.startsWith('=') ? t.slice(1).trim() : t;
};

/** throws a FeelError describing the first syntax error */
export function checkFeel(text: string): void {
  try {
    const tree = parseExpression(feelBody(text), {}, undefined);
    // lezer keeps going past errors: an error node anywhere is a syntax error
    let bad: number | undefined;
    tree.iterate({
      enter(node) {
        if (node.type.isError && bad === undefined) bad = node.from;
      },
    });
    if (bad !== undefined) throw new FeelError(`syntax error at ${bad}`);
  } catch (err) {
    if (err instanceof FeelError) throw err;
    throw new FeelError(err instanceof Error ? err.message : String(err));
  }
}

export function evaluateFeel(text: string, variables: Record<string, unknown>): { value: unknown; warnings: string[] } {
  try {
    const result = evaluate(feelBody(text), variables);
    return { value: result.value, warnings: result.warnings.map((w) => w.message) };
  } catch (err) {
    throw new FeelError(err instanceof Error ? err.message : String(err));
  }
}
