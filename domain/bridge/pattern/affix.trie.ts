/**
 * All prefix (or all suffix) matchers of one field in one trie, as quamina does: the value is walked once,
 * from its start for prefixes and from its end for suffixes, and every node the walk passes holds the targets
 * of the matchers that end there. A value of length n costs at most n child lookups whatever the number of
 * matchers, and the walk stops at the first character no matcher continues with (four-digit prefixes over a
 * seven-digit value: four lookups). The general string automaton (string.automaton.ts) keeps a set of live
 * nodes per character; a trie needs only the one node it is at.
 *
 * The trie is over UTF-16 code units (charCodeAt, no string iterator), but prefixes and suffixes compare
 * code points (a lone surrogate counts as one). The two agree except where a matcher ends in the middle of a
 * surrogate pair of the value: prefix "\ud83d" against "😀" ("\ud83d\ude00"), or suffix "\ude00" against it.
 * Those are the only misalignments decoding can make (a high surrogate pairs with the unit after it, nothing
 * else looks ahead), so a node's targets are skipped when the walk stands between the two halves of a pair.
 *
 * Layout: matchers are added to a trie of Maps; the first walk after an add compiles it (compile() below)
 * into one Int32Array of nodes, breadth first, where the children of a node over a narrow range of code
 * units (digits, letters) are consecutive nodes, one per code unit of the range (the missing ones empty): the
 * child for a unit is found by arithmetic, and a step costs the cache line of one node. With 10,000 rules most
 * of the trie is cold memory, where a node object, a Map and its hash table cost several.
 */
export type AffixTrie<T> = {
  add(text: string, target: T): void;
  /** Calls `hit` with the target of every matcher that is a prefix (suffix) of `s`, shortest first. */
  collect(s: string, hit: (target: T) => void): void;
};

/** Build-time node: children by code unit, as added, and the targets of the matchers that end here. */
type BuildNode<T> = { children: Map<number, BuildNode<T>> | undefined; targets: T[] | undefined };

// A node's numbers in Compiled.nodes, NODE apart.
const NODE = 4;
const LO = 0; // the code unit of the first child
const SPAN = 1; // how many children (0: a leaf), or WIDE when the children are in Compiled.wide
const FIRST = 2; // the first child's node number: the child for unit u is FIRST + u - LO
const TARGETS = 3; // where the targets start in Compiled.targets; they end where the next node's start
const WIDE = -1;
// Children are laid out densely when that takes at most DENSITY nodes per child (or SMALL in all).
const DENSITY = 4;
const SMALL = 16;

type Compiled<T> = {
  readonly nodes: Int32Array; // NODE numbers per node, root first, and one extra TARGETS entry at the end
  readonly wide: ReadonlyMap<number, ReadonlyMap<number, number>>; // node -> code unit -> child, for WIDE nodes
  readonly targets: readonly T[];
};

const isHigh = (unit: number) => unit >= 0xd800 && unit <= 0xdbff;
const isLow = (unit: number) => unit >= 0xdc00 && unit <= 0xdfff;

/** Numbers the nodes breadth first (the hot top levels sit together) and lays them out (iterative: a trie is as deep as its longest text). */
function compile<T>(root: BuildNode<T>): Compiled<T> {
  const order: BuildNode<T>[] = [root];
  const info: number[] = [];
  const wide = new Map<number, Map<number, number>>();
  const targets: T[] = [];
  for (let k = 0; k < order.length; k++) {
    const node = order[k] as BuildNode<T>;
    const at = k * NODE;
    info[at + TARGETS] = targets.length;
    if (node.targets) targets.push(...node.targets);
    const children = node.children;
    info[at + LO] = 0;
    info[at + SPAN] = 0;
    info[at + FIRST] = 0;
    if (!children || children.size === 0) continue; // a leaf
    let lo = Number.POSITIVE_INFINITY;
    let hi = Number.NEGATIVE_INFINITY;
    for (const unit of children.keys()) {
      lo = Math.min(lo, unit);
      hi = Math.max(hi, unit);
    }
    const span = hi - lo + 1;
    if (span <= Math.max(SMALL, DENSITY * children.size)) {
      info[at + LO] = lo;
      info[at + SPAN] = span;
      info[at + FIRST] = order.length;
      for (let u = lo; u <= hi; u++) order.push(children.get(u) ?? { children: undefined, targets: undefined });
    } else {
      info[at + SPAN] = WIDE;
      const byUnit = new Map<number, number>();
      for (const [unit, child] of children) byUnit.set(unit, order.push(child) - 1);
      wide.set(k, byUnit);
    }
  }
  info[order.length * NODE + TARGETS] = targets.length;
  return { nodes: Int32Array.from(info, (x) => x ?? 0), wide, targets };
}

/** The targets of the node at offset k. */
function emit<T>(c: Compiled<T>, k: number, hit: (target: T) => void): void {
  const end = c.nodes[k + NODE + TARGETS] ?? 0;
  for (let t = c.nodes[k + TARGETS] ?? 0; t < end; t++) hit(c.targets[t] as T);
}

/** The offset of the child of the node at offset k by the code unit, or a negative number when there is none. */
function step<T>(c: Compiled<T>, k: number, unit: number): number {
  const span = c.nodes[k + SPAN] ?? 0;
  if (span === WIDE) return (c.wide.get(k / NODE)?.get(unit) ?? -1) * NODE;
  const slot = unit - (c.nodes[k + LO] ?? 0);
  return slot >= 0 && slot < span ? ((c.nodes[k + FIRST] ?? 0) + slot) * NODE : -NODE;
}

export function createAffixTrie<T>(direction: 'prefix' | 'suffix'): AffixTrie<T> {
  const root: BuildNode<T> = { children: undefined, targets: undefined };
  let compiled: Compiled<T> | undefined;
  const child = (at: BuildNode<T>, unit: number): BuildNode<T> => {
    const children = (at.children ??= new Map());
    let n = children.get(unit);
    if (!n) children.set(unit, (n = { children: undefined, targets: undefined }));
    return n;
  };

  return {
    add(text, target) {
      let at = root;
      if (direction === 'prefix') for (let i = 0; i < text.length; i++) at = child(at, text.charCodeAt(i));
      else for (let i = text.length - 1; i >= 0; i--) at = child(at, text.charCodeAt(i));
      (at.targets ??= []).push(target);
      compiled = undefined;
    },
    collect(s, hit) {
      const c = (compiled ??= compile(root));
      emit(c, 0, hit); // the empty prefix (suffix) matches every string
      const n = s.length;
      let k = 0; // the node's offset in `nodes`
      if (direction === 'prefix') {
        for (let i = 0; i < n; i++) {
          const unit = s.charCodeAt(i);
          k = step(c, k, unit);
          if (k < 0) return;
          // a prefix that ends on the high half of a pair of the value stops inside one code point
          if (!(isHigh(unit) && i + 1 < n && isLow(s.charCodeAt(i + 1)))) emit(c, k, hit);
        }
      } else {
        for (let i = n - 1; i >= 0; i--) {
          const unit = s.charCodeAt(i);
          k = step(c, k, unit);
          if (k < 0) return;
          // a suffix that starts on the low half of a pair of the value starts inside one code point
          if (!(isLow(unit) && i > 0 && isHigh(s.charCodeAt(i - 1)))) emit(c, k, hit);
        }
      }
    },
  };
}
