/**
 * Array-element membership of flattened fields, as event-ruler and quamina track it. Every array met while
 * flattening an event gets a number; a field's chain lists, from the root, the arrays it sits inside and the
 * element it sits in: [arrayId, index, arrayId, index, ...]. Arrays holding the field's own leaves (a: [1, 2]
 * for the path a) are left out: they never constrain anything, "any element" is what matches there.
 *
 * While a rule's fields are matched, the union of their chains (the pinned elements) is carried along; a field
 * may join only when it agrees on every array both have seen. That is the rule "fields matched inside one
 * array element must come from the same element".
 */
export type Chain = readonly number[];

export const EMPTY_CHAIN: Chain = [];

function indexIn(pinned: Chain, arrayId: number): number {
  for (let i = 0; i < pinned.length; i += 2) if (pinned[i] === arrayId) return pinned[i + 1] ?? -1;
  return -1;
}

/** The pinned elements extended by the field's chain, or undefined when they disagree. */
export function pin(pinned: Chain, chain: Chain): Chain | undefined {
  if (chain.length === 0) return pinned;
  let added: number[] | undefined;
  for (let i = 0; i < chain.length; i += 2) {
    const arrayId = chain[i] ?? -1;
    const index = chain[i + 1] ?? -1;
    const seen = indexIn(pinned, arrayId);
    if (seen === -1) (added ??= []).push(arrayId, index);
    else if (seen !== index) return undefined;
  }
  return added ? pinned.concat(added) : pinned;
}

/** Whether a field agrees with the pinned elements (arrays not pinned accept every element). */
export function agrees(pinned: Chain, chain: Chain): boolean {
  for (let i = 0; i < chain.length; i += 2) {
    const seen = indexIn(pinned, chain[i] ?? -1);
    if (seen !== -1 && seen !== chain[i + 1]) return false;
  }
  return true;
}
