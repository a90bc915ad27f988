// Pattern matcher throughput: the compiled automaton of a bus against the naive evaluator (every rule in turn),
// with 1, 100, 1,000 and 10,000 rules of each kind over CityLots-shaped events, the heap the compiled matcher
// takes with 10,000 rules, and the rate with 10,000 exact rules against 1 (goal: it falls no more than 2x), and
// the same for four-digit prefix rules with about one match per event.
// Run alone: node --import tsx -e "import('./spec/bench/matcher.bench.ts').then(m => m.matcherBench())"
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { Pattern } from '../../domain/bridge/pattern/pattern.types.ts';
import { parsePattern } from '../../domain/bridge/pattern/pattern.validate.ts';
import { compileRules } from '../../domain/bridge/pattern/rules.compile.ts';
import { naiveMatch } from '../domain/bridge/pattern/naive-oracle.ts';
import { perSecond, printRow, printSection } from './report.ts';

const EVENTS = Number(process.env.BENCH_MATCHER_EVENTS ?? 2_000);
const BUDGET_MS = Number(process.env.BENCH_MATCHER_MS ?? 400);
/** The naive run stops after this many rule evaluations (2,000 events of 10,000 rules), or after the time budget. */
const NAIVE_MAX_EVALUATIONS = Number(process.env.BENCH_MATCHER_NAIVE_EVALUATIONS ?? 20_000_000);
const SIZES = [1, 100, 1_000, 10_000];
const KINDS = ['exact', 'prefix', 'wildcard', 'numeric', 'anything-but', 'mix'] as const;
type Kind = (typeof KINDS)[number];
type Rule = { id: string; pattern: Pattern };

/** mulberry32: a small seeded generator, so that events and rules are the same on every run. */
function random(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (n: number) => Math.floor(next() * n);
  return { next, int, pick: <T>(xs: readonly T[]): T => xs[int(xs.length)] as T };
}

const STREETS = [
  'OCTAVIA',
  'BEACH',
  'CRANLEIGH',
  'MISSION',
  'VALENCIA',
  'GUERRERO',
  'FOLSOM',
  'HARRISON',
  'BRYANT',
  'POTRERO',
  'DIVISADERO',
  'FILLMORE',
  'STEINER',
  'PIERCE',
  'SCOTT',
  'BRODERICK',
  'BAKER',
  'LYON',
  'CENTRAL',
  'MASONIC',
  'UNKNOWN',
];
const ST_TYPES = ['ST', 'AVE', 'DR', 'BLVD', 'WAY', 'TER'];
const pad = (n: number, width: number) => String(n).padStart(width, '0');
const BLOCKS = 2_000;
const LOTS = 60;

/** A CityLots feature (the GeoJSON of San Francisco's lots that event-ruler and quamina benchmark with), ~550 bytes. */
function cityLots(count: number): unknown[] {
  const r = random(42);
  return Array.from({ length: count }, () => {
    const block = 1 + r.int(BLOCKS);
    const lot = 1 + r.int(LOTS);
    const from = r.int(3000);
    const lon = -122.52 + r.next() * 0.16;
    const lat = 37.7 + r.next() * 0.12;
    const ring = Array.from({ length: 7 }, (_, i) => [
      lon + (i % 3) * 0.0001 + r.next() * 1e-5,
      lat + (i % 2) * 0.0001 + r.next() * 1e-5,
      0,
    ]);
    ring.push(ring[0] as number[]);
    return {
      type: 'Feature',
      properties: {
        MAPBLKLOT: pad(block, 4) + pad(lot, 3),
        BLKLOT: pad(block, 4) + pad(lot, 3),
        BLOCK_NUM: pad(block, 4),
        LOT_NUM: pad(lot, 3),
        FROM_ST: String(from),
        TO_ST: String(from + 2 * r.int(20)),
        STREET: r.pick(STREETS),
        ST_TYPE: r.pick(ST_TYPES),
        ODD_EVEN: from % 2 === 0 ? 'E' : 'O',
      },
      geometry: { type: 'Polygon', coordinates: [ring] },
    };
  });
}

/** Rule i of a kind: drawn from the same value space as the events, so that some rules match. */
function patternOf(kind: Exclude<Kind, 'mix'>, r: ReturnType<typeof random>): unknown {
  const mapblklot = () => pad(1 + r.int(BLOCKS), 4) + pad(1 + r.int(LOTS), 3);
  switch (kind) {
    case 'exact':
      return { properties: { MAPBLKLOT: [mapblklot()] } };
    case 'prefix':
      return { properties: { MAPBLKLOT: [{ prefix: mapblklot().slice(0, 3 + r.int(3)) }] } };
    case 'wildcard':
      return { properties: { MAPBLKLOT: [{ wildcard: `${pad(r.int(1000), 3)}*${r.int(10)}?` }] } };
    case 'numeric': {
      const lon = -122.52 + r.next() * 0.16;
      return { geometry: { coordinates: [{ numeric: ['>=', lon, '<', lon + 0.002] }] } };
    }
    case 'anything-but':
      return { properties: { STREET: [{ 'anything-but': [r.pick(STREETS), r.pick(STREETS)] }] } };
    default: {
      const never: never = kind;
      return never;
    }
  }
}

function rulesOf(kind: Kind, n: number): Rule[] {
  const r = random(1_000 + KINDS.indexOf(kind));
  const basic = KINDS.filter((k): k is Exclude<Kind, 'mix'> => k !== 'mix');
  return Array.from({ length: n }, (_, i) => ({
    id: `${kind}-${i}`,
    pattern: parsePattern(patternOf(kind === 'mix' ? (basic[i % basic.length] as Exclude<Kind, 'mix'>) : kind, r)),
  }));
}

/** Events per second of `match` over the events, cycling, for the time budget or up to maxEvents. */
function rate(
  match: (e: unknown) => string[],
  events: unknown[],
  maxEvents: number,
): { perSecond: number; events: number; matches: number } {
  // warm-up, so that the JIT has settled for both sides: 100 ms
  const warm = performance.now();
  for (let i = 0; performance.now() - warm < 100; i++) match(events[i % events.length]);
  let n = 0;
  let matches = 0;
  const start = performance.now();
  let elapsed = 0;
  while (n < maxEvents && elapsed < BUDGET_MS) {
    matches += match(events[n % events.length]).length;
    n++;
    if ((n & 15) === 0 || n === maxEvents) elapsed = performance.now() - start;
  }
  elapsed = performance.now() - start;
  return { perSecond: perSecond(n, elapsed), events: n, matches };
}

export async function matcherBench(): Promise<void> {
  printSection('matcher');
  const events = cityLots(EVENTS);
  const bytes = events.reduce((s: number, e) => s + JSON.stringify(e).length, 0) / events.length;
  const exactRates = new Map<number, number>();

  for (const kind of KINDS) {
    for (const size of SIZES) {
      const rules = rulesOf(kind, size);
      const built = performance.now();
      const compiled = compileRules(rules);
      const buildMs = performance.now() - built;
      const naive = (e: unknown) => rules.filter((rule) => naiveMatch(rule.pattern, e)).map((rule) => rule.id);
      // the two must agree before their speeds mean anything
      for (const e of events.slice(0, 20)) {
        const a = compiled.match(e).join();
        const b = naive(e).join();
        if (a !== b) throw new Error(`compiled and naive disagree on ${kind} x${size}: ${a} vs ${b}`);
      }
      const fast = rate(compiled.match, events, Number.POSITIVE_INFINITY);
      const slow = rate(naive, events, Math.max(20, Math.floor(NAIVE_MAX_EVALUATIONS / size)));
      if (kind === 'exact') exactRates.set(size, fast.perSecond);
      printRow({
        name: `matcher ${kind}, ${size.toLocaleString('en-US')} rule${size === 1 ? '' : 's'}`,
        figure: fast.perSecond,
        unit: 'events/s',
        baseline: { name: 'naive evaluator (every rule in turn)', figure: slow.perSecond },
        setup: `${EVENTS} CityLots features (avg ${bytes.toFixed(0)} B), ${(fast.matches / fast.events).toFixed(2)} matches/event; compiled: ${fast.events} events, built in ${buildMs.toFixed(0)} ms, ${compiled.size.states} states; naive: ${slow.events} events`,
      });
    }
  }

  const one = exactRates.get(1) ?? 0;
  const many = exactRates.get(10_000) ?? 0;
  printRow({
    name: 'matcher exact: rate with 10,000 rules against 1 rule',
    figure: many,
    unit: 'events/s',
    baseline: { name: '1 exact rule', figure: one },
    setup: `the compiled exact-rule rates above; the rate falls ${(one / many).toFixed(2)}x`,
    goal: { of: 'ratio', op: '>=', value: 0.5, text: 'ratio ≥ 0.5 (falls no more than 2x)' },
  });

  prefixScaling(events);

  for (const row of heapInChild()) {
    printRow({
      name: `matcher heap, 10,000 ${row.kind} rules compiled`,
      figure: row.compiledMb,
      unit: 'MB',
      baseline: { name: 'the parsed patterns alone', figure: row.patternsMb },
      setup: `heapUsed after global.gc() before and after compileRules, median of ${row.runs} builds, in a child process run with --expose-gc`,
    });
  }
}

/**
 * Events per second of several matchers measured in alternating slices of 25 ms (after a warm-up of each), so
 * that a change of load on the machine falls on all of them alike and their ratio holds still.
 */
function interleavedRates(
  matchers: ReadonlyArray<(e: unknown) => string[]>,
  events: unknown[],
  budgetMs: number,
): Array<{ perSecond: number; events: number; matches: number }> {
  const totals = matchers.map(() => ({ ms: 0, events: 0, matches: 0 }));
  for (const match of matchers) {
    const warm = performance.now();
    for (let i = 0; performance.now() - warm < 100; i++) match(events[i % events.length]);
  }
  const cursor = matchers.map(() => 0);
  while ((totals[0]?.ms ?? budgetMs) < budgetMs) {
    matchers.forEach((match, k) => {
      const t = totals[k] as { ms: number; events: number; matches: number };
      let n = cursor[k] ?? 0;
      const start = performance.now();
      let elapsed = 0;
      while (elapsed < 25) {
        for (let i = 0; i < 64; i++) t.matches += match(events[n++ % events.length]).length;
        t.events += 64;
        elapsed = performance.now() - start;
      }
      t.ms += elapsed;
      cursor[k] = n;
    });
  }
  return totals.map((t) => ({ perSecond: perSecond(t.events, t.ms), events: t.events, matches: t.matches }));
}

/**
 * Prefix rules scale like exact rules: N four-digit prefix rules on MAPBLKLOT drawn from 0000-9999, so that
 * with 10,000 rules an event (blocks 0001-2000) matches about one of them; the rate with 10,000 such rules
 * against the rate with 1, measured side by side.
 */
function prefixScaling(events: unknown[]): void {
  const rulesOfSize = (n: number): Rule[] => {
    const r = random(7_919);
    return Array.from({ length: n }, (_, i) => ({
      id: `prefix4-${i}`,
      pattern: parsePattern({ properties: { MAPBLKLOT: [{ prefix: pad(r.int(10_000), 4) }] } }),
    }));
  };
  const sets = [1, 10_000].map((size) => {
    const rules = rulesOfSize(size);
    const built = performance.now();
    const compiled = compileRules(rules);
    const buildMs = performance.now() - built;
    for (const e of events.slice(0, 200)) {
      const a = compiled.match(e).join();
      const b = rules
        .filter((rule) => naiveMatch(rule.pattern, e))
        .map((rule) => rule.id)
        .join();
      if (a !== b) throw new Error(`compiled and naive disagree on four-digit prefixes x${size}: ${a} vs ${b}`);
    }
    return { compiled, buildMs };
  });
  const [one, many] = interleavedRates(
    sets.map((s) => s.compiled.match),
    events,
    2 * BUDGET_MS,
  ) as [ReturnType<typeof rate>, ReturnType<typeof rate>];
  printRow({
    name: 'matcher four-digit prefix, 1 rule',
    figure: one.perSecond,
    unit: 'events/s',
    setup: `prefix of MAPBLKLOT drawn from 0000-9999, ${(one.matches / one.events).toFixed(4)} matches/event, ${one.events} events, built in ${sets[0]?.buildMs.toFixed(0)} ms; measured in 25 ms slices alternating with the 10,000-rule set`,
  });
  printRow({
    name: 'matcher four-digit prefix: rate with 10,000 rules against 1 rule',
    figure: many.perSecond,
    unit: 'events/s',
    baseline: { name: '1 four-digit prefix rule', figure: one.perSecond },
    setup: `${(many.matches / many.events).toFixed(2)} matches/event, ${many.events} events, built in ${sets[1]?.buildMs.toFixed(0)} ms, ${sets[1]?.compiled.size.states} states (quamina ~1.5 M events/s, event-ruler ~0.36 M on this shape)`,
    goal: { of: 'ratio', op: '>=', value: 0.5 },
  });
}

type HeapRow = { kind: Kind; compiledMb: number; patternsMb: number; runs: number };

/** npm run bench has no --expose-gc: the heap is measured in a child process that has it. */
function heapInChild(): HeapRow[] {
  const code = `import(${JSON.stringify(import.meta.url)}).then((m) => console.log(JSON.stringify(m.measureMatcherHeap())))`;
  const out = spawnSync(process.execPath, ['--expose-gc', '--import', 'tsx', '-e', code], {
    cwd: fileURLToPath(new URL('../../', import.meta.url)),
    encoding: 'utf8',
  });
  if (out.status !== 0) throw new Error(`heap child failed: ${out.stderr}`);
  const last = out.stdout.trim().split('\n').pop() ?? '[]';
  return JSON.parse(last) as HeapRow[];
}

/** Runs in the child: heap taken by compileRules over 10,000 rules of each kind (needs global.gc). */
export function measureMatcherHeap(runs = 3): HeapRow[] {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) throw new Error('run with --expose-gc');
  const used = () => {
    gc();
    gc();
    return process.memoryUsage().heapUsed;
  };
  // One build per call: the frame's locals die on return, so nothing of this build is alive at the next one's start.
  const once = (kind: Kind) => {
    const before = used();
    const rules = rulesOf(kind, 10_000);
    const parsed = used();
    const compiled = compileRules(rules);
    const after = used();
    return { patterns: parsed - before, compiled: after - parsed, alive: compiled.size.rules + rules.length };
  };
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;
  const mb = (b: number) => b / (1024 * 1024);
  return KINDS.map((kind) => {
    const builds = Array.from({ length: runs }, () => once(kind));
    return {
      kind,
      compiledMb: mb(median(builds.map((b) => b.compiled))),
      patternsMb: mb(median(builds.map((b) => b.patterns))),
      runs,
    };
  });
}
