// The acceptance corpus (../shared/corpora/patterns): 627 event-ruler/quamina cases and 42 rocketmq-eventbridge
// cases, each run through the compiled matcher and the naive oracle, one test per case named by its id; then all
// 669 patterns at once as the rules of one bus. A clone without ../shared skips it (one SKIPPED line): the
// project's own pattern specs cover every matcher, and every branch of domain/bridge/pattern the corpus reaches.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { matchPattern } from '../../../../domain/bridge/pattern/pattern.match.ts';
import type { Pattern } from '../../../../domain/bridge/pattern/pattern.types.ts';
import { parsePattern } from '../../../../domain/bridge/pattern/pattern.validate.ts';
import { compileRules } from '../../../../domain/bridge/pattern/rules.compile.ts';
import { naiveMatch, naiveMatchAll } from './naive-oracle.ts';

type Case = { id: string; pattern: unknown; event: unknown; match: boolean; kinds: string[]; note?: string };

const root = fileURLToPath(new URL('../../../../', import.meta.url));
const dir = process.env.PATTERN_CORPUS_DIR ?? path.resolve(root, '../shared/corpora/patterns');
const load = (file: string): Case[] =>
  (JSON.parse(readFileSync(path.join(dir, file), 'utf8')) as { cases: Case[] }).cases;
// an explicit PATTERN_CORPUS_DIR must hold the corpus; only the default place beside the clone may be absent
const available = process.env.PATTERN_CORPUS_DIR !== undefined || existsSync(path.join(dir, 'cases.json'));
if (!available) console.log(`SKIPPED: pattern corpus (${path.relative(root, dir)} not found)`);
const cases = available ? [...load('cases.json'), ...load('rocketmq-cases.json')] : [];

/**
 * Cases whose verdict contradicts a semantics the platform decided, with the reason. Kept minimal: every case of
 * the corpus agrees with the decided semantics today, so the list is empty; a case added here is printed.
 */
const SKIPPED: Record<string, string> = {};
for (const [id, why] of Object.entries(SKIPPED)) console.log(`SKIPPED: corpus case ${id}: ${why}`);

const show = (c: Case) =>
  `${c.id} (${c.kinds.join(', ')}${c.note ? `; ${c.note}` : ''})\n  pattern ${JSON.stringify(c.pattern)}\n  event   ${JSON.stringify(c.event)}`;

const each = suite('pattern corpus: each case, compiled and oracle');
const tally = { compiled: 0, oracle: 0 };
for (const c of cases) {
  if (SKIPPED[c.id]) continue;
  each(`${c.id} expects ${c.match}`, () => {
    const pattern = parsePattern(c.pattern);
    const compiled = matchPattern(pattern, c.event);
    const oracle = naiveMatch(pattern, c.event);
    if (compiled === c.match) tally.compiled++;
    if (oracle === c.match) tally.oracle++;
    assert.is(compiled, c.match, `compiled matcher: ${show(c)}`);
    assert.is(oracle, c.match, `naive oracle: ${show(c)}`);
  });
}
each.after(() => {
  const total = cases.length - Object.keys(SKIPPED).length;
  console.log(
    `\ncorpus: compiled ${tally.compiled} of ${cases.length} pass, oracle ${tally.oracle} of ${cases.length} pass, ${cases.length - total} skipped`,
  );
});
if (available) each.run();

const bus = suite('pattern corpus: all patterns as the rules of one bus');
bus('the corpus holds 669 cases with unique ids', () => {
  assert.is(cases.length, 669);
  assert.is(new Set(cases.map((c) => c.id)).size, 669);
});
bus(
  'every event: the compiled set of 669 rules equals the rules the oracle matches, and holds its own case as expected',
  () => {
    const rules: Array<{ id: string; pattern: Pattern }> = cases
      .filter((c) => !SKIPPED[c.id])
      .map((c) => ({ id: c.id, pattern: parsePattern(c.pattern) }));
    const compiled = compileRules(rules);
    for (const c of cases) {
      if (SKIPPED[c.id]) continue;
      const got = compiled.match(c.event);
      assert.equal(got, naiveMatchAll(rules, c.event), `event of ${c.id}`);
      assert.is(got.includes(c.id), c.match, `own rule in the bus: ${show(c)}`);
    }
  },
);
if (available) bus.run();
