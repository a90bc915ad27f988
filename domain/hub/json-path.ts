/**
 * The small JSONPath the hub's configuration uses (context aliases, sensitive-field paths): `$`, then
 * member (`.name`, `['name']`, `["name"]`), index (`[0]`) and wildcard (`[*]`, `.*`) steps. No filters,
 * scripts, slices or recursive descent: paths are written by tenant administrators and evaluated on
 * every send, so they are plain data access with a bounded cost.
 */
export type PathStep = { kind: 'member'; name: string } | { kind: 'index'; index: number } | { kind: 'wildcard' };

export const MAX_PATH_LENGTH = 512;
const NAME = /^[A-Za-z_$][A-Za-z0-9_$-]*/;

export type ParsedPath = Readonly<{ ok: true; steps: readonly PathStep[] } | { ok: false; error: string }>;

/** freezes a parse result and everything in it (it is shared by every caller of the same text) */
function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    for (const v of Object.values(value)) deepFreeze(v);
    Object.freeze(value);
  }
  return value;
}

/**
 * What `parse` gives for a text, kept (deeply frozen, shared) for the texts seen last: a tenant's few
 * context and variable paths are parsed again on every send otherwise. At most `max` texts, forgotten all
 * at once.
 */
export function memoizedParse<R extends object>(parse: (text: string) => R, max = 1000): (text: string) => R {
  const kept = new Map<string, R>();
  return (text) => {
    if (typeof text !== 'string') return parse(text);
    let r = kept.get(text);
    if (r === undefined) {
      r = deepFreeze(parse(text));
      if (kept.size >= max) kept.clear();
      kept.set(text, r);
    }
    return r;
  };
}

/** the steps of `path`, or why it is not a path */
export const parsePath = memoizedParse((path: string): ParsedPath => {
  if (typeof path !== 'string' || !path.startsWith('$')) return { ok: false, error: 'must be a path starting with $' };
  if (path.length > MAX_PATH_LENGTH) return { ok: false, error: `must be at most ${MAX_PATH_LENGTH} characters` };
  return parseSteps(path.slice(1), true);
});

/**
 * steps written without the leading `$` (`a.b[0]`, `.a.b`); `leadingDot`: the first member needs its dot
 * (after `$`), else a bare name may start the text (`Payload.` and `Context.` variable paths)
 */
export function parseSteps(
  text: string,
  leadingDot = false,
): { ok: true; steps: PathStep[] } | { ok: false; error: string } {
  const steps: PathStep[] = [];
  let i = 0;
  let first = true;
  while (i < text.length) {
    const rest = text.slice(i);
    if (rest.startsWith('.*')) {
      steps.push({ kind: 'wildcard' });
      i += 2;
    } else if (rest.startsWith('.') || (first && !leadingDot && !rest.startsWith('['))) {
      const from = rest.startsWith('.') ? 1 : 0;
      const m = NAME.exec(rest.slice(from));
      if (m === null) return { ok: false, error: `expected a name at ${i + from}` };
      steps.push({ kind: 'member', name: m[0] });
      i += from + m[0].length;
    } else if (rest.startsWith('[*]')) {
      steps.push({ kind: 'wildcard' });
      i += 3;
    } else if (rest.startsWith("['") || rest.startsWith('["')) {
      const quote = rest[1]!;
      let j = 2;
      let name = '';
      while (j < rest.length && rest[j] !== quote) {
        if (rest[j] === '\\' && j + 1 < rest.length) j++;
        name += rest[j];
        j++;
      }
      if (rest[j] !== quote || rest[j + 1] !== ']') return { ok: false, error: `unterminated quoted name at ${i}` };
      steps.push({ kind: 'member', name });
      i += j + 2;
    } else if (rest.startsWith('[')) {
      const m = /^\[(\d{1,9})\]/.exec(rest);
      if (m === null)
        return {
          ok: false,
          error: `expected [index], [*] or ['name'] at ${i} (filters, slices and scripts are not supported)`,
        };
      steps.push({ kind: 'index', index: Number(m[1]) });
      i += m[0].length;
    } else {
      return { ok: false, error: `unexpected ${JSON.stringify(rest[0])} at ${i}` };
    }
    first = false;
  }
  return { ok: true, steps };
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** every value the steps reach (wildcards fan out), in document order */
export function selectAll(root: unknown, steps: readonly PathStep[]): unknown[] {
  let current: unknown[] = [root];
  for (const step of steps) {
    const next: unknown[] = [];
    for (const v of current) {
      if (step.kind === 'member') {
        if (isObject(v) && Object.hasOwn(v, step.name)) next.push(v[step.name]);
      } else if (step.kind === 'index') {
        if (Array.isArray(v) && step.index < v.length) next.push(v[step.index]);
      } else if (Array.isArray(v)) next.push(...v);
      else if (isObject(v)) next.push(...Object.values(v));
    }
    current = next;
  }
  return current;
}

/** where every value the steps reach is, as member and index steps only, in selectAll's order */
export function locateAll(root: unknown, steps: readonly PathStep[]): PathStep[][] {
  let current: Array<{ value: unknown; at: PathStep[] }> = [{ value: root, at: [] }];
  for (const step of steps) {
    const next: typeof current = [];
    for (const { value: v, at } of current) {
      if (step.kind === 'member') {
        if (isObject(v) && Object.hasOwn(v, step.name)) next.push({ value: v[step.name], at: [...at, step] });
      } else if (step.kind === 'index') {
        if (Array.isArray(v) && step.index < v.length) next.push({ value: v[step.index], at: [...at, step] });
      } else if (Array.isArray(v))
        v.forEach((e, index) => {
          next.push({ value: e, at: [...at, { kind: 'index', index }] });
        });
      else if (isObject(v))
        for (const [name, e] of Object.entries(v)) next.push({ value: e, at: [...at, { kind: 'member', name }] });
    }
    current = next;
  }
  return current.map((c) => c.at);
}

/** the one value the steps reach: undefined when none; several (a wildcard) are the array of them */
export function selectOne(root: unknown, steps: readonly PathStep[]): unknown {
  const all = selectAll(root, steps);
  if (steps.some((s) => s.kind === 'wildcard')) return all.length === 0 ? undefined : all;
  return all[0];
}

/**
 * A copy of `root` in which every value the steps reach is replaced by `fn(value)`; the rest is shared
 * structure (never mutated).
 */
export function replaceAt(root: unknown, steps: readonly PathStep[], fn: (value: unknown) => unknown): unknown {
  if (steps.length === 0) return fn(root);
  const [step, ...rest] = steps as [PathStep, ...PathStep[]];
  if (step.kind === 'member') {
    if (!isObject(root) || !Object.hasOwn(root, step.name)) return root;
    return { ...root, [step.name]: replaceAt(root[step.name], rest, fn) };
  }
  if (step.kind === 'index') {
    if (!Array.isArray(root) || step.index >= root.length) return root;
    const copy = [...root];
    copy[step.index] = replaceAt(root[step.index], rest, fn);
    return copy;
  }
  if (Array.isArray(root)) return root.map((v) => replaceAt(v, rest, fn));
  if (isObject(root)) return Object.fromEntries(Object.entries(root).map(([k, v]) => [k, replaceAt(v, rest, fn)]));
  return root;
}
