import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { commentsOf, readSource, sourceFiles, type Text, testNamesOf } from './comments.scan.ts';

// Comments and test names say what the code does and why. Which issue asked for a change, which working stop
// made it and at what time of day something was measured is history: it belongs in git and docs/decisions/,
// where it cannot go stale beside the code.
const PRODUCTION = ['domain', 'commands', 'projections', 'http', 'infra', 'bin', 'portal/src', 'portal/scripts'];
// the portal's generated API types are openapi-typescript's output, not ours to word
const PRODUCTION_EXCLUDED = ['portal/src/api/schema'];
// spec/bench holds no tests; its comments are checked where the benchmarks are kept
const SPEC_EXCLUDED = ['spec/bench'];
const SPEC_FOLDERS = ['spec', 'portal/spec'];

type Rule = { name: string; pattern: RegExp };

const ISSUE: Rule = { name: 'an issue number', pattern: /\bissues?\s*#?\d+/i };
const STOP: Rule = { name: 'a "stop N"', pattern: /\bstop\s+#?\d+/i };
// a time of day (17:47), not a piece of an ISO timestamp or offset (T10:00:00, +01:00)
const TIME_OF_DAY: Rule = { name: 'a time of day', pattern: /(?<![\d:T+\-−])\d{1,2}:\d{2}(?![\d:])/ };

// Quiet hours are configured as times of day (`22:00`–`07:00`): there a time is the subject, not a timestamp
const TIMES_ARE_THE_SUBJECT = new Set(['domain/hub/quiet-hours.ts', 'spec/domain/hub/customer-policies.spec.ts']);

function offences(texts: Text[], rules: Rule[]): string[] {
  return texts.flatMap((t) =>
    rules
      .filter((r) => r.pattern.test(t.text) && !(r === TIME_OF_DAY && TIMES_ARE_THE_SUBJECT.has(t.file)))
      .map((r) => `${t.file}:${t.line}: ${r.name}: ${t.text.trim()}`),
  );
}

/** prints every offence on its own line (an assertion's diff would cut a long list short) */
function expectNone(found: string[], what: string) {
  if (found.length > 0) console.log(`${found.length} ${what}:\n${found.join('\n')}`);
  assert.equal(found.length, 0, `${found.length} ${what} (listed above)`);
}

const productionFiles = sourceFiles(PRODUCTION, PRODUCTION_EXCLUDED);
const specFiles = sourceFiles(SPEC_FOLDERS, SPEC_EXCLUDED);

test('the parser reads comments, and only comments: strings, templates and regular expressions are skipped', () => {
  const source = [
    "const a = 'issue 12 // in a string'; // a line comment",
    'const b = `stop 4 ${a /* inside a template */} /* still the template */`;',
    'const c = /\\/\\/ issue 3/.test(a) ? 1 / 2 : 3; /* a block',
    '   comment */ const d = "17:47";',
  ].join('\n');
  assert.equal(
    commentsOf('x.ts', source).map((c) => `${c.line}:${c.text.trim()}`),
    ['1:a line comment', '2:inside a template', '3:a block', '4:comment'],
  );
});

test("test names: the first string given to test(, it(, suite( and to a file's own suites", () => {
  const source = [
    "const rule = suite('rules');",
    "rule('one', () => {});",
    'test("two", () => {});',
    'other(`three`);',
  ].join('\n');
  assert.equal(
    testNamesOf('x.spec.ts', source).map((n) => `${n.line}:${n.text}`),
    ['1:rules', '2:one', '3:two'],
  );
});

test('the rules catch what they are for and let ordinary text through', () => {
  const texts = ['(issue 9, item 4)', 'since issue #12', 'on stop 27’s code', 'at 17:47', '16 until stop 27']
    .concat(['`2026-03-01T10:00:00.000+01:00`', 'the issuer', 'stops at 5', 'issues a code', 'http://127.0.0.1:8080/a'])
    .map((text, line) => ({ file: 'x.ts', line, text }));
  assert.equal(
    offences(texts, [ISSUE, STOP, TIME_OF_DAY]).map((o) => o.split(': ')[1]),
    ['an issue number', 'an issue number', 'a "stop N"', 'a time of day', 'a "stop N"'],
  );
});

test('the scan is not vacuous: it reads the production folders and the specs', () => {
  assert.ok(productionFiles.includes('infra/main.ts') && productionFiles.includes('bin/platform.js'));
  assert.ok(
    productionFiles.includes('portal/src/main.tsx') && !productionFiles.some((f) => f.includes('/api/schema/')),
  );
  assert.ok(specFiles.includes('portal/spec/portal.browser.spec.ts'));
  assert.ok(
    specFiles.includes('spec/core/comments.scan.spec.ts') && !specFiles.some((f) => f.startsWith('spec/bench/')),
  );
  const comments = productionFiles.flatMap((f) => commentsOf(f, readSource(f)));
  assert.ok(comments.length > 5000, `${comments.length} comment lines`);
});

test('production comments name no issue, no "stop N" and no time of day', () => {
  const comments = productionFiles.flatMap((f) => commentsOf(f, readSource(f)));
  expectNone(offences(comments, [ISSUE, STOP, TIME_OF_DAY]), 'production comments tell history');
});

test('spec comments name no issue and no "stop N"', () => {
  const comments = specFiles.flatMap((f) => commentsOf(f, readSource(f)));
  expectNone(offences(comments, [ISSUE, STOP]), 'spec comments tell history');
});

test('test names name no issue, no "stop N" and no time of day', () => {
  const names = specFiles.filter((f) => f.endsWith('.ts')).flatMap((f) => testNamesOf(f, readSource(f)));
  assert.ok(names.length > 1000, `${names.length} test names`);
  expectNone(offences(names, [ISSUE, STOP, TIME_OF_DAY]), 'test names tell history');
});

test.run();
