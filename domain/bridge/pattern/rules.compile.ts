import { agrees, type Chain, EMPTY_CHAIN, pin } from './array.membership.ts';
import { buildAutomaton, type State } from './automaton.build.ts';
import { type FlatEvent, flattenEvent } from './event.flatten.ts';
import { candidates } from './field.candidates.ts';
import type { Pattern } from './pattern.types.ts';

/**
 * All rules of a bus compiled into one automaton over the event's flattened fields, in the manner of
 * event-ruler and quamina (automaton.build.ts): a rule is the sequence of its fields in path order; rules that
 * begin with the same fields and matchers share states. From a state, each field path it tests has one value
 * index (value.index.ts) that sends a value to every next state at once: 10,000 rules testing
 * properties.MAPBLKLOT for 10,000 values cost one Map lookup per event. An event is flattened only along the
 * paths the rules use (event.flatten.ts), so the cost per event follows the fields the patterns use.
 *
 * Arrays: each branch of the run carries the array elements its matched fields pinned (array.membership.ts);
 * a field from another element of a pinned array cannot join. exists:false is an absence transition: the
 * branch notes the path and, when it reaches an accepting state (every field of the rule decided, so every
 * element the rule's other fields pin is known), checks that no leaf at that path agrees with the pinned
 * elements. Arrays no matched field pinned are seen whole: a.b is absent only if no element has a leaf there.
 */
export type CompiledRules = {
  /** The ids of the rules the event matches, each once, in the order the ids first appear in the rules given. */
  match(event: unknown): string[];
  readonly size: { readonly rules: number; readonly states: number; readonly paths: number };
};

type AbsentList = { readonly pathId: number; readonly rest: AbsentList | undefined } | undefined;

type Branch = { readonly state: State; readonly pinned: Chain; readonly absent: AbsentList };

export function compileRules(rules: ReadonlyArray<{ readonly id: string; readonly pattern: Pattern }>): CompiledRules {
  const ids = rules.map((r) => r.id);
  // rules sharing an id answer once: each rule answers as the first rule with its id
  const firstWithId = new Map<string, number>();
  const { root, trie, states, paths } = buildAutomaton(
    rules.map((r, i) => {
      const first = firstWithId.get(r.id);
      if (first === undefined) firstWithId.set(r.id, i);
      return { pattern: r.pattern, answer: first ?? i, id: r.id };
    }),
  );
  // the run (match call) that last gave an answer; a state's `only` answer is noted on the state instead
  const answeredAt = new Float64Array(rules.length);
  let run = 0;
  let stamp = 0;

  const noLeafAgrees = (absent: AbsentList, pinned: Chain, flat: FlatEvent): boolean => {
    for (let a = absent; a; a = a.rest) {
      const fields = flat.get(a.pathId);
      if (fields) for (const g of candidates(fields, pinned)) if (agrees(pinned, g.chain)) return false;
    }
    return true;
  };

  // Scratch of a run, reused: match() is synchronous, so one run is over before the next starts.
  const matched = new Int32Array(rules.length); // the answers of the run, matched[0 .. count)
  let count = 0;
  let soleId: string | undefined; // the id of matched[0] when it came from a state's `only` (spares a lookup in ids)
  let stack: Branch[] = [];
  let joined: Chain = EMPTY_CHAIN; // what queue() needs about the group whose values are being collected
  let pending: AbsentList;
  let group = 0;

  const accept = (state: State) => {
    // one rule per final state is the common case: it costs the state, nothing more (no rule-indexed memory)
    if (state.only >= 0) {
      if (state.answered === run) return;
      state.answered = run;
      if (count === 0) soleId = state.onlyId;
      matched[count++] = state.only;
      return;
    }
    for (const r of state.accepts) {
      if (answeredAt[r] !== run) {
        answeredAt[r] = run;
        matched[count++] = r;
      }
    }
  };
  const queue = (next: State) => {
    if (next.stamp === group) return;
    next.stamp = group;
    // a final state with nothing left to check answers at once, without a branch (anything-but sends thousands)
    if (pending === undefined && next.terminal) accept(next);
    else stack.push({ state: next, pinned: joined, absent: pending });
  };

  return {
    size: { rules: rules.length, states, paths },
    match(event) {
      const flat = flattenEvent(event, trie);
      run++;
      count = 0;
      soleId = undefined;
      stack = [{ state: root, pinned: EMPTY_CHAIN, absent: undefined }];
      for (let branch = stack.pop(); branch; branch = stack.pop()) {
        const { state, pinned, absent } = branch;
        if (state.accepts.length > 0 && noLeafAgrees(absent, pinned, flat)) accept(state);
        for (const { pathId, index } of state.positive) {
          const fields = flat.get(pathId);
          if (!fields) continue;
          for (const g of candidates(fields, pinned)) {
            const p = pin(pinned, g.chain);
            if (!p) continue;
            joined = p;
            pending = absent;
            group = ++stamp;
            for (const v of g.values) index.collect(v, queue);
          }
        }
        for (const { pathId, next } of state.absent)
          stack.push({ state: next, pinned, absent: { pathId, rest: absent } });
      }
      if (count === 0) return [];
      if (count === 1) return [soleId ?? ids[matched[0] ?? 0] ?? ''];
      // in rule order: sort the few, or sweep the marks when many rules answered
      const out: string[] = [];
      if (count * 16 < rules.length) for (const r of matched.subarray(0, count).sort()) out.push(ids[r] ?? '');
      else {
        // answers given through a state's `only` were noted on the state: mark them for the sweep too
        for (let i = 0; i < count; i++) answeredAt[matched[i] ?? 0] = run;
        for (let r = 0; r < rules.length; r++) if (answeredAt[r] === run) out.push(ids[r] ?? '');
      }
      return out;
    },
  };
}
