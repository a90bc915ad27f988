import { ipBit } from './ip.address.ts';
import type { IpAddress, IpBlock } from './pattern.types.ts';

/**
 * The cidr matchers of one field as a binary trie over address bits: a block /n sits at depth n, and a lookup
 * walks the address's bits once, collecting the blocks on the way. At most 128 steps, whatever the number of
 * blocks.
 */
type Node<T> = { zero: Node<T> | undefined; one: Node<T> | undefined; readonly targets: T[] };

export type IpTrie<T> = {
  add(block: IpBlock, target: T): void;
  collect(address: IpAddress, hit: (target: T) => void): void;
};

export function createIpTrie<T>(): IpTrie<T> {
  const root: Node<T> = { zero: undefined, one: undefined, targets: [] };
  return {
    add(block, target) {
      let n = root;
      for (let i = 0; i < block.prefixLength; i++) {
        n = ipBit(block.address, i)
          ? (n.one ??= { zero: undefined, one: undefined, targets: [] })
          : (n.zero ??= { zero: undefined, one: undefined, targets: [] });
      }
      n.targets.push(target);
    },
    collect(address, hit) {
      let n: Node<T> | undefined = root;
      for (let i = 0; n; i++) {
        for (const t of n.targets) hit(t);
        if (i === 128) return;
        n = ipBit(address, i) ? n.one : n.zero;
      }
    },
  };
}
