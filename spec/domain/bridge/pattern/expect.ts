// Semantics specs check the compiled matcher and the naive oracle together: both must give the decided answer.
import * as assert from 'uvu/assert';
import { matchPattern } from '../../../../domain/bridge/pattern/pattern.match.ts';
import { parsePattern } from '../../../../domain/bridge/pattern/pattern.validate.ts';
import { naiveMatch } from './naive-oracle.ts';

/** Pattern and event as JSON text (so numbers keep their notation until JSON.parse) or as values. */
export function expectMatch(pattern: unknown, event: unknown, expected: boolean): void {
  const p = parsePattern(typeof pattern === 'string' ? JSON.parse(pattern) : pattern);
  const e: unknown = typeof event === 'string' ? JSON.parse(event) : event;
  const what = `pattern ${typeof pattern === 'string' ? pattern : JSON.stringify(pattern)} event ${typeof event === 'string' ? event : JSON.stringify(event)}`;
  assert.is(matchPattern(p, e), expected, `compiled: ${what}`);
  assert.is(naiveMatch(p, e), expected, `oracle: ${what}`);
}
export const matches = (pattern: unknown, event: unknown) => expectMatch(pattern, event, true);
export const misses = (pattern: unknown, event: unknown) => expectMatch(pattern, event, false);
