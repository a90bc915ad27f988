import { test } from 'uvu';
import * as assert from 'uvu/assert';
import {
  callsCode,
  ExpressionFailure,
  evaluateCondition,
  evaluateExpression,
  syntaxProblem,
} from '../../../domain/workflow/expression/expression.ts';
import { parseJuel } from '../../../domain/workflow/expression/juel.parser.ts';

// The JUEL subset: a real parser (no eval), EL's coercions, the spec's error for an unknown variable.
const j = (text: string) => ({ language: 'juel' as const, text });
const value = (text: string, variables: Record<string, unknown> = {}) => evaluateExpression(j(text), { variables });
const holds = (text: string, variables: Record<string, unknown> = {}) => evaluateCondition(j(text), { variables });

test('literals, identifiers, property and index access', () => {
  assert.is(value('${1.5e2}'), 150);
  assert.is(value("${'it\\'s'}"), "it's");
  assert.is(value('${"a\\"b"}'), 'a"b');
  assert.is(value('${null}'), null);
  assert.is(value('${a.b[1].c}', { a: { b: [0, { c: 'deep' }] } }), 'deep');
  assert.is(value("${a['x y']}", { a: { 'x y': 3 } }), 3);
  assert.is(value('${a.missing}', { a: {} }), null, 'a missing key is null, as a map in EL');
  assert.is(value('${a.b}', { a: null }), null);
  assert.is(value('plain text'), 'plain text');
  assert.is(value('Dear ${name}, ${n} days', { name: 'Kermit', n: 4 }), 'Dear Kermit, 4 days');
  assert.is(value('\\${not} ${x}', { x: 1 }), '${not} 1');
  assert.equal(value('${list}', { list: ['a'] }), ['a'], 'one part keeps its type');
});

test('operators and precedence, keyword forms', () => {
  assert.is(value('${1 + 2 * 3}'), 7);
  assert.is(value('${(1 + 2) * 3}'), 9);
  assert.is(value('${7 / 2}'), 3.5, '/ divides as a double');
  assert.is(value('${7 mod 4}'), 3);
  assert.is(value('${-x}', { x: 2 }), -2);
  assert.ok(holds('${a > 1 && b < 2 || c}', { a: 2, b: 1, c: false }));
  assert.ok(holds('${a gt 1 and b lt 2}', { a: 2, b: 1 }));
  assert.ok(holds('${a ge 2 and a le 2 and a eq 2 and a ne 3}', { a: 2 }));
  assert.ok(holds('${not false}'));
  assert.ok(holds('${!(1 > 2)}'));
  assert.ok(holds('${empty x and empty y and empty z and not empty w}', { x: '', y: [], z: null, w: 'v' }));
  assert.is(value('${a ? "yes" : "no"}', { a: true }), 'yes');
  assert.is(value('${a ? b ? 1 : 2 : 3}', { a: true, b: false }), 2);
  assert.not.ok(holds('${false || false}'));
});

test("EL coercion: 'true' == true, numbers beat strings, booleans from text", () => {
  assert.ok(holds("${v == 'true'}", { v: true }));
  assert.ok(holds("${v == 'false'}", { v: false }));
  assert.not.ok(holds("${v == 'false'}", { v: true }));
  assert.not.ok(holds('${v == "true"}', { v: 'TRUE' }), 'two texts compare as text: case matters');
  assert.ok(holds("${n == '1'}", { n: 1 }));
  assert.ok(holds("${n < '10'}", { n: 9 }), 'a number on either side compares numbers');
  assert.ok(holds("${'b' > 'a'}"));
  assert.ok(holds('${x == null}', { x: null }));
  assert.not.ok(holds('${x == 0}', { x: null }));
  assert.not.ok(holds('${x < 1}', { x: null }), 'null compares false');
  assert.ok(holds('${flag}', { flag: 'true' }));
  assert.not.ok(holds('${flag}', { flag: 'yes' }));
  assert.ok(holds('${status != 200}', { status: 500 }));
});

test("the spec's error for a variable that does not exist names the expression", () => {
  try {
    value('${assignee}');
    assert.unreachable();
  } catch (err) {
    assert.instance(err, ExpressionFailure);
    assert.match(
      (err as Error).message,
      /^Error while evaluating expression: \$\{assignee\}\. Cause: Cannot resolve identifier 'assignee'$/,
    );
  }
  assert.throws(
    () => value('#{svc.find(id)}', { id: 1 }),
    /Error while evaluating expression: #\{svc\.find\(id\)\}.*calls are not supported/,
  );
  assert.throws(() => holds('${x > 1}', { x: {} }), /Error while evaluating expression/);
  assert.throws(() => holds('${n == 1}', { n: 'abc' }), /cannot coerce 'abc' to a number/);
});

test('syntax: checked at deploy, calls parse but are flagged, nothing is evaluated with eval', () => {
  assert.is(syntaxProblem(j('${a == 1}')), undefined);
  assert.match(syntaxProblem(j('${a ==}')) ?? '', /unexpected end/);
  assert.match(syntaxProblem(j('${a = 1}')) ?? '', /unexpected character/);
  assert.match(syntaxProblem(j('${a')) ?? '', /unterminated/);
  assert.match(syntaxProblem(j("${'open}")) ?? '', /unterminated/);
  assert.ok(callsCode(j('${dateTime().plusWeeks(1).toDate()}')));
  assert.not.ok(callsCode(j('${a.b}')));
  assert.is(syntaxProblem(j('${constructor.constructor("return process")()}')), undefined, 'parses as calls …');
  assert.throws(
    () => value('${constructor.constructor("return process")()}'),
    /calls are not supported/,
    '… that never run',
  );
  assert.equal(parseJuel('  ${x}  ').parts.length, 1, 'whitespace around one part is trimmed');
});

test('FEEL (feelin) for Zeebe and language="feel" conditions', () => {
  const feel = (text: string) => ({ language: 'feel' as const, text });
  assert.ok(evaluateCondition(feel('=amount.value < 25'), { variables: { amount: { value: 10 } } }));
  assert.ok(evaluateCondition(feel('action = "bind"'), { variables: { action: 'bind' } }));
  assert.is(evaluateExpression(feel('=assignee'), { variables: { assignee: 'kermit' } }), 'kermit');
  assert.throws(
    () => evaluateCondition(feel('=x > 1'), { variables: {} }),
    /Error while evaluating expression: =x > 1/,
  );
  assert.throws(() => evaluateCondition(feel('="text"'), { variables: {} }), /expected a boolean/);
  assert.match(syntaxProblem(feel('=foo(')) ?? '', /.+/);
});

test.run();
