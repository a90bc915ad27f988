import type { Filter } from '../read-store.port.ts';
import { kindOf, valuesEqual } from './bson-order.ts';
import { type Candidate, MISSING, resolvePath } from './field-path.ts';
import {
  type Condition,
  type FilterClause,
  type ParsedFilter,
  parseFilter,
  type RangeOperator,
} from './filter.validate.ts';
import { compareForSort } from './sort.compare.ts';

/*
 * A validated filter evaluated in memory with MongoDB's semantics. The embedded adapter runs it as the
 * exact residual of every query (SQLite only narrows with indexes).
 *
 * Each field condition sees the candidates of its path (field-path.ts). At the end of the path an array is
 * matched as a whole AND element by element (one level only), so `{tags: 'x'}` matches `tags: ['x', 'y']`
 * and `{m: [1, 2]}` matches `m: [[1, 2], 3]`. Every operator is an existential over the candidates,
 * evaluated on its own: `{a: {$gt: 4, $lt: 2}}` matches `a: [1, 5]` because different elements satisfy
 * each bound. `$ne`/`$nin`/`$exists: false` are the negations of `$eq`/`$in`/`$exists: true` over the whole
 * fan-out.
 */

export type Matcher = (doc: unknown) => boolean;

type Predicate = (cands: readonly Candidate[]) => boolean;

function eqPredicate(v: unknown): Predicate {
  const test = (x: unknown) => valuesEqual(x, v);
  return (cands) => {
    for (const c of cands) {
      if (c === MISSING) {
        if (v === null) return true;
      } else if (test(c) || (Array.isArray(c) && c.some(test))) return true;
    }
    return false;
  };
}

function rangePredicate(op: RangeOperator, v: unknown): Predicate {
  const kind = kindOf(v);
  const accept = (cmp: number) =>
    op === '$gt' ? cmp > 0 : op === '$gte' ? cmp >= 0 : op === '$lt' ? cmp < 0 : cmp <= 0;
  // Only values of the operand's kind compare (MongoDB's type bracketing): `$gt: 5` ignores strings.
  const test = (x: unknown) => kindOf(x) === kind && accept(compareForSort(x, v));
  const missingMatches = v === null && (op === '$gte' || op === '$lte');
  return (cands) => {
    for (const c of cands) {
      if (c === MISSING) {
        if (missingMatches) return true;
      } else if (test(c) || (Array.isArray(c) && c.some(test))) return true;
    }
    return false;
  };
}

function regexPredicate(re: RegExp): Predicate {
  const test = (x: unknown) => typeof x === 'string' && re.test(x);
  return (cands) => cands.some((c) => test(c) || (Array.isArray(c) && c.some(test)));
}

const existsPredicate: Predicate = (cands) => cands.some((c) => c !== MISSING);

const not =
  (p: Predicate): Predicate =>
  (cands) =>
    !p(cands);

const anyOf =
  (ps: Predicate[]): Predicate =>
  (cands) =>
    ps.some((p) => p(cands));

function predicateOf(c: Condition): Predicate {
  switch (c.op) {
    case '$eq':
      return eqPredicate(c.value);
    case '$ne':
      return not(eqPredicate(c.value));
    case '$in':
      return anyOf(c.values.map(eqPredicate));
    case '$nin':
      return not(anyOf(c.values.map(eqPredicate)));
    case '$gt':
    case '$gte':
    case '$lt':
    case '$lte':
      return rangePredicate(c.op, c.value);
    case '$regex':
      return regexPredicate(c.regex);
    case '$exists':
      return c.exists ? existsPredicate : not(existsPredicate);
  }
}

function clauseMatcher(clause: FilterClause): Matcher {
  switch (clause.kind) {
    case 'field': {
      const { parts } = clause;
      const preds = clause.conditions.map(predicateOf);
      return (doc) => {
        const cands: Candidate[] = [];
        resolvePath(doc, parts, 0, cands);
        return preds.every((p) => p(cands));
      };
    }
    case '$and': {
      const subs = clause.filters.map(matcherOf);
      return (doc) => subs.every((m) => m(doc));
    }
    case '$or': {
      const subs = clause.filters.map(matcherOf);
      return (doc) => subs.some((m) => m(doc));
    }
  }
}

function matcherOf(filter: ParsedFilter): Matcher {
  const matchers = filter.map(clauseMatcher);
  return (doc) => matchers.every((m) => m(doc));
}

/** Validates and compiles a filter into a reusable matcher. Throws an Error naming the offending part. */
export function compileFilter(filter: Filter, where = 'filter'): Matcher {
  return matcherOf(parseFilter(filter, where));
}

export function matchesFilter(doc: unknown, filter: Filter): boolean {
  return compileFilter(filter)(doc);
}
