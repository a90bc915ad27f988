import { evaluate, parseExpression } from 'feelin';

/**
 * Delivery rule conditions: FEEL expressions (the DMN expression language, evaluated by feelin) over the
 * variables the context definition extracts (`PolicyType = "MOTOR" and Premium > 1000`). A condition that
 * does not parse is refused when the rule is saved (400); at send, a condition matches only when it
 * evaluates to true: false, null (an unknown variable, values that do not compare) and non-booleans do not
 * match, and the reason is kept as a diagnostic.
 */
export const MAX_CONDITION_LENGTH = 4096;

/** null when `expression` is a FEEL expression, else why not (with the position) */
export function checkCondition(expression: string): string | null {
  if (expression.length > MAX_CONDITION_LENGTH) return `must be at most ${MAX_CONDITION_LENGTH} characters`;
  if (expression.trim() === '') return 'must not be blank (omit Condition for a rule that always applies)';
  let tree;
  try {
    tree = parseExpression(expression, {}, undefined);
  } catch (err) {
    return `is not a FEEL expression: ${err instanceof Error ? err.message : String(err)}`;
  }
  let error: number | undefined;
  tree.iterate({
    enter(node) {
      if (error === undefined && node.type.isError) error = node.from;
    },
  });
  if (error !== undefined) return `is not a FEEL expression: syntax error at character ${error + 1}`;
  try {
    evaluate(expression, {});
  } catch (err) {
    return `is not a FEEL expression: ${err instanceof Error ? err.message : String(err)}`;
  }
  return null;
}

export type ConditionResult = { matched: boolean; diagnostic?: string };

/** evaluates `expression` with `variables` as its context; never throws */
export function evaluateCondition(expression: string | undefined, variables: Record<string, unknown>): ConditionResult {
  if (expression === undefined) return { matched: true };
  try {
    const { value, warnings } = evaluate(expression, variables);
    if (value === true) return { matched: true };
    const why =
      warnings.length > 0
        ? warnings.map((w) => w.message).join('; ')
        : value === false
          ? 'the condition is false'
          : `the condition evaluated to ${JSON.stringify(value) ?? 'nothing'}, not true`;
    return { matched: false, diagnostic: why };
  } catch (err) {
    return { matched: false, diagnostic: `the condition failed: ${err instanceof Error ? err.message : String(err)}` };
  }
}
