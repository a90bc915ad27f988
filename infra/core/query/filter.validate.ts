import type { Filter } from '../read-store.port.ts';
import { isPlainObject, kindOf } from './bson-order.ts';
import { parsePath } from './field-path.ts';
import { checkLiteral, failFilter, isOperatorObject } from './filter.literal.ts';
import { compileRegex, regexSource } from './filter.regex.ts';

/*
 * The read store's filter subset, checked and parsed into a small tree that filter.match.ts evaluates.
 * Both adapters validate with this (the MongoDB adapter before it hands the filter to the server), so
 * they reject the same filters with the same messages.
 *
 * Supported: field conditions (a literal, a RegExp, or an object of the operators below) joined by
 * `$and` / `$or`. Anything else throws an Error naming the offending part.
 */

export const FIELD_OPERATORS = new Set([
  '$eq',
  '$ne',
  '$in',
  '$nin',
  '$gt',
  '$gte',
  '$lt',
  '$lte',
  '$regex',
  '$options',
  '$exists',
]);

export type RangeOperator = '$gt' | '$gte' | '$lt' | '$lte';

/** One validated condition on a field. */
export type Condition =
  | { op: '$eq' | '$ne'; value: unknown }
  | { op: '$in' | '$nin'; values: unknown[] }
  | { op: RangeOperator; value: unknown }
  | { op: '$regex'; regex: RegExp }
  | { op: '$exists'; exists: boolean };

/** One entry of a filter object: every condition on one path must hold, or a `$and` / `$or` of sub-filters. */
export type FilterClause =
  | { kind: 'field'; parts: string[]; conditions: Condition[] }
  | { kind: '$and' | '$or'; filters: ParsedFilter[] };

/** A filter object: all of its clauses must hold. */
export type ParsedFilter = FilterClause[];

function parseOperators(path: string, ops: Record<string, unknown>): Condition[] {
  const conditions: Condition[] = [];
  for (const [op, operand] of Object.entries(ops)) {
    const where = `${path}.${op}`;
    if (!op.startsWith('$')) failFilter(`${path}: cannot mix operators and fields ("${op}") in one condition`);
    if (!FIELD_OPERATORS.has(op)) {
      failFilter(`unknown operator ${op} at ${path} (supported: ${[...FIELD_OPERATORS].join(' ')})`);
    }
    switch (op) {
      case '$eq':
      case '$ne':
        if (operand instanceof RegExp) failFilter(`${where}: a RegExp is not an equality value (use $regex)`);
        checkLiteral(operand, where);
        conditions.push({ op, value: operand });
        break;
      case '$in':
      case '$nin':
        if (!Array.isArray(operand)) failFilter(`${where} needs an array`);
        operand.forEach((v, i) => {
          if (v instanceof RegExp) failFilter(`${where}[${i}]: regular expressions in ${op} are not supported`);
          checkLiteral(v, `${where}[${i}]`);
        });
        conditions.push({ op, values: operand });
        break;
      case '$gt':
      case '$gte':
      case '$lt':
      case '$lte': {
        const kind = kindOf(operand);
        if (operand === undefined || !['null', 'number', 'string', 'boolean'].includes(kind)) {
          failFilter(`${where} needs a number, string, boolean or null`);
        }
        if (kind === 'number' && !Number.isFinite(operand))
          failFilter(`${where}: ${String(operand)} is not a finite number`);
        conditions.push({ op, value: operand });
        break;
      }
      case '$regex': {
        const { source, options } = regexSource(operand, ops.$options, where);
        conditions.push({ op, regex: compileRegex(source, options, where) });
        break;
      }
      case '$options':
        // read with its $regex; alone it means nothing
        if (!('$regex' in ops)) failFilter(`${where} without $regex`);
        break;
      case '$exists':
        if (typeof operand !== 'boolean' && typeof operand !== 'number') failFilter(`${where} needs a boolean`);
        conditions.push({ op, exists: Boolean(operand) });
        break;
    }
  }
  return conditions;
}

function parseField(path: string, condition: unknown): FilterClause {
  const parts = parsePath(path);
  if (condition instanceof RegExp) {
    const { source, options } = regexSource(condition, undefined, path);
    return { kind: 'field', parts, conditions: [{ op: '$regex', regex: compileRegex(source, options, path) }] };
  }
  if (isOperatorObject(condition)) return { kind: 'field', parts, conditions: parseOperators(path, condition) };
  checkLiteral(condition, path);
  return { kind: 'field', parts, conditions: [{ op: '$eq', value: condition }] };
}

/** Validates a filter and parses it. Throws an Error naming the offending part. */
export function parseFilter(filter: Filter, where = 'filter'): ParsedFilter {
  if (!isPlainObject(filter)) failFilter(`${where} must be a plain object`);
  const clauses: FilterClause[] = [];
  for (const [key, value] of Object.entries(filter)) {
    if (key === '$and' || key === '$or') {
      if (!Array.isArray(value) || value.length === 0) failFilter(`${key} needs a non-empty array of filters`);
      clauses.push({ kind: key, filters: value.map((f, i) => parseFilter(f as Filter, `${key}[${i}]`)) });
    } else if (key.startsWith('$')) {
      failFilter(`unknown top-level operator ${key} (supported: $and $or)`);
    } else {
      clauses.push(parseField(key, value));
    }
  }
  return clauses;
}

/** Throws an Error with a clear message when `filter` leaves the supported subset or is malformed. */
export function validateFilter(filter: Filter): void {
  parseFilter(filter);
}
