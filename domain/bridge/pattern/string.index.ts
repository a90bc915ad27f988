import { type AffixTrie, createAffixTrie } from './affix.trie.ts';
import type { StringMatcher, WildcardPart } from './pattern.types.ts';
import { createStringAutomaton, type StringAutomaton, tokensOf } from './string.automaton.ts';

export type AutomatonMatcher = Exclude<StringMatcher, { kind: 'equals-ignore-case' }>;

/**
 * The prefix, suffix and wildcard matchers of one field. Prefixes go to a trie walked from the value's start,
 * suffixes to one walked from its end (affix.trie.ts), and so do the wildcards that are one of them in
 * disguise ("ab*", "*ab", "*"); only the other wildcards pay for the general automaton, which is built only
 * when there is one. What matches is unchanged: each structure answers what its matchers alone would.
 */
export type StringIndex<T> = {
  add(m: AutomatonMatcher, target: T): void;
  /** Calls `hit` with the target of every matcher the string matches (a target may come more than once). */
  run(s: string, hit: (target: T) => void): void;
};

/** The prefix or suffix a wildcard stands for ("ab*" is prefix "ab", "*ab" suffix "ab"), if it is one. */
export function affixOf(parts: readonly WildcardPart[]): { kind: 'prefix' | 'suffix'; text: string } | undefined {
  const [a, b, ...rest] = parts;
  if (rest.length > 0 || a === undefined) return undefined;
  if (b === undefined) return a.kind === 'any' ? { kind: 'prefix', text: '' } : undefined;
  if (a.kind === 'text' && b.kind === 'any') return { kind: 'prefix', text: a.text };
  if (a.kind === 'any' && b.kind === 'text') return { kind: 'suffix', text: b.text };
  return undefined;
}

export function createStringIndex<T>(): StringIndex<T> {
  let prefixes: AffixTrie<T> | undefined;
  let suffixes: AffixTrie<T> | undefined;
  let wildcards: StringAutomaton<T> | undefined;
  const affix = (kind: 'prefix' | 'suffix', text: string, target: T) => {
    if (kind === 'prefix') (prefixes ??= createAffixTrie('prefix')).add(text, target);
    else (suffixes ??= createAffixTrie('suffix')).add(text, target);
  };

  return {
    add(m, target) {
      switch (m.kind) {
        case 'prefix':
        case 'suffix':
          affix(m.kind, m.value, target);
          break;
        case 'wildcard': {
          const plain = affixOf(m.parts);
          if (plain) affix(plain.kind, plain.text, target);
          else (wildcards ??= createStringAutomaton()).add(tokensOf(m), target);
          break;
        }
        default: {
          const never: never = m;
          return never;
        }
      }
    },
    run(s, hit) {
      prefixes?.collect(s, hit);
      suffixes?.collect(s, hit);
      wildcards?.run(s, hit);
    },
  };
}
