import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { extract, parseVariablePath } from '../../../domain/hub/extraction.ts';
import { parsePath, selectAll } from '../../../domain/hub/json-path.ts';
import {
  checkMaskPattern,
  checkSensitiveField,
  MASK,
  MAX_REGEX_MASK_INPUT,
  maskPayload,
  maskWith,
} from '../../../domain/hub/masking.ts';
import { render } from '../../../domain/hub/render.ts';

const payload = {
  customer: { name: 'Jane Mary Roe', email: 'jane.roe@example.com', iban: 'DE89370400440532013000', age: 42 },
  parties: [{ name: 'Al' }, { name: 'Bo Li' }],
  note: 'call 1234-5678 now',
};

test('masking keeps the structure: declared fields masked by method, undeclared ones visible, the original untouched', () => {
  const masked = maskPayload(
    payload,
    [
      { Path: '$.customer.name', Method: 'NAME' },
      { Path: '$.customer.email', Method: 'EMAIL' },
      { Path: '$.customer.iban', Method: 'KEEP_EDGES' },
      { Path: '$.customer.age', Method: 'FULL' },
      { Path: '$.parties[*].name', Method: 'FULL' },
      { Path: '$.note', Method: 'REGEX', Pattern: '\\d{4}' },
    ],
    {},
  );
  assert.equal(masked, {
    customer: { name: 'J*** M*** R**', email: 'j*******@example.com', iban: 'D********************0', age: '******' },
    parties: [{ name: '**' }, { name: '*****' }],
    note: 'call ****-**** now',
  });
  assert.is(payload.customer.name, 'Jane Mary Roe');
});

test('a path to an object masks every scalar inside; a path that is not there changes nothing', () => {
  assert.equal(maskPayload({ a: { b: 'xy', c: [1, 'z'] } }, [{ Path: '$.a', Method: 'FULL' }], {}), {
    a: { b: '**', c: ['******', '*'] },
  });
  assert.equal(maskPayload({ a: 1 }, [{ Path: '$.b.c', Method: 'FULL' }], {}), { a: 1 });
});

test('REGEX patterns that can backtrack catastrophically are refused', () => {
  for (const bad of ['(a+)+$', '(a|aa)*', '(\\w+\\s?)*x', '(?=a)', '(a)\\1', '(x{2,})+'])
    assert.type(checkMaskPattern(bad), 'string', bad);
  for (const good of ['\\d{4}', '[A-Z]{2}\\d+', '(ab)+', '\\w{1,64}@\\w+'])
    assert.is(checkMaskPattern(good), null, good);
});

test('known ReDoS patterns are refused: nested quantifiers, overlapping alternation under a quantifier, polynomial runs', () => {
  const known = [
    '^(a+)+$', // the classic
    '([a-zA-Z]+)*', // OWASP
    '(a|aa)+', // OWASP: overlapping alternation
    '(a|a?)+', // OWASP
    '(.*a){12}', // OWASP: x > 10
    '^(([a-z])+.)+[A-Z]([a-z])+$', // OWASP: Java class name
    '^([a-zA-Z0-9])(([\\-.]|[_]+)?([a-zA-Z0-9]+))*(@){1}[a-z0-9]+[.]{1}(([a-z]{2,3})|([a-z]{2,3}[.]{1}[a-z]{2,3}))$', // OWASP: e-mail validation
    '(?:x+x+)+y', // non-capturing group does not hide it
    '(?<n>\\w+)*z', // nor a named group
    '\\d+\\d+$', // polynomial: two overlapping unbounded runs
    '\\s*\\s*$', // polynomial (trim-like)
    '^\\s+|\\s+$', // the trim regex of CVE-2020-7662-style reports
    '\\w+@\\w+', // two unbounded runs
    '\\d{1,100}\\d{1,100}x', // bounded, but 10,000 choices per attempt
    '(a|b|c|d|e|f|g|h|i|j)(a|b|c|d|e|f|g|h|i|j)(a|b|c|d|e|f|g|h|i|j)(a|b|c|d|e|f|g|h|i|j)',
  ];
  for (const bad of known) assert.type(checkMaskPattern(bad), 'string', bad);
  // what a tenant reasonably masks stays possible
  for (const good of [
    '\\d{4}',
    '\\d(?:\\d{3})',
    '[0-9]{6,}',
    'DE\\d{2}[0-9 ]{10,30}',
    '(?:\\+49|0)1\\d{2,3}',
    '[^@\\s]{1,64}@',
    '\\b\\d{3}-\\d{2}-\\d{4}\\b',
  ]) {
    assert.is(checkMaskPattern(good), null, good);
  }
});

test('REGEX masking of a long value masks it FULL; an accepted pattern on an adversarial value finishes', () => {
  const long = '1'.repeat(MAX_REGEX_MASK_INPUT + 1);
  assert.is(maskWith(long, 'REGEX', '\\d{4}'), '*'.repeat(long.length));
  // the worst input for the one unbounded run allowed: a run of digits with no terminator, at the size cap
  const worst = '1'.repeat(MAX_REGEX_MASK_INPUT);
  assert.is(maskWith(worst, 'REGEX', '[0-9]{6,}x'), worst);
  assert.is(maskWith('call 1234-5678', 'REGEX', '\\d{4}'), 'call ****-****');
  assert.is(maskWith('jane@example.com', 'EMAIL'), 'j***@example.com');
  assert.is(maskWith(42, 'FULL'), MASK);
});

test('paths: members, quoted names, indexes, wildcards; filters and scripts are refused', () => {
  const p = parsePath("$.parties[1]['name']");
  assert.ok(p.ok);
  if (p.ok) assert.equal(selectAll(payload, p.steps), ['Bo Li']);
  assert.is(parsePath('$..name').ok, false);
  assert.is(parsePath('$.a[?(@.b)]').ok, false);
  assert.is(parsePath('a.b').ok, false);
});

test('a parsed path is kept and shared, frozen: the same text parses once, another text is parsed anew', () => {
  const a = parsePath('$.customer.name');
  assert.is(parsePath('$.customer.name'), a);
  assert.is.not(parsePath('$.customer.email'), a);
  assert.ok(a.ok);
  const steps = (a as unknown as { steps: Array<{ kind: string; name?: string }> }).steps;
  assert.throws(() => steps.push({ kind: 'wildcard' }));
  assert.throws(() => (steps[0]!.name = 'other'));
  assert.is(parsePath('$..name'), parsePath('$..name'));
  assert.is(parsePath(42 as unknown as string).ok, false);
  const v = parseVariablePath('Context.customer.name');
  assert.is(parseVariablePath('Context.customer.name'), v);
  assert.ok(v.ok);
  const source = (v as unknown as { source: { alias: string; steps: unknown[] } }).source;
  assert.throws(() => (source.alias = 'other'));
  assert.throws(() => source.steps.push({ kind: 'wildcard' }));
});

test('extraction: contexts by alias, variables from Context. and Payload. paths; missing ones are diagnostics', () => {
  const x = extract(
    {
      Contexts: { c: '$.customer', gone: '$.nobody' },
      Variables: { Name: 'Context.c.name', First: 'Payload.parties[0].name', Missing: 'Payload.nothing' },
    },
    payload,
  );
  assert.equal(x.variables, { Name: 'Jane Mary Roe', First: 'Al' });
  assert.equal(x.diagnostics.length, 2);
});

test("sensitive paths written as Variables are: Payload.… as $.…, Context.<alias>… through the alias's path", () => {
  const contexts = { customer: '$.customer', party: '$.parties[*]', first: '$.parties[0]' };
  const dollar = maskPayload(
    payload,
    [
      { Path: '$.customer.email', Method: 'EMAIL' },
      { Path: '$.customer.name', Method: 'NAME' },
    ],
    contexts,
  );
  const named = maskPayload(
    payload,
    [
      { Path: 'Context.customer.email', Method: 'EMAIL' },
      { Path: 'Payload.customer.name', Method: 'NAME' },
    ],
    contexts,
  );
  assert.equal(named, dollar);
  assert.equal(named.customer, { ...payload.customer, name: 'J*** M*** R**', email: 'j*******@example.com' });
  assert.equal(
    maskPayload(payload, [{ Path: 'Context.customer', Method: 'FULL' }], contexts).customer,
    maskWith(payload.customer, 'FULL'),
  );
  assert.equal(maskPayload(payload, [{ Path: 'Payload', Method: 'FULL' }], contexts), maskWith(payload, 'FULL'));
  assert.equal(maskPayload(payload, [{ Path: 'Context.first.name', Method: 'FULL' }], contexts).parties, [
    { name: '**' },
    { name: 'Bo Li' },
  ]);
  assert.equal(
    maskPayload(payload, [{ Path: 'Context.nobody.name', Method: 'FULL' }], contexts),
    payload,
    'an alias Contexts lacks masks nothing (it is refused at save)',
  );
  assert.is(payload.customer.email, 'jane.roe@example.com', 'the original untouched');
});

test('a Context. sensitive path masks what extraction reads at that path, a wildcard alias (the array of its matches) included', () => {
  const contexts = { customer: '$.customer', party: '$.parties[*]', first: '$.parties[0]' };
  const paths = [
    'Context.customer.email',
    'Context.customer',
    'Context.first.name',
    'Context.party',
    'Context.party[1].name',
    'Context.party[*].name',
    'Context.party[0]',
    'Payload.parties[1]',
  ];
  for (const path of paths) {
    const def = { Contexts: contexts, Variables: { X: path } };
    const masked = maskPayload(payload, [{ Path: path, Method: 'FULL' }], contexts);
    const before = extract(def, payload).variables.X;
    assert.ok(before !== undefined, `${path} reads a value`);
    assert.equal(extract(def, masked).variables.X, maskWith(before, 'FULL'), path);
  }
  assert.equal(maskPayload(payload, [{ Path: 'Context.party[1].name', Method: 'FULL' }], contexts).parties, [
    { name: 'Al' },
    { name: '*****' },
  ]);
  // a member of the array of matches is nothing, for extraction and for masking alike
  assert.is(extract({ Contexts: contexts, Variables: { X: 'Context.party.name' } }, payload).variables.X, undefined);
  assert.equal(maskPayload(payload, [{ Path: 'Context.party.name', Method: 'FULL' }], contexts), payload);
});

test('sensitive paths: $…, Payload.… and Context.<declared alias>… are accepted; anything else is refused on Path', () => {
  const contexts = { holder: '$.policy.holder' };
  for (const Path of [
    '$.policy.holder.email',
    'Payload.policy.holder.email',
    'Context.holder.email',
    'Context.holder',
    'Payload',
  ])
    assert.equal(checkSensitiveField({ Path, Method: 'EMAIL' }, contexts), [], Path);
  assert.equal(checkSensitiveField({ Path: 'Context.policy.holder.email', Method: 'EMAIL' }, contexts), [
    { field: 'Path', message: 'names the context alias policy, which Contexts does not declare' },
  ]);
  assert.equal(checkSensitiveField({ Path: 'policy.holder.email', Method: 'EMAIL' }, contexts), [
    { field: 'Path', message: 'must be a path starting with $, Payload. or Context.' },
  ]);
  for (const Path of ['Payload[0]', 'Context.', 'Payload.a[?(@.x)]', '$..x'])
    assert.is(checkSensitiveField({ Path, Method: 'FULL' }, contexts).length, 1, Path);
});

test('rendering: ${variable}, $${ for a literal, values as text or compact JSON, absent as nothing', () => {
  const r = render('${A} costs $${5} ${B} ${C}.', { A: 'It', B: { x: 1 } }, new Set(['A', 'B', 'C']), 'TEXT');
  assert.equal(r, { ok: true, text: 'It costs ${5} {"x":1} .', missing: ['C'] });
});

test.run();
