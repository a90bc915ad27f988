import type { StringMatcher, WildcardPart } from './pattern.types.ts';

/**
 * Prefix, suffix and wildcard matchers of one field, compiled into one automaton: a trie over code points in
 * which `*` is a node that loops on every character and `?` an edge taking any one character. prefix "ab" is
 * the wildcard ab*, suffix "ab" is *ab. Running a string costs its length times the few nodes alive at once
 * (a trie shares every common start), whatever the number of matchers; it is the wildcard half of
 * event-ruler's byte machine. Strings are sequences of Unicode code points (a lone surrogate counts as one),
 * so `?` takes "é" or "😀" whole.
 */
type Node<T> = {
  readonly next: Map<number, Node<T>>;
  one: Node<T> | undefined;
  star: Node<T> | undefined;
  readonly loops: boolean;
  readonly targets: T[];
  /** This node and the star nodes reachable without reading a character (a star may match nothing). */
  closure: Node<T>[] | undefined;
  closureVersion: number;
  seen: number;
};

const node = <T>(loops: boolean): Node<T> => ({
  next: new Map(),
  one: undefined,
  star: undefined,
  loops,
  targets: [],
  closure: undefined,
  closureVersion: -1,
  seen: 0,
});

export type Token =
  | { readonly kind: 'char'; readonly cp: number }
  | { readonly kind: 'one' }
  | { readonly kind: 'any' };

const chars = (text: string): Token[] =>
  Array.from(text, (c) => ({ kind: 'char', cp: c.codePointAt(0) ?? 0 }) as const);

export function tokensOfParts(parts: readonly WildcardPart[]): Token[] {
  return parts.flatMap((p): Token[] => {
    switch (p.kind) {
      case 'text':
        return chars(p.text);
      case 'any':
        return [{ kind: 'any' }];
      case 'one':
        return [{ kind: 'one' }];
      default: {
        const never: never = p;
        return never;
      }
    }
  });
}

/** The tokens of a prefix, suffix or wildcard matcher (equals-ignore-case is not an automaton matcher). */
export function tokensOf(m: Exclude<StringMatcher, { kind: 'equals-ignore-case' }>): Token[] {
  switch (m.kind) {
    case 'prefix':
      return [...chars(m.value), { kind: 'any' }];
    case 'suffix':
      return [{ kind: 'any' }, ...chars(m.value)];
    case 'wildcard':
      return tokensOfParts(m.parts);
    default: {
      const never: never = m;
      return never;
    }
  }
}

export type StringAutomaton<T> = {
  add(tokens: readonly Token[], target: T): void;
  /** Calls `hit` with the target of every matcher the string matches (a target may come more than once). */
  run(s: string, hit: (target: T) => void): void;
};

export function createStringAutomaton<T>(): StringAutomaton<T> {
  const root = node<T>(false);
  let generation = 0;
  let version = 0; // bumped by add(): closures computed before are stale
  let current: Node<T>[] = [];
  let following: Node<T>[] = [];

  const closureOf = (n: Node<T>): Node<T>[] => {
    if (!n.closure || n.closureVersion !== version) {
      n.closure = n.star ? [n, ...closureOf(n.star)] : [n];
      n.closureVersion = version;
    }
    return n.closure;
  };
  const enter = (n: Node<T>, into: Node<T>[]) => {
    for (const c of closureOf(n)) {
      if (c.seen !== generation) {
        c.seen = generation;
        into.push(c);
      }
    }
  };

  return {
    add(tokens, target) {
      version++;
      let at = root;
      for (const t of tokens) {
        switch (t.kind) {
          case 'char': {
            let child = at.next.get(t.cp);
            if (!child) at.next.set(t.cp, (child = node(false)));
            at = child;
            break;
          }
          case 'one':
            at = at.one ??= node(false);
            break;
          case 'any':
            at = at.star ??= node(true);
            break;
          default: {
            const never: never = t;
            return never;
          }
        }
      }
      at.targets.push(target);
    },
    run(s, hit) {
      // `seen` marks a node as already queued for the position being computed; one generation per position.
      generation++;
      current.length = 0;
      enter(root, current);
      for (const ch of s) {
        if (current.length === 0) return;
        const cp = ch.codePointAt(0) ?? 0;
        generation++;
        following.length = 0;
        for (const n of current) {
          const child = n.next.get(cp);
          if (child) enter(child, following);
          if (n.one) enter(n.one, following);
          if (n.loops) enter(n, following);
        }
        [current, following] = [following, current];
      }
      for (const n of current) for (const t of n.targets) hit(t);
    },
  };
}
