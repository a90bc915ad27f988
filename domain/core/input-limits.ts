/**
 * Input limits: how deep, how wide and how long caller-supplied JSON may be. They keep
 * pathological data out of the log and the read models before anything is stored: without them a value
 * nested 999 levels deep is accepted and then no projection can store it (SQLite's JSON functions give up
 * at 1000 levels, MongoDB's BSON at 100), while 5,000 levels overflow the stack of every recursive
 * function that walks it (JSON.stringify, the pattern validator, canonicalJson) and answer 500.
 *
 * Where they are checked (docs/architecture.md#input-limits lists the figures):
 * - every JSON request body, right after parsing (http/core/body-limits.ts): REQUEST_BODY_LIMITS, 400
 *   REQUEST.LIMIT_EXCEEDED;
 * - event data at putEvent/putEvents (put-event.validate.ts, per entry of a batch): EVENT_DATA_LIMITS;
 * - rule patterns, at rule creation/change and test-pattern (pattern/pattern.validate.ts): PATTERN_LIMITS;
 * - schema registry documents (openapi-schema.document.ts, registryDocumentProblems):
 *   SCHEMA_DOCUMENT_LIMITS.
 *
 * The checker itself is iterative (an explicit stack, no recursion), so a value nested 100,000 levels deep
 * is measured, and refused, without overflowing anything. It stops at the first violation, in document
 * order, and names it with its path.
 *
 * Recursive code in domain/ that walks caller data, and what keeps it safe:
 * - bridge/schema.decider.ts canonicalJson: iterative (it runs before the document's limits are checked);
 * - bridge/pattern/pattern.validate.ts parseObject/parseValue: guarded, PATTERN_LIMITS checked first;
 * - bridge/pattern/pattern.steps.ts stepsOf: walks a parsed pattern, guarded by PATTERN_LIMITS;
 * - bridge/pattern/event.flatten.ts walk: walks event data along the rules' paths (guarded by
 *   PATTERN_LIMITS) and into nested arrays (guarded by EVENT_DATA_LIMITS, at putEvent and for each
 *   field of test-pattern's event, http/bridge/rules.router.ts);
 * - bridge/openapi-schema.convert.ts convertNode: guarded by SCHEMA_DOCUMENT_LIMITS, and by its own
 *   Schema Object depth cap for documents stored before the limits;
 * - bridge/conversion (jsonpath-plus queries, template values) walks event data: EVENT_DATA_LIMITS;
 * - JSON.stringify (native, recursive) of bodies, events, rule targets' constants: guarded by
 *   REQUEST_BODY_LIMITS and the above.
 * Other recursions in domain/ (numeric interval tree, wildcard automaton closures) follow structures this
 * code builds, whose depth does not follow the caller's nesting.
 */

export type JsonLimits = {
  /** containers nested in each other: `{}` and `[]` are 1 level, `{"a":{"b":1}}` is 2; scalars add none */
  readonly maxDepth: number;
  /** keys of one object */
  readonly maxKeys: number;
  /** keys of every object of the value together */
  readonly maxTotalKeys: number;
  /** elements of one array */
  readonly maxArrayLength: number;
  /** characters (UTF-16 code units, as `length` counts) of one string value */
  readonly maxStringLength: number;
  /** characters of one object key */
  readonly maxKeyLength: number;
};

export type LimitName = 'depth' | 'keys' | 'totalKeys' | 'arrayLength' | 'stringLength' | 'keyLength';

/** Where in the value: object keys and array indexes from the root. */
export type LimitPath = ReadonlyArray<string | number>;

export type LimitViolation = {
  limit: LimitName;
  /** the limit's figure */
  max: number;
  /** the offending container, string or key (for keyLength: the path ends with the key) */
  path: LimitPath;
  /** what is wrong, without the path: `nests deeper than 32 levels` */
  message: string;
};

/** Every JSON request body (the shared HTTP layer checks it right after parsing). */
export const REQUEST_BODY_LIMITS: JsonLimits = {
  maxDepth: 64,
  maxKeys: 10_000,
  maxTotalKeys: 100_000,
  maxArrayLength: 100_000,
  maxStringLength: 1024 * 1024,
  maxKeyLength: 1024,
};

/** An event's `data` (the event itself is at most 256 KiB, which bounds the counts further). */
export const EVENT_DATA_LIMITS: JsonLimits = {
  maxDepth: 32,
  maxKeys: 10_000,
  maxTotalKeys: 100_000,
  maxArrayLength: 100_000,
  maxStringLength: 256 * 1024,
  maxKeyLength: 1024,
};

/** A rule's event pattern (and test-pattern's). */
export const PATTERN_LIMITS: JsonLimits = {
  maxDepth: 32,
  maxKeys: 1_000,
  maxTotalKeys: 10_000,
  maxArrayLength: 10_000,
  maxStringLength: 4_096,
  maxKeyLength: 1024,
};

/** A schema registry document (an OpenAPI 3.0 document; at most 256 Ki characters as canonical JSON). */
export const SCHEMA_DOCUMENT_LIMITS: JsonLimits = {
  maxDepth: 32,
  maxKeys: 10_000,
  maxTotalKeys: 100_000,
  maxArrayLength: 10_000,
  maxStringLength: 256 * 1024,
  maxKeyLength: 1024,
};

/** How each limit is named in messages (docs/architecture.md#input-limits tabulates them). */
export const LIMIT_LABELS: Record<LimitName, string> = {
  depth: 'nesting depth',
  keys: 'keys per object',
  totalKeys: 'keys in total',
  arrayLength: 'array length',
  stringLength: 'string length',
  keyLength: 'key length',
};

/**
 * The first place where `value` exceeds `limits` (depth first, in document order), or null when it fits.
 * Iterative: an explicit stack with one entry per level (parallel arrays: the container, its keys or null
 * for an array, its size, the next child), and the walk stops one level past `maxDepth`, so any input,
 * however deep, is measured in bounded stack space. The path is only built for a violation, from each
 * level's current child; the common case allocates nothing but the keys lists.
 */
export function checkJsonLimits(value: unknown, limits: JsonLimits): LimitViolation | null {
  const { maxDepth, maxKeys, maxTotalKeys, maxArrayLength, maxStringLength, maxKeyLength } = limits;
  const containers: unknown[] = [];
  const keyLists: Array<string[] | null> = [];
  const sizes: number[] = [];
  const nexts: number[] = [];
  let top = -1; // the deepest level being walked
  let totalKeys = 0;
  let v: unknown = value;

  const violation = (limit: LimitName, max: number, message: string): LimitViolation => {
    const path: Array<string | number> = [];
    for (let d = 0; d <= top; d++) {
      const keys = keyLists[d]!;
      path.push(keys === null ? nexts[d]! - 1 : keys[nexts[d]! - 1]!);
    }
    return { limit, max, path, message };
  };

  for (;;) {
    // examine v, the root or the current child of level `top`
    if (typeof v === 'string') {
      if (v.length > maxStringLength)
        return violation(
          'stringLength',
          maxStringLength,
          `is a string of ${v.length} characters, more than ${maxStringLength}`,
        );
    } else if (typeof v === 'object' && v !== null) {
      if (top + 1 >= maxDepth) return violation('depth', maxDepth, `nests deeper than ${maxDepth} levels`);
      let keys: string[] | null = null;
      let size: number;
      if (Array.isArray(v)) {
        size = v.length;
        if (size > maxArrayLength)
          return violation(
            'arrayLength',
            maxArrayLength,
            `is an array of ${size} elements, more than ${maxArrayLength}`,
          );
      } else {
        keys = Object.keys(v);
        size = keys.length;
        if (size > maxKeys) return violation('keys', maxKeys, `is an object of ${size} keys, more than ${maxKeys}`);
        totalKeys += size;
        if (totalKeys > maxTotalKeys)
          return violation(
            'totalKeys',
            maxTotalKeys,
            `brings the number of keys to more than ${maxTotalKeys} in total`,
          );
      }
      top++;
      containers[top] = v;
      keyLists[top] = keys;
      sizes[top] = size;
      nexts[top] = 0;
    }
    // the next child: of the deepest level that has one left
    while (top >= 0 && nexts[top]! >= sizes[top]!) top--;
    if (top < 0) return null;
    const i = nexts[top]!++;
    const keys = keyLists[top]!;
    if (keys === null) v = (containers[top] as unknown[])[i];
    else {
      const key = keys[i]!;
      // its path ends with the key
      if (key.length > maxKeyLength)
        return violation('keyLength', maxKeyLength, `has a key of ${key.length} characters, more than ${maxKeyLength}`);
      v = (containers[top] as Record<string, unknown>)[key];
    }
  }
}

const MAX_SHOWN_PATH = 300;

/**
 * A path as dotted text (`data.items.0.name`), as the 400s name fields; `root` goes first when given.
 * A very long path (deep nesting of long keys) keeps its start and end around an ellipsis.
 */
export function dottedPath(path: LimitPath, root = ''): string {
  const text = [...(root === '' ? [] : [root]), ...path.map(String)].join('.');
  if (text.length <= MAX_SHOWN_PATH) return text;
  const half = Math.floor((MAX_SHOWN_PATH - 1) / 2);
  return `${text.slice(0, half)}…${text.slice(text.length - half)}`;
}

/** `data.a.a nests deeper than 32 levels (limit: nesting depth 32)`; the root reads `the value` */
export function describeViolation(v: LimitViolation, root = ''): string {
  const where = dottedPath(v.path, root);
  return `${where === '' ? 'the value' : where} ${v.message} (limit: ${LIMIT_LABELS[v.limit]} ${v.max})`;
}
