import { createPathTrie, type PathTrie, pathNode } from './event.flatten.ts';
import { matchersKey, stepsOf } from './pattern.steps.ts';
import type { Matcher, Pattern } from './pattern.types.ts';
import { buildValueIndex, type ValueIndex } from './value.index.ts';

/**
 * A state of the automaton: after some of a rule's fields (in path order) have matched. `positive` sends a
 * field's values to the next states (one value index per path); `absent` moves on when a path has no leaf
 * (exists:false, checked when the branch accepts); `accepts` lists the answers (rules, see buildAutomaton) whose
 * last field led here.
 */
export type State = {
  readonly positive: Array<{ readonly pathId: number; readonly index: ValueIndex<State> }>;
  readonly absent: Array<{ readonly pathId: number; readonly next: State }>;
  readonly accepts: number[];
  /**
   * Set once the automaton is built, for the run's hot path (a match reads the state it lands on, nothing
   * more): `terminal` when there is nothing left to check from here (no positive, no absent transition);
   * `only` the one entry of `accepts` when it has exactly one and no other state accepts that answer (-1
   * otherwise), so that the state itself can note that the run gave it; `onlyId` the id it answers with.
   */
  terminal: boolean;
  only: number;
  onlyId: string;
  /** Scratch of a run: the group that last queued this state, so that a group queues it once. */
  stamp: number;
  /** Scratch of a run: the run that last gave this state's `only` answer. */
  answered: number;
};

export type Automaton = {
  readonly root: State;
  readonly trie: PathTrie;
  readonly states: number;
  readonly paths: number;
};

type Edge = { readonly pathId: number; readonly matchers: readonly Matcher[]; readonly next: State };

const newState = (): State => ({
  positive: [],
  absent: [],
  accepts: [],
  terminal: false,
  only: -1,
  onlyId: '',
  stamp: 0,
  answered: 0,
});

/**
 * One path of states per rule, shared with every rule that starts with the same (path, matcher set) steps.
 * Only an identical matcher set shares a state: a rule with ["x", "y"] must not lend its "y" to a rule with ["x"].
 * A rule's last state accepts its `answer` (the caller's number for what the rule answers, with its `id`).
 */
export function buildAutomaton(
  rules: ReadonlyArray<{ readonly pattern: Pattern; readonly answer: number; readonly id: string }>,
): Automaton {
  const trie = createPathTrie();
  let paths = 0;
  let states = 1;
  const root = newState();
  const all = [root]; // build time only
  const edges = new Map<State, Map<string, Edge>>(); // build time only

  const idOf = new Map<number, string>(); // build time only
  rules.forEach(({ pattern, answer, id }) => {
    idOf.set(answer, id);
    let state = root;
    for (const step of stepsOf(pattern)) {
      const node = pathNode(trie, step.path);
      if (node.pathId < 0) node.pathId = paths++;
      const key = `${node.pathId}\u0000${matchersKey(step.matchers)}`;
      let out = edges.get(state);
      if (!out) edges.set(state, (out = new Map()));
      let edge = out.get(key);
      if (!edge) {
        out.set(key, (edge = { pathId: node.pathId, matchers: step.matchers, next: newState() }));
        all.push(edge.next);
        states++;
      }
      state = edge.next;
    }
    state.accepts.push(answer); // a repeat (same answer, same pattern) is answered once by the run
  });

  for (const [state, out] of edges) {
    const byPath = new Map<number, Array<{ matcher: Matcher; target: State }>>();
    const absent = new Set<State>();
    for (const { pathId, matchers, next } of out.values()) {
      for (const matcher of matchers) {
        if (matcher.kind === 'exists' && !matcher.value) {
          if (!absent.has(next)) state.absent.push({ pathId, next });
          absent.add(next);
        } else {
          let list = byPath.get(pathId);
          if (!list) byPath.set(pathId, (list = []));
          list.push({ matcher, target: next });
        }
      }
    }
    for (const [pathId, entries] of byPath) state.positive.push({ pathId, index: buildValueIndex(entries) });
  }
  const acceptedBy = new Map<number, number>(); // answer -> how many states accept it
  for (const state of all) for (const a of new Set(state.accepts)) acceptedBy.set(a, (acceptedBy.get(a) ?? 0) + 1);
  for (const state of all) {
    state.terminal = state.positive.length === 0 && state.absent.length === 0;
    const sole = new Set(state.accepts).size === 1 ? (state.accepts[0] ?? -1) : -1;
    state.only = acceptedBy.get(sole) === 1 ? sole : -1;
    state.onlyId = idOf.get(state.only) ?? '';
  }
  return { root, trie, states, paths };
}
