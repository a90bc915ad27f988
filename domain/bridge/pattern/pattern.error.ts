import { DomainError } from '../../core/domain-error.ts';

/** Where in the pattern JSON a problem sits: object keys and array indexes from the root. */
export type JsonPath = ReadonlyArray<string | number>;

/**
 * A pattern that cannot be accepted: answered as 400 at rule creation and by test-pattern. `path` names the
 * offending element (`data.amount[1]`, `["a.b"].numeric[2]`; the empty string is the pattern itself).
 */
export class PatternError extends DomainError {
  readonly path: string;
  readonly reason: string;

  constructor(path: JsonPath, reason: string) {
    const at = formatJsonPath(path);
    super('PATTERN.INVALID', 400, at === '' ? `Invalid pattern: ${reason}` : `Invalid pattern at ${at}: ${reason}`, {
      path: at,
      reason,
    });
    this.name = 'PatternError';
    this.path = at;
    this.reason = reason;
  }
}

export const isPatternError = (e: unknown): e is PatternError => e instanceof PatternError;

// Plain keys print dotted; any other key prints bracketed and quoted, so a literal "a.b" key never reads as a path.
const PLAIN_KEY = /^[A-Za-z0-9_$-]+$/;

export function formatJsonPath(path: JsonPath): string {
  let out = '';
  for (const seg of path) {
    if (typeof seg === 'number') out += `[${seg}]`;
    else if (PLAIN_KEY.test(seg)) out += out === '' ? seg : `.${seg}`;
    else out += `[${JSON.stringify(seg)}]`;
  }
  return out;
}
