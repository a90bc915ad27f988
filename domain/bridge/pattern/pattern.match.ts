import type { Pattern } from './pattern.types.ts';
import { parsePattern } from './pattern.validate.ts';
import { compileRules } from './rules.compile.ts';

/** Whether one pattern matches one event (compiles a one-rule automaton: the same code path as a bus). */
export const matchPattern = (pattern: Pattern, event: unknown): boolean =>
  compileRules([{ id: 'pattern', pattern }]).match(event).length > 0;

/**
 * test-pattern, like AWS TestEventPattern: the pattern as the client wrote it against an event. Answers
 * { match } or throws the pattern's PatternError (400), exactly as rule creation would.
 */
export const testPattern = (patternJson: unknown, event: unknown): { match: boolean } => ({
  match: matchPattern(parsePattern(patternJson), event),
});
