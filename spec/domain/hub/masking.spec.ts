import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { extract } from '../../../domain/hub/extraction.ts';
import { parsePath, selectAll } from '../../../domain/hub/json-path.ts';
import { checkMaskPattern, maskPayload } from '../../../domain/hub/masking.ts';
import { render } from '../../../domain/hub/render.ts';

const payload = {
  customer: { name: 'Jane Mary Roe', email: 'jane.roe@example.com', iban: 'DE89370400440532013000', age: 42 },
  parties: [{ name: 'Al' }, { name: 'Bo Li' }],
  note: 'call 1234-5678 now',
};

test('masking keeps the structure: declared fields masked by method, undeclared ones visible, the original untouched', () => {
  const masked = maskPayload(payload, [
    { Path: '$.customer.name', Method: 'NAME' },
    { Path: '$.customer.email', Method: 'EMAIL' },
    { Path: '$.customer.iban', Method: 'KEEP_EDGES' },
    { Path: '$.customer.age', Method: 'FULL' },
    { Path: '$.parties[*].name', Method: 'FULL' },
    { Path: '$.note', Method: 'REGEX', Pattern: '\\d{4}' },
  ]);
  assert.equal(masked, {
    customer: { name: 'J*** M*** R**', email: 'j*******@example.com', iban: 'D********************0', age: '******' },
    parties: [{ name: '**' }, { name: '*****' }],
    note: 'call ****-**** now',
  });
  assert.is(payload.customer.name, 'Jane Mary Roe');
});

test('a path to an object masks every scalar inside; a path that is not there changes nothing', () => {
  assert.equal(maskPayload({ a: { b: 'xy', c: [1, 'z'] } }, [{ Path: '$.a', Method: 'FULL' }]), { a: { b: '**', c: ['******', '*'] } });
  assert.equal(maskPayload({ a: 1 }, [{ Path: '$.b.c', Method: 'FULL' }]), { a: 1 });
});

test('REGEX patterns that can backtrack catastrophically are refused', () => {
  for (const bad of ['(a+)+$', '(a|aa)*', '(\\w+\\s?)*x', '(?=a)', '(a)\\1', '(x{2,})+']) assert.type(checkMaskPattern(bad), 'string', bad);
  for (const good of ['\\d{4}', '[A-Z]{2}\\d+', '(ab)+', '\\w+@\\w+']) assert.is(checkMaskPattern(good), null, good);
});

test('paths: members, quoted names, indexes, wildcards; filters and scripts are refused', () => {
  const p = parsePath("$.parties[1]['name']");
  assert.ok(p.ok);
  if (p.ok) assert.equal(selectAll(payload, p.steps), ['Bo Li']);
  assert.is(parsePath('$..name').ok, false);
  assert.is(parsePath('$.a[?(@.b)]').ok, false);
  assert.is(parsePath('a.b').ok, false);
});

test('extraction: contexts by alias, variables from Context. and Payload. paths; missing ones are diagnostics', () => {
  const x = extract({ Contexts: { c: '$.customer', gone: '$.nobody' }, Variables: { Name: 'Context.c.name', First: 'Payload.parties[0].name', Missing: 'Payload.nothing' } }, payload);
  assert.equal(x.variables, { Name: 'Jane Mary Roe', First: 'Al' });
  assert.equal(x.diagnostics.length, 2);
});

test('rendering: ${variable}, $${ for a literal, values as text or compact JSON, absent as nothing', () => {
  const r = render('${A} costs $${5} ${B} ${C}.', { A: 'It', B: { x: 1 } }, new Set(['A', 'B', 'C']), 'TEXT');
  assert.equal(r, { ok: true, text: 'It costs ${5} {"x":1} .', missing: ['C'] });
});

test.run();
