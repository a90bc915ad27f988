import type { ProcessModel } from '../model/process-model.ts';

/**
 * Whether a token at `from` can still reach `to` in the same scope, following sequence flows and the
 * boundary events of activities on the way: what an inclusive gateway's join waits for (it fires when no
 * token of its scope can arrive any more). Memoized per model: models are immutable.
 */
const memo = new WeakMap<ProcessModel, Map<string, boolean>>();

export function canReach(model: ProcessModel, from: string, to: string): boolean {
  let cache = memo.get(model);
  if (cache === undefined) memo.set(model, (cache = new Map()));
  const key = `${from}\u0000${to}`;
  const known = cache.get(key);
  if (known !== undefined) return known;
  const seen = new Set<string>([from]);
  const queue = [from];
  let found = false;
  while (queue.length > 0 && !found) {
    const id = queue.shift()!;
    const el = model.elements[id];
    if (el === undefined) continue;
    const nexts = [...el.outgoing.map((k) => model.flows[k]?.target), ...el.boundaries];
    for (const n of nexts) {
      if (n === undefined || seen.has(n)) continue;
      if (n === to) {
        found = true;
        break;
      }
      seen.add(n);
      queue.push(n);
    }
  }
  cache.set(key, found);
  return found;
}
