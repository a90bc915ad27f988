import type { Filter, Update } from './read-store.port.ts';

/*
 * The read store's filter subset, evaluated in memory with MongoDB's semantics. The embedded adapter runs
 * it as the exact residual of every query (SQLite only narrows with indexes); the MongoDB adapter runs
 * `validateFilter` so both adapters reject the same filters.
 *
 * Path model (MongoDB's "element path" iteration): resolving `a.b.c` yields a list of candidate values,
 * one per branch, with MISSING for a branch where the path ends early.
 *   - a component applied to an array fans out over the elements that are documents (nested arrays and
 *     scalars are skipped, as in MongoDB);
 *   - a numeric component applied to an array also selects that element (`a.1`); the other elements that
 *     are documents are still searched for a field named "1";
 *   - at the end of the path an array is matched as a whole AND element by element (one level only), so
 *     `{tags: 'x'}` matches `tags: ['x', 'y']` and `{m: [1, 2]}` matches `m: [[1, 2], 3]`.
 * Every operator is an existential over the candidates, evaluated on its own: `{a: {$gt: 4, $lt: 2}}`
 * matches `a: [1, 5]` because different elements satisfy each bound. `$ne`/`$nin`/`$exists: false` are
 * the negations of `$eq`/`$in`/`$exists: true` over the whole fan-out.
 */

const MISSING: unique symbol = Symbol('missing');
type Candidate = unknown;

export type Matcher = (doc: unknown) => boolean;

type Kind = 'null' | 'number' | 'string' | 'boolean' | 'array' | 'object' | 'other';

const FIELD_OPERATORS = new Set([
  '$eq', '$ne', '$in', '$nin', '$gt', '$gte', '$lt', '$lte', '$regex', '$options', '$exists',
]);
const REGEX_OPTIONS = /^[imsx]*$/;

export function isPlainObject(v: unknown): v is Record<string, unknown> {
  if (v === null || typeof v !== 'object' || Array.isArray(v)) return false;
  const proto: unknown = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null;
}

function kindOf(v: unknown): Kind {
  if (v === null || v === undefined) return 'null';
  switch (typeof v) {
    case 'number':
      return 'number';
    case 'string':
      return 'string';
    case 'boolean':
      return 'boolean';
    default:
      if (Array.isArray(v)) return 'array';
      return isPlainObject(v) ? 'object' : 'other';
  }
}

/** A canonical array offset ("0", "7", not "07"): the only components MongoDB treats as positions. */
function arrayIndex(component: string): number {
  return /^(0|[1-9][0-9]*)$/.test(component) ? Number(component) : -1;
}

/**
 * Splits a dotted path and rejects what MongoDB does not accept as a query path: empty components
 * (`a..b`, trailing dot) and `$`-prefixed components (positional operators are not in the subset).
 */
export function parsePath(path: string): string[] {
  if (typeof path !== 'string' || path === '') throw new Error('read store: a field path must be a non-empty string');
  const parts = path.split('.');
  for (const p of parts) {
    if (p === '') throw new Error(`read store: invalid field path "${path}" (empty component)`);
    if (p.startsWith('$')) throw new Error(`read store: invalid field path "${path}" ($-prefixed component)`);
  }
  return parts;
}

function resolve(value: unknown, parts: readonly string[], i: number, out: Candidate[]): void {
  if (i === parts.length) {
    out.push(value === undefined ? MISSING : value);
    return;
  }
  const key = parts[i]!;
  if (Array.isArray(value)) {
    const index = arrayIndex(key);
    for (let j = 0; j < value.length; j++) {
      const el: unknown = value[j];
      if (j === index) resolve(el, parts, i + 1, out);
      else if (isPlainObject(el)) resolve(el, parts, i, out);
    }
    return;
  }
  if (isPlainObject(value) && Object.hasOwn(value, key)) resolve(value[key], parts, i + 1, out);
  else out.push(MISSING);
}

/** MongoDB value equality: numbers by value, objects field by field in order, arrays element-wise. */
export function valuesEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!valuesEqual(a[i], b[i])) return false;
    return true;
  }
  if (isPlainObject(a) && isPlainObject(b)) {
    const ka = Object.keys(a);
    const kb = Object.keys(b);
    if (ka.length !== kb.length) return false;
    for (let i = 0; i < ka.length; i++) {
      const k = ka[i]!;
      if (k !== kb[i] || !valuesEqual(a[k], b[k])) return false;
    }
    return true;
  }
  return (a === null || a === undefined) && (b === null || b === undefined);
}

/**
 * Code point order, which is the byte order of UTF-8 (MongoDB's simple collation, SQLite's BINARY).
 * Plain `<` compares UTF-16 units and puts U+E000..U+FFFF after supplementary characters.
 */
export function compareStrings(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    let x = a.charCodeAt(i);
    let y = b.charCodeAt(i);
    if (x === y) continue;
    if (x >= 0xd800) x = x >= 0xe000 ? x - 0x800 : x + 0x2000;
    if (y >= 0xd800) y = y >= 0xe000 ? y - 0x800 : y + 0x2000;
    return x < y ? -1 : 1;
  }
  return a.length === b.length ? 0 : a.length < b.length ? -1 : 1;
}

/* ---------------------------------------------------------------- validation and compilation */

function fail(message: string): never {
  throw new Error(`read store filter: ${message}`);
}

/** A literal operand: JSON values only (no undefined, Date, RegExp, NaN) and no `$`-prefixed keys. */
function checkLiteral(v: unknown, where: string): void {
  switch (typeof v) {
    case 'string':
    case 'boolean':
      return;
    case 'number':
      if (!Number.isFinite(v)) fail(`${where}: ${String(v)} is not a finite number`);
      return;
    case 'undefined':
      fail(`${where}: undefined is not a value (omit the condition, or use $exists: false)`);
  }
  if (v === null) return;
  if (Array.isArray(v)) {
    v.forEach((el, i) => checkLiteral(el, `${where}[${i}]`));
    return;
  }
  if (!isPlainObject(v)) fail(`${where}: only JSON values are supported (got ${Object.prototype.toString.call(v)})`);
  for (const [k, el] of Object.entries(v)) {
    if (k.startsWith('$')) fail(`${where}: unknown operator ${k}`);
    checkLiteral(el, `${where}.${k}`);
  }
}

/** `x` (extended) mode of PCRE, which JavaScript lacks: drop unescaped whitespace and `#` comments. */
function stripExtended(pattern: string): string {
  let out = '';
  let inClass = false;
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]!;
    if (c === '\\') {
      out += c + (pattern[i + 1] ?? '');
      i++;
    } else if (inClass) {
      if (c === ']') inClass = false;
      out += c;
    } else if (c === '[') {
      inClass = true;
      out += c;
    } else if (c === '#') {
      while (i < pattern.length && pattern[i] !== '\n') i++;
    } else if (!/\s/.test(c)) {
      out += c;
    }
  }
  return out;
}

/** `{$regex, $options}` in MongoDB's string form; RegExp flags other than i, m, s (and g, y, dropped) are rejected. */
function regexSource(value: unknown, options: unknown, where: string): { source: string; options: string } {
  if (options !== undefined && (typeof options !== 'string' || !REGEX_OPTIONS.test(options))) {
    fail(`${where}: $options must be a string of the letters i, m, s, x`);
  }
  if (typeof value === 'string') return { source: value, options: (options as string | undefined) ?? '' };
  if (value instanceof RegExp) {
    const flags = value.flags.replace(/[gy]/g, '');
    if (!/^[ims]*$/.test(flags)) fail(`${where}: RegExp flag(s) "${flags}" unsupported (use i, m, s)`);
    if (flags !== '' && options !== undefined) fail(`${where}: options set both in the RegExp and in $options`);
    return { source: value.source, options: flags || ((options as string | undefined) ?? '') };
  }
  return fail(`${where}: $regex must be a string or a RegExp`);
}

function compileRegex(source: string, options: string, where: string): RegExp {
  const flags = [...new Set(options.replace(/x/g, ''))].join('');
  try {
    return new RegExp(options.includes('x') ? stripExtended(source) : source, flags);
  } catch (e) {
    return fail(`${where}: invalid regular expression: ${(e as Error).message}`);
  }
}

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

function rangePredicate(op: string, v: unknown): Predicate {
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

function compileOperators(path: string, ops: Record<string, unknown>): Predicate[] {
  const preds: Predicate[] = [];
  for (const [op, operand] of Object.entries(ops)) {
    const where = `${path}.${op}`;
    if (!op.startsWith('$')) fail(`${path}: cannot mix operators and fields ("${op}") in one condition`);
    if (!FIELD_OPERATORS.has(op)) {
      fail(`unknown operator ${op} at ${path} (supported: ${[...FIELD_OPERATORS].join(' ')})`);
    }
    switch (op) {
      case '$eq':
      case '$ne': {
        if (operand instanceof RegExp) fail(`${where}: a RegExp is not an equality value (use $regex)`);
        checkLiteral(operand, where);
        const p = eqPredicate(operand);
        preds.push(op === '$eq' ? p : not(p));
        break;
      }
      case '$in':
      case '$nin': {
        if (!Array.isArray(operand)) fail(`${where} needs an array`);
        operand.forEach((v, i) => {
          if (v instanceof RegExp) fail(`${where}[${i}]: regular expressions in ${op} are not supported`);
          checkLiteral(v, `${where}[${i}]`);
        });
        const ps = operand.map(eqPredicate);
        const any: Predicate = (cands) => ps.some((p) => p(cands));
        preds.push(op === '$in' ? any : not(any));
        break;
      }
      case '$gt':
      case '$gte':
      case '$lt':
      case '$lte': {
        const kind = kindOf(operand);
        if (operand === undefined || !['null', 'number', 'string', 'boolean'].includes(kind)) {
          fail(`${where} needs a number, string, boolean or null`);
        }
        if (kind === 'number' && !Number.isFinite(operand)) fail(`${where}: ${String(operand)} is not a finite number`);
        preds.push(rangePredicate(op, operand));
        break;
      }
      case '$regex': {
        const { source, options } = regexSource(operand, ops.$options, where);
        preds.push(regexPredicate(compileRegex(source, options, where)));
        break;
      }
      case '$options':
        if (!('$regex' in ops)) fail(`${where} without $regex`);
        break;
      case '$exists':
        if (typeof operand !== 'boolean' && typeof operand !== 'number') fail(`${where} needs a boolean`);
        preds.push(operand ? existsPredicate : not(existsPredicate));
        break;
    }
  }
  return preds;
}

function isOperatorObject(v: unknown): v is Record<string, unknown> {
  return isPlainObject(v) && Object.keys(v).some((k) => k.startsWith('$'));
}

function compileField(path: string, condition: unknown): Matcher {
  const parts = parsePath(path);
  let preds: Predicate[];
  if (condition instanceof RegExp) {
    const { source, options } = regexSource(condition, undefined, path);
    preds = [regexPredicate(compileRegex(source, options, path))];
  } else if (isOperatorObject(condition)) {
    preds = compileOperators(path, condition);
  } else {
    checkLiteral(condition, path);
    preds = [eqPredicate(condition)];
  }
  return (doc) => {
    const cands: Candidate[] = [];
    resolve(doc, parts, 0, cands);
    return preds.every((p) => p(cands));
  };
}

/** Validates and compiles a filter into a reusable matcher. Throws an Error naming the offending part. */
export function compileFilter(filter: Filter, where = 'filter'): Matcher {
  if (!isPlainObject(filter)) fail(`${where} must be a plain object`);
  const matchers: Matcher[] = [];
  for (const [key, value] of Object.entries(filter)) {
    if (key === '$and' || key === '$or') {
      if (!Array.isArray(value) || value.length === 0) fail(`${key} needs a non-empty array of filters`);
      const subs = value.map((f, i) => compileFilter(f as Filter, `${key}[${i}]`));
      matchers.push(key === '$and' ? (doc) => subs.every((m) => m(doc)) : (doc) => subs.some((m) => m(doc)));
    } else if (key.startsWith('$')) {
      fail(`unknown top-level operator ${key} (supported: $and $or)`);
    } else {
      matchers.push(compileField(key, value));
    }
  }
  return (doc) => matchers.every((m) => m(doc));
}

/** Throws an Error with a clear message when `filter` leaves the supported subset or is malformed. */
export function validateFilter(filter: Filter): void {
  compileFilter(filter);
}

export function matchesFilter(doc: unknown, filter: Filter): boolean {
  return compileFilter(filter)(doc);
}

/**
 * The filter as plain JSON, for transports that serialize it (the SQLite residual's parameter, the
 * MongoDB driver, whose BSON encoder maps the JavaScript `g` flag to PCRE `s`): RegExp values become
 * `{$regex, $options}`. Expects a valid filter.
 */
export function normalizeFilter(filter: Filter): Filter {
  const out: Filter = {};
  for (const [key, value] of Object.entries(filter)) {
    if (key === '$and' || key === '$or') {
      out[key] = (value as Filter[]).map(normalizeFilter);
    } else if (value instanceof RegExp) {
      const { source, options } = regexSource(value, undefined, key);
      out[key] = options ? { $regex: source, $options: options } : { $regex: source };
    } else if (isOperatorObject(value) && value.$regex instanceof RegExp) {
      const { source, options } = regexSource(value.$regex, value.$options, key);
      const { $regex: _r, $options: _o, ...rest } = value;
      out[key] = { ...rest, $regex: source, ...(options ? { $options: options } : {}) };
    } else {
      out[key] = value;
    }
  }
  return out;
}

/* ---------------------------------------------------------------- sort order */

const SORT_RANK: Record<Kind, number> = { null: 0, number: 1, string: 2, object: 3, array: 4, boolean: 5, other: 6 };

/** Rank of a value's type in MongoDB's BSON comparison order (missing and null share rank 0). */
export function sortRank(v: unknown): number {
  return SORT_RANK[kindOf(v)];
}

/**
 * MongoDB's BSON comparison order for JSON values: null/missing < numbers < strings < objects < arrays <
 * booleans; numbers by value, strings in code point order, false < true; objects field by field (type of
 * the value, then field name, then value, the shorter object first), arrays element by element.
 * Arrays are compared as whole values: MongoDB's sort by an array field uses its smallest element
 * (ascending) or largest (descending), which this does not replicate — sort on scalar fields.
 */
export function compareForSort(a: unknown, b: unknown): number {
  const ka = kindOf(a);
  const kb = kindOf(b);
  if (ka !== kb) return SORT_RANK[ka] < SORT_RANK[kb] ? -1 : 1;
  switch (ka) {
    case 'null':
      return 0;
    case 'number':
    case 'boolean':
      return (a as number) < (b as number) ? -1 : (a as number) > (b as number) ? 1 : 0;
    case 'string':
      return compareStrings(a as string, b as string);
    case 'array': {
      const x = a as unknown[];
      const y = b as unknown[];
      for (let i = 0; i < Math.min(x.length, y.length); i++) {
        const c = compareForSort(x[i], y[i]);
        if (c !== 0) return c;
      }
      return x.length === y.length ? 0 : x.length < y.length ? -1 : 1;
    }
    case 'object': {
      const x = Object.entries(a as Record<string, unknown>);
      const y = Object.entries(b as Record<string, unknown>);
      for (let i = 0; i < Math.min(x.length, y.length); i++) {
        const [kx, vx] = x[i]!;
        const [ky, vy] = y[i]!;
        const c = Math.sign(sortRank(vx) - sortRank(vy)) || compareStrings(kx, ky) || compareForSort(vx, vy);
        if (c !== 0) return c;
      }
      return x.length === y.length ? 0 : x.length < y.length ? -1 : 1;
    }
    default:
      return compareStrings(String(a), String(b));
  }
}

/* ---------------------------------------------------------------- updates */

const UPDATE_OPERATORS = new Set(['$set', '$unset', '$inc']);

function failUpdate(message: string): never {
  throw new Error(`read store update: ${message}`);
}

function updatePath(path: string, op: string): string[] {
  let parts: string[];
  try {
    parts = parsePath(path);
  } catch (e) {
    return failUpdate(`${op}: ${(e as Error).message}`);
  }
  if (parts[0] === 'id') failUpdate(`${op} ${path}: the id of a document is immutable`);
  return parts;
}

/**
 * Throws when `update` uses anything but `$set $unset $inc`, an invalid path, a path of `id`, an
 * undefined or non-JSON value, a non-number `$inc`, or two paths that overlap (`a` and `a.b`), which
 * MongoDB rejects as a conflict.
 */
export function validateUpdate(update: Update): void {
  if (!isPlainObject(update)) failUpdate('must be a plain object');
  const paths: string[] = [];
  for (const [op, arg] of Object.entries(update)) {
    if (!UPDATE_OPERATORS.has(op)) failUpdate(`unsupported operator ${op} (supported: $set $unset $inc)`);
    if (arg === undefined) continue;
    if (op === '$unset') {
      if (!Array.isArray(arg)) failUpdate('$unset needs an array of paths');
      for (const p of arg) {
        if (typeof p !== 'string') failUpdate('$unset needs an array of paths');
        updatePath(p, op);
        paths.push(p);
      }
      continue;
    }
    if (!isPlainObject(arg)) failUpdate(`${op} needs an object of path: value`);
    for (const [p, v] of Object.entries(arg)) {
      updatePath(p, op);
      paths.push(p);
      if (op === '$inc') {
        if (typeof v !== 'number' || !Number.isFinite(v)) failUpdate(`$inc ${p} needs a finite number`);
      } else {
        try {
          checkLiteral(v, `$set ${p}`);
        } catch (e) {
          failUpdate((e as Error).message.replace(/^read store filter: /, ''));
        }
      }
    }
  }
  for (let i = 0; i < paths.length; i++) {
    for (let j = i + 1; j < paths.length; j++) {
      const [a, b] = [paths[i]!, paths[j]!];
      if (a === b || a.startsWith(`${b}.`) || b.startsWith(`${a}.`)) failUpdate(`paths ${a} and ${b} conflict`);
    }
  }
}

function describe(v: unknown): string {
  return JSON.stringify(v) ?? String(v);
}

/** Walks to the parent of the last component, creating documents for missing components (MongoDB's $set). */
type Container = Record<string, unknown> | unknown[];

function parentFor(root: Record<string, unknown>, parts: readonly string[], path: string): Container {
  let cur: Container = root;
  for (let i = 0; i < parts.length - 1; i++) {
    const key = parts[i]!;
    let next: unknown;
    if (Array.isArray(cur)) {
      const index = arrayIndex(key);
      if (index < 0) failUpdate(`cannot create field "${key}" of ${path} in an array`);
      while (cur.length < index) cur.push(null);
      next = cur[index];
      if (next === undefined) cur[index] = next = {};
    } else {
      next = cur[key];
      if (next === undefined) cur[key] = next = {};
    }
    if (!Array.isArray(next) && !isPlainObject(next)) {
      failUpdate(`cannot create field "${parts[i + 1]}" of ${path} in ${describe(next)}`);
    }
    cur = next;
  }
  return cur;
}

function setAt(parent: Container, key: string, value: unknown, path: string): void {
  if (Array.isArray(parent)) {
    const index = arrayIndex(key);
    if (index < 0) failUpdate(`cannot create field "${key}" of ${path} in an array`);
    while (parent.length < index) parent.push(null);
    parent[index] = value;
  } else {
    parent[key] = value;
  }
}

function getAt(parent: Container, key: string): unknown {
  if (Array.isArray(parent)) {
    const index = arrayIndex(key);
    return index < 0 ? undefined : parent[index];
  }
  return Object.hasOwn(parent, key) ? parent[key] : undefined;
}

function unsetAt(root: Record<string, unknown>, parts: readonly string[]): void {
  let cur: unknown = root;
  for (let i = 0; i < parts.length - 1; i++) {
    if (!Array.isArray(cur) && !isPlainObject(cur)) return;
    cur = getAt(cur, parts[i]!);
  }
  const last = parts[parts.length - 1]!;
  if (Array.isArray(cur)) {
    // MongoDB keeps positions stable: unsetting an element leaves null in its place.
    const index = arrayIndex(last);
    if (index >= 0 && index < cur.length) cur[index] = null;
  } else if (isPlainObject(cur)) {
    delete cur[last];
  }
}

/** Compares paths component by component, numeric components by number: MongoDB's order of applying updates. */
function comparePaths(a: string[], b: string[]): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    const x = a[i]!;
    const y = b[i]!;
    if (x === y) continue;
    const nx = arrayIndex(x);
    const ny = arrayIndex(y);
    if (nx >= 0 && ny >= 0) return nx - ny;
    return compareStrings(x, y);
  }
  return a.length - b.length;
}

/**
 * Returns a new document with `update` applied (the input is not modified). `$set` creates missing
 * intermediate documents and pads arrays with null up to a numeric position; `$unset` of an array
 * element sets it to null; `$inc` of a missing field sets it. Like MongoDB (5.0+), fields are updated in
 * path order, so new fields are appended in lexicographic order. Throws on an invalid update, on a path
 * through a scalar, and on `$inc` of a non-number.
 */
export function applyUpdate<T extends Record<string, unknown>>(doc: T, update: Update): T {
  validateUpdate(update);
  const out = structuredClone(doc) as Record<string, unknown>;
  type Step = { parts: string[]; path: string; run(parent: Container, key: string): void };
  const steps: Step[] = [];
  for (const [path, value] of Object.entries(update.$set ?? {})) {
    steps.push({
      parts: parsePath(path),
      path,
      run: (parent, key) => setAt(parent, key, structuredClone(value), path),
    });
  }
  for (const [path, by] of Object.entries(update.$inc ?? {})) {
    steps.push({
      parts: parsePath(path),
      path,
      run: (parent, key) => {
        const current = getAt(parent, key);
        if (current !== undefined && typeof current !== 'number') {
          failUpdate(`cannot $inc ${path}: ${describe(current)} is not a number`);
        }
        setAt(parent, key, (current ?? 0) + by, path);
      },
    });
  }
  for (const path of update.$unset ?? []) steps.push({ parts: parsePath(path), path, run: () => {} });
  steps.sort((a, b) => comparePaths(a.parts, b.parts));
  const unset = new Set(update.$unset ?? []);
  for (const step of steps) {
    if (unset.has(step.path)) unsetAt(out, step.parts);
    else step.run(parentFor(out, step.parts, step.path), step.parts[step.parts.length - 1]!);
  }
  return out as T;
}
