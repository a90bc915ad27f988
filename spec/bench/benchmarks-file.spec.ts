// The pure parts of docs/benchmarks.md's generator: goals, merging a partial run, rendering and reading back,
// and the rows a section's process hands to `npm run bench`. No benchmark runs here.
import { appendFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { BenchRow } from './bench-row.ts';
import { formatNumber, mergeSections, parseBenchmarks, renderBenchmarks, type SectionRun } from './benchmarks-file.ts';
import { type Goal, goalMet, goalText, parseGoal } from './goal.ts';
import { readRecordedRows, recordFailure, recordRow, recordRowsTo } from './recorded-rows.ts';

const machine = { cores: 2, cpu: 'Test CPU @ 2.0GHz', node: 'v20.19.0' };
const row = (name: string, figure: number, more: Partial<BenchRow> = {}): BenchRow => ({
  name,
  figure,
  unit: 'events/s',
  setup: `setup of ${name}`,
  ...more,
});
const section = (name: string, date: string, rows: BenchRow[], more: Partial<SectionRun> = {}): SectionRun => ({
  section: name,
  date,
  seconds: 12.5,
  machine,
  rows,
  ...more,
});
const ORDER = ['core', 'log', 'matcher', 'hub'];

const goals = suite('bench goals');

goals('each op compares the figure with the bound, the bound itself included only by >= and <=', () => {
  const at = (op: Goal['op'], figure: number) => goalMet({ of: 'figure', op, value: 2 }, { figure, unit: 'ms' });
  assert.equal([at('>=', 2), at('>=', 1.99), at('>=', 3)], [true, false, true]);
  assert.equal([at('>', 2), at('>', 2.01), at('>', 1)], [false, true, false]);
  assert.equal([at('<=', 2), at('<=', 2.01), at('<=', 1)], [true, false, true]);
  assert.equal([at('<', 2), at('<', 1.99), at('<', 3)], [false, true, false]);
});

goals('a ratio goal is on figure / baseline', () => {
  const goal: Goal = { of: 'ratio', op: '>=', value: 0.3 };
  assert.ok(goalMet(goal, { figure: 30, unit: 'sends/s', baseline: { figure: 100 } }));
  assert.not.ok(goalMet(goal, { figure: 29, unit: 'sends/s', baseline: { figure: 100 } }));
  assert.not.ok(
    goalMet({ of: 'ratio', op: '<=', value: 1 }, { figure: 0.03, unit: 'queries/event', baseline: { figure: 0.02 } }),
  );
});

goals('without a baseline, or with a figure that is not a number, no goal is met', () => {
  assert.not.ok(goalMet({ of: 'ratio', op: '>=', value: 0 }, { figure: 5, unit: 'x' }));
  assert.not.ok(goalMet({ of: 'figure', op: '<', value: 200 }, { figure: Number.NaN, unit: 'MB' }));
  assert.not.ok(goalMet({ of: 'figure', op: '>=', value: 0 }, { figure: Number.NaN, unit: 'MB' }));
});

goals('the goal in words, unless the row words it itself', () => {
  assert.is(goalText({ of: 'ratio', op: '>=', value: 0.3 }, 'sends/s'), 'ratio ≥ 0.3');
  assert.is(goalText({ of: 'figure', op: '<=', value: 2 }, 'ms'), '≤ 2 ms');
  assert.is(goalText({ of: 'figure', op: '<', value: 1200 }, 'MB'), '< 1,200 MB');
  assert.is(goalText({ of: 'ratio', op: '<=', value: 1, text: 'the same for 5 and 30' }, 'x'), 'the same for 5 and 30');
});

goals('a goal read back from JSON: what is not one is refused', () => {
  assert.equal(parseGoal({ of: 'figure', op: '<', value: 300 }), { of: 'figure', op: '<', value: 300 });
  assert.is(parseGoal({ of: 'figure', op: '=', value: 300 }), undefined);
  assert.is(parseGoal({ of: 'speed', op: '<', value: 300 }), undefined);
  assert.is(parseGoal({ of: 'ratio', op: '>=', value: '0.3' }), undefined);
  assert.is(parseGoal(null), undefined);
});

goals.run();

const file = suite('benchmarks file');

file(
  'a section run replaces that section only: its removed row is gone, the other sections keep their date and rows',
  () => {
    const previous = [
      section('core', '2026-01-01T10:00:00Z', [row('readAll', 180_000), row('rebuild', 56_000)]),
      section('matcher', '2026-01-01T10:05:00Z', [row('matcher exact, 1 rule', 3e6)]),
    ];
    const fresh = [section('core', '2026-01-02T09:00:00Z', [row('readAll', 200_000)])];
    const merged = mergeSections(previous, fresh, ORDER);
    assert.equal(
      merged.map((s) => [s.section, s.date, s.rows.map((r) => r.name)]),
      [
        ['core', '2026-01-02T09:00:00Z', ['readAll']],
        ['matcher', '2026-01-01T10:05:00Z', ['matcher exact, 1 rule']],
      ],
    );
  },
);

file('sections come in the run order, new ones included; a section no longer run is dropped', () => {
  const previous = [section('hub', 'h', []), section('retired', 'r', []), section('core', 'c', [])];
  const merged = mergeSections(previous, [section('log', 'l', [])], ORDER);
  assert.equal(
    merged.map((s) => s.section),
    ['core', 'log', 'hub'],
  );
});

file(
  'what is rendered reads back the same, a failed section, odd text and figures that are not numbers included',
  () => {
    const sections = [
      section('core', '2026-01-02T09:00:00Z', [
        row('command handler', 6181.4, { baseline: { name: 'raw insert', figure: 12_428 } }),
        row('rebuild', 56_243, {
          baseline: { name: 'raw readAll', figure: 180_501 },
          goal: { of: 'ratio', op: '>=', value: 0.3 },
        }),
        row('peak RSS', 269, { unit: 'MB', goal: { of: 'figure', op: '<', value: 300, text: 'under 300 MB' } }),
        row('odd | text --> <!-- "quoted"', Number.NaN, { setup: 'a setup\nover two lines with `code` and -->' }),
      ]),
      section('hub', '2026-01-02T09:10:00Z', [row('hub: send → webhook', 1149, { unit: 'sends/s' })], {
        failed: 'send answered 500: {"code":"x"}',
      }),
    ];
    const text = renderBenchmarks(sections, ORDER);
    assert.equal(parseBenchmarks(text), sections);
    // and a second round trip changes nothing
    assert.is(renderBenchmarks(parseBenchmarks(text)!, ORDER), text);
  },
);

file(
  'the tables: every section in the runs table, one figure table with goal and met, the setups numbered below',
  () => {
    const sections = [
      section('core', '2026-01-02T09:00:00Z', [
        row('rebuild', 50_000, {
          baseline: { name: 'raw readAll', figure: 180_501 },
          goal: { of: 'ratio', op: '>=', value: 0.3 },
        }),
        row('readAll', 180_501),
      ]),
      section('hub', '2026-01-02T09:10:00Z', [], { failed: 'boom' }),
    ];
    const text = renderBenchmarks(sections, ORDER);
    assert.ok(text.includes('Generated by `npm run bench`'));
    assert.ok(text.includes('`npm run bench -- <section> …`'));
    assert.ok(
      text.includes(
        '| core | 2026-01-02T09:00:00Z | 13 s | 2 cores, Test CPU @ 2.0GHz, Node v20.19.0 | 2 rows, goals met: 0 of 1 |',
      ),
    );
    assert.ok(text.includes('| log | — | — | — | not run yet |'));
    assert.ok(
      text.includes(
        '| hub | 2026-01-02T09:10:00Z | 13 s | 2 cores, Test CPU @ 2.0GHz, Node v20.19.0 | **failed**: boom (0 rows before it) |',
      ),
    );
    assert.ok(
      text.includes(
        '| 1 | core | rebuild | 50,000 events/s | raw readAll: 180,501 events/s | 0.28 | ratio ≥ 0.3 | **not met** |',
      ),
    );
    assert.ok(text.includes('| 2 | core | readAll | 180,501 events/s | — | — | — | — |'));
    assert.ok(text.includes('| 3 | hub | **section failed** | — | — | — | — | — |'));
    assert.ok(
      text.includes("\n1. setup of rebuild\n2. setup of readAll\n3. the section's process ended with an error: boom\n"),
    );
  },
);

file('a pipe in a name does not split its cell, and a line break does not end its row', () => {
  const text = renderBenchmarks([section('core', 'd', [row('a | b', 1, { name: 'a | b\nc' })])], ORDER);
  assert.ok(text.includes('| 1 | core | a \\| b c | 1.00 events/s |'));
});

file('a missing or damaged record reads as none, so the file is written afresh', () => {
  const good = renderBenchmarks([section('core', 'd', [row('readAll', 1)])], ORDER);
  assert.is(parseBenchmarks(''), undefined);
  assert.is(parseBenchmarks('# Benchmarks\n\nwritten by hand\n'), undefined);
  assert.is(parseBenchmarks(good.replace('"version":1', '"version":2')), undefined);
  assert.is(parseBenchmarks(good.replace('"rows":[', '"rows":[{"name":3},')), undefined);
  assert.is(parseBenchmarks(good.replace('"sections":[', '"sections":[,')), undefined);
  assert.is(parseBenchmarks(good.slice(0, good.lastIndexOf('-->'))), undefined);
  assert.ok(parseBenchmarks(good) !== undefined);
});

file('numbers: grouped from 100 up, two decimals below, two digits under 0.01', () => {
  assert.equal([123_456.7, 99.456, 0.02, 0.0042, 0, Number.NaN, Number.POSITIVE_INFINITY].map(formatNumber), [
    '123,457',
    '99.46',
    '0.02',
    '0.0042',
    '0.00',
    'n/a',
    'n/a',
  ]);
});

file.run();

const recorded = suite('recorded rows');
let dir = '';
recorded.before(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'bench-rows-spec-'));
});
recorded.after(() => rmSync(dir, { recursive: true, force: true }));

recorded('the rows a section recorded, its failure, and nothing of a line a crash cut short', () => {
  const at = path.join(dir, 'core.jsonl');
  recordRowsTo(at);
  recordRow(row('readAll', 180_501));
  recordRow(row('not a number', Number.NaN, { goal: { of: 'figure', op: '<', value: 1 } }));
  recordFailure(new Error('the seeder failed\nat line 2'));
  appendFileSync(at, '{"name": "cut sh');
  assert.equal(readRecordedRows(at), {
    rows: [row('readAll', 180_501), row('not a number', Number.NaN, { goal: { of: 'figure', op: '<', value: 1 } })],
    failed: 'the seeder failed',
  });
});

recorded('no file (the process died before its first row): no rows, no failure of its own', () => {
  assert.equal(readRecordedRows(path.join(dir, 'absent.jsonl')), { rows: [] });
  writeFileSync(path.join(dir, 'empty.jsonl'), '');
  assert.equal(readRecordedRows(path.join(dir, 'empty.jsonl')), { rows: [] });
});

recorded.run();
