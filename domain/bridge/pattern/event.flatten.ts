import { type Chain, EMPTY_CHAIN } from './array.membership.ts';
import { isJsonNumber } from './number.value.ts';
import type { Leaf } from './pattern.types.ts';

/**
 * The field paths the rules use, as a trie of key names. Flattening an event walks only the branches of this
 * trie, so the work per event follows the fields the patterns use, not the size of the event or the number of
 * rules. A node is a path of its own (pathId >= 0) when some rule has matchers there.
 */
export type PathTrie = { readonly children: Map<string, PathTrie>; pathId: number };

export const createPathTrie = (): PathTrie => ({ children: new Map(), pathId: -1 });

/** The node for the path, created on first use. */
export function pathNode(trie: PathTrie, segments: readonly string[]): PathTrie {
  let node = trie;
  for (const key of segments) {
    let child = node.children.get(key);
    if (!child) node.children.set(key, (child = createPathTrie()));
    node = child;
  }
  return node;
}

/** Leaves found at one path inside the same elements: the values of a leaf-level array share one chain. */
export type FieldGroup = { readonly chain: Chain; readonly values: Leaf[] };

/**
 * The groups of leaves at one path, in document order, and (built on demand, see field.candidates.ts) the same
 * groups by the array elements their chains go through.
 */
export type PathFields = {
  readonly groups: FieldGroup[];
  byElement: Map<number, Map<number, FieldGroup[]>> | undefined;
};

/** pathId -> the leaves at that path. */
export type FlatEvent = Map<number, PathFields>;

const isLeaf = (v: unknown): v is Leaf =>
  typeof v === 'string' || typeof v === 'boolean' || v === null || isJsonNumber(v);

// Iterating the trie's children and probing the object beats listing the object's keys while the trie is narrow.
const NARROW = 8;

/** The event's leaves at the trie's paths with their array membership. Non-JSON values count as absent. */
export function flattenEvent(event: unknown, trie: PathTrie): FlatEvent {
  const run: Run = { out: new Map(), arrays: 0 };
  walk(run, event, trie, EMPTY_CHAIN, EMPTY_CHAIN);
  return run.out;
}

// Plain functions over a run record rather than closures made per event: this is the per-event hot path.
type Run = { readonly out: FlatEvent; arrays: number };

function record(run: Run, pathId: number, chain: Chain, value: Leaf): void {
  let fields = run.out.get(pathId);
  if (!fields) run.out.set(pathId, (fields = { groups: [], byElement: undefined }));
  const groups = fields.groups;
  const last = groups[groups.length - 1];
  if (last && last.chain === chain) last.values.push(value);
  else groups.push({ chain, values: [value] });
}

// `above`: elements of arrays met at shallower keys; `here`: elements of arrays at this node's own key, which
// become part of the chain only for fields deeper down.
function walk(run: Run, value: unknown, node: PathTrie, above: Chain, here: Chain): void {
  if (Array.isArray(value)) {
    const id = run.arrays++;
    for (let i = 0; i < value.length; i++) {
      const e: unknown = value[i];
      // leaves of a leaf-level array keep the chain above; only what lies deeper needs this element's number
      if (isLeaf(e)) {
        if (node.pathId >= 0) record(run, node.pathId, above, e);
      } else if (Array.isArray(e) || (node.children.size > 0 && typeof e === 'object' && e !== null))
        walk(run, e, node, above, here.concat(id, i));
    }
  } else if (isLeaf(value)) {
    if (node.pathId >= 0) record(run, node.pathId, above, value);
  } else if (typeof value === 'object' && value !== null && node.children.size > 0) {
    const chain = here.length === 0 ? above : above.concat(here);
    const obj = value as Record<string, unknown>;
    if (node.children.size <= NARROW) {
      for (const [key, child] of node.children)
        if (Object.hasOwn(obj, key)) walk(run, obj[key], child, chain, EMPTY_CHAIN);
    } else {
      for (const key of Object.keys(obj)) {
        const child = node.children.get(key);
        if (child) walk(run, obj[key], child, chain, EMPTY_CHAIN);
      }
    }
  }
}
