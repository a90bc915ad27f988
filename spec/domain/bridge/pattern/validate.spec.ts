// Every 400 of parsePattern, with its message and the JSON path of the offending element.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { formatJsonPath, isPatternError, PatternError } from '../../../../domain/bridge/pattern/pattern.error.ts';
import { testPattern } from '../../../../domain/bridge/pattern/pattern.match.ts';
import { parsePattern } from '../../../../domain/bridge/pattern/pattern.validate.ts';
import { isDomainError } from '../../../../domain/core/domain-error.ts';

const test = suite('pattern validation');

const rejects = (json: unknown, path: string, fragment: string) => {
  try {
    parsePattern(json);
  } catch (e) {
    assert.ok(isPatternError(e), `not a PatternError: ${String(e)}`);
    assert.is(e.path, path, `path for ${JSON.stringify(json)}: ${e.message}`);
    assert.ok(e.message.includes(fragment), `message for ${JSON.stringify(json)}: "${e.message}" lacks "${fragment}"`);
    return;
  }
  assert.unreachable(`accepted ${JSON.stringify(json)}`);
};

const CASES: Array<[string, unknown, string, string]> = [
  // shape
  ['a string is not a pattern', 'x', '', 'a pattern is a JSON object, not "x"'],
  ['an array is not a pattern', [{ a: ['x'] }], '', 'not an array'],
  ['null is not a pattern', null, '', 'not null'],
  ['a number is not a pattern', 5, '', 'not 5'],
  ['an empty pattern', {}, '', 'at least one field'],
  ['an empty nested object', { data: {} }, 'data', 'nested pattern object needs at least one field'],
  [
    'a field value that is a string',
    { a: 'x' },
    'a',
    'a field\'s value is an array of matchers or a nested pattern object, not "x"',
  ],
  ['a field value that is null', { a: null }, 'a', 'not null'],
  ['a field value that is a number', { data: { amount: 5 } }, 'data.amount', 'not 5'],
  ['an empty matcher array', { data: { amount: [] } }, 'data.amount', 'at least one matcher'],
  ['an array inside the matcher array', { a: [['x']] }, 'a[0]', 'not an array'],
  // matcher objects
  [
    'an unknown matcher',
    { data: { amount: [1, { prefx: 'x' }] } },
    'data.amount[1]',
    'unknown matcher "prefx" (expected one of prefix, suffix, anything-but, numeric, cidr, exists, equals-ignore-case, wildcard)',
  ],
  ['an empty matcher object', { a: [{}] }, 'a[0]', 'exactly one key, found none'],
  [
    'two keys in a matcher object',
    { a: [{ prefix: 'x', suffix: 'y' }] },
    'a[0]',
    'exactly one key, found "prefix", "suffix"',
  ],
  ['prefix with a number', { a: [{ prefix: 5 }] }, 'a[0].prefix', 'prefix takes a string, not 5'],
  [
    'suffix with an object',
    { a: [{ suffix: { 'equals-ignore-case': 'x' } }] },
    'a[0].suffix',
    'suffix takes a string, not an object',
  ],
  [
    'equals-ignore-case with null',
    { a: [{ 'equals-ignore-case': null }] },
    'a[0].equals-ignore-case',
    'takes a string, not null',
  ],
  // wildcard
  ['** in a wildcard', { a: [{ wildcard: 'a**b' }] }, 'a[0].wildcard', 'two consecutive * at 1'],
  ['** at the start of a wildcard', { a: [{ wildcard: '**' }] }, 'a[0].wildcard', 'two consecutive *'],
  ['an unknown escape in a wildcard', { a: [{ wildcard: 'a\\b' }] }, 'a[0].wildcard', 'unknown escape \\b'],
  ['a lone backslash ending a wildcard', { a: [{ wildcard: 'ab\\' }] }, 'a[0].wildcard', 'lone backslash'],
  // numeric
  [
    'numeric with an odd number of elements',
    { a: [{ numeric: ['>', 0, '<'] }] },
    'a[0].numeric',
    'one or two operator/number pairs',
  ],
  ['numeric with no pair', { a: [{ numeric: [] }] }, 'a[0].numeric', 'one or two operator/number pairs'],
  [
    'numeric with three pairs',
    { a: [{ numeric: ['>', 0, '<', 5, '=', 1] }] },
    'a[0].numeric',
    'one or two operator/number pairs',
  ],
  ['numeric that is not an array', { a: [{ numeric: 5 }] }, 'a[0].numeric', 'one or two operator/number pairs'],
  [
    'an unknown numeric operator',
    { a: [{ numeric: ['!=', 5] }] },
    'a[0].numeric[0]',
    'unknown numeric operator "!=" (expected one of < <= = > >=)',
  ],
  [
    'a numeric operator that is not a string',
    { a: [{ numeric: [5, 5] }] },
    'a[0].numeric[0]',
    'unknown numeric operator 5',
  ],
  [
    'a numeric bound that is a string',
    { data: { amount: [{ numeric: ['>', 0, '<=', '5'] }] } },
    'data.amount[0].numeric[3]',
    'numeric compares with a JSON number, not "5"',
  ],
  ['a numeric bound that is null', { a: [{ numeric: ['=', null] }] }, 'a[0].numeric[1]', 'not null'],
  [
    'a numeric range with lower = upper',
    { a: [{ numeric: ['>=', 5, '<=', 5] }] },
    'a[0].numeric',
    'numeric range is empty: lower bound 5 is not below upper bound 5',
  ],
  [
    'a numeric range with lower > upper',
    { a: [{ numeric: ['<', 1, '>', 10] }] },
    'a[0].numeric',
    'lower bound 10 is not below upper bound 1',
  ],
  ['two lower bounds', { a: [{ numeric: ['>', 1, '>=', 2] }] }, 'a[0].numeric[2]', 'two lower bounds'],
  ['two upper bounds', { a: [{ numeric: ['<', 1, '<=', 2] }] }, 'a[0].numeric[2]', 'two upper bounds'],
  ['= with another pair', { a: [{ numeric: ['=', 1, '<', 2] }] }, 'a[0].numeric[0]', '"=" cannot be combined'],
  // cidr
  [
    'an IPv4 prefix length over 32',
    { ip: [{ cidr: '10.0.0.0/33' }] },
    'ip[0].cidr',
    'bad CIDR: prefix length 33 is out of range 0-32 for IPv4',
  ],
  [
    'an IPv6 prefix length over 128',
    { ip: [{ cidr: '2001:db8::/129' }] },
    'ip[0].cidr',
    'prefix length 129 is out of range 0-128 for IPv6',
  ],
  [
    'an octet over 255',
    { ip: [{ cidr: '10.0.0.256/24' }] },
    'ip[0].cidr',
    'bad CIDR: "10.0.0.256" is not an IPv4 or IPv6 address',
  ],
  [
    'an octet with a leading zero',
    { ip: [{ cidr: '010.0.0.0/8' }] },
    'ip[0].cidr',
    '"010.0.0.0" is not an IPv4 or IPv6 address',
  ],
  ['three octets', { ip: [{ cidr: '10.0.0/8' }] }, 'ip[0].cidr', 'is not an IPv4 or IPv6 address'],
  ['an empty prefix length', { ip: [{ cidr: '10.0.0.0/' }] }, 'ip[0].cidr', 'prefix length "" is not a number 0-32'],
  ['two slashes', { ip: [{ cidr: '10.0.0.0/8/8' }] }, 'ip[0].cidr', 'prefix length "8/8" is not a number'],
  [
    'a signed prefix length',
    { ip: [{ cidr: '2001:db8::/+32' }] },
    'ip[0].cidr',
    'prefix length "+32" is not a number 0-128',
  ],
  ['two :: in an IPv6 address', { ip: [{ cidr: '2001::db8::1/64' }] }, 'ip[0].cidr', 'is not an IPv4 or IPv6 address'],
  ['::: in an IPv6 address', { ip: [{ cidr: '2001:db8:::1' }] }, 'ip[0].cidr', 'is not an IPv4 or IPv6 address'],
  ['nine IPv6 groups', { ip: [{ cidr: '1:2:3:4:5:6:7:8:9' }] }, 'ip[0].cidr', 'is not an IPv4 or IPv6 address'],
  ['a five-digit IPv6 group', { ip: [{ cidr: '2001:db8::12345' }] }, 'ip[0].cidr', 'is not an IPv4 or IPv6 address'],
  ['a zone id', { ip: [{ cidr: 'fe80::1%eth0' }] }, 'ip[0].cidr', 'is not an IPv4 or IPv6 address'],
  ['a host name', { ip: [{ cidr: 'localhost' }] }, 'ip[0].cidr', '"localhost" is not an IPv4 or IPv6 address'],
  ['cidr with a number', { ip: [{ cidr: 10 }] }, 'ip[0].cidr', 'cidr takes a string such as "10.0.0.0/24", not 10'],
  // exists
  ['exists with a string', { a: [{ exists: 'true' }] }, 'a[0].exists', 'exists takes true or false, not "true"'],
  ['exists with null', { a: [{ exists: null }] }, 'a[0].exists', 'not null'],
  // anything-but
  [
    'anything-but with an empty list',
    { a: [{ 'anything-but': [] }] },
    'a[0].anything-but',
    'anything-but needs at least one value',
  ],
  [
    'an object inside anything-but',
    { a: [{ 'anything-but': ['x', { prefix: 'y' }] }] },
    'a[0].anything-but[1]',
    'strings and numbers only, not an object',
  ],
  ['an array inside anything-but', { a: [{ 'anything-but': [['x']] }] }, 'a[0].anything-but[0]', 'not an array'],
  ['a boolean inside anything-but', { a: [{ 'anything-but': [true] }] }, 'a[0].anything-but[0]', 'not true'],
  ['anything-but null', { a: [{ 'anything-but': null }] }, 'a[0].anything-but', 'not null'],
  ['anything-but numeric', { a: [{ 'anything-but': { numeric: ['>', 1] } }] }, 'a[0].anything-but', 'found "numeric"'],
  [
    'anything-but with two keys',
    { a: [{ 'anything-but': { prefix: 'x', suffix: 'y' } }] },
    'a[0].anything-but',
    'found "prefix", "suffix"',
  ],
  ['anything-but with an empty object', { a: [{ 'anything-but': {} }] }, 'a[0].anything-but', 'found no key'],
  [
    'anything-but wildcard with **',
    { a: [{ 'anything-but': { wildcard: 'x**' } }] },
    'a[0].anything-but.wildcard',
    'two consecutive *',
  ],
  [
    'anything-but prefix with a number',
    { a: [{ 'anything-but': { prefix: 5 } }] },
    'a[0].anything-but.prefix',
    'prefix takes a string, not 5',
  ],
  [
    'anything-but equals-ignore-case with an empty list',
    { a: [{ 'anything-but': { 'equals-ignore-case': [] } }] },
    'a[0].anything-but.equals-ignore-case',
    'needs at least one string',
  ],
  [
    'anything-but suffix list with a number',
    { a: [{ 'anything-but': { suffix: ['x', 5] } }] },
    'a[0].anything-but.suffix[1]',
    'suffix takes a string, not 5',
  ],
  // paths with keys that are not plain names
  ['a dotted key is printed quoted', { 'a.b': [{ prefx: 1 }] }, '["a.b"][0]', 'unknown matcher "prefx"'],
  [
    'a deep path',
    { detail: { 'c.count': [{ numeric: ['>', 0, '<=', 'x'] }] } },
    'detail["c.count"][0].numeric[3]',
    'not "x"',
  ],
  ['the first error wins, in source order', { a: ['ok'], b: [], c: [{ bad: 1 }] }, 'b', 'at least one matcher'],
];

for (const [name, json, path, fragment] of CASES) test(`rejects ${name}`, () => rejects(json, path, fragment));

test('a PatternError is a 400 domain error with a stable code and the path in details', () => {
  try {
    parsePattern({ data: { amount: [1, { numeric: ['<', 'x'] }] } });
    assert.unreachable();
  } catch (e) {
    assert.ok(e instanceof PatternError);
    assert.ok(isDomainError(e));
    assert.is(e.code, 'PATTERN.INVALID');
    assert.is(e.status, 400);
    assert.is(e.message, 'Invalid pattern at data.amount[1].numeric[1]: numeric compares with a JSON number, not "x"');
    assert.equal(e.details, {
      path: 'data.amount[1].numeric[1]',
      reason: 'numeric compares with a JSON number, not "x"',
    });
  }
});

test('formatJsonPath: plain keys dotted, other keys quoted in brackets, indexes in brackets', () => {
  assert.is(formatJsonPath([]), '');
  assert.is(formatJsonPath(['data', 'amount', 1]), 'data.amount[1]');
  assert.is(formatJsonPath(['detail-type', 0]), 'detail-type[0]');
  assert.is(formatJsonPath(['a b', 'x.y', 'ok']), '["a b"]["x.y"].ok');
});

test('accepts every matcher of the table and the extensions, into the expected AST', () => {
  const p = parsePattern({
    a: ['x', 3e2, true, false, null, ''],
    b: [{ prefix: 'p' }, { suffix: 's' }, { 'equals-ignore-case': 'E' }, { wildcard: 'he\\**o?' }],
    c: [{ numeric: ['<', 5, '>=', 1] }, { numeric: ['=', 301.8] }, { numeric: ['>', 0] }],
    d: [
      { cidr: '10.0.0.1' },
      { cidr: '220.160.153.171/31' },
      { cidr: '2001:DB8::/32' },
      { cidr: '::ffff:10.0.0.0/104' },
    ],
    e: [{ exists: false }, '1'],
    f: [
      { 'anything-but': 'x' },
      { 'anything-but': [111, 'y'] },
      { 'anything-but': { prefix: 'init' } },
      { 'anything-but': { suffix: ['.tmp', '~'] } },
    ],
    g: { h: [{ 'anything-but': { wildcard: '*.log' } }, { 'anything-but': { 'equals-ignore-case': ['A', 'b'] } }] },
  });
  const field = (k: string) => p.fields.find(([key]) => key === k)?.[1];
  assert.equal(field('a'), {
    kind: 'matchers',
    matchers: ['x', 300, true, false, null, ''].map((value) => ({ kind: 'equals', value })),
  });
  assert.equal(field('b'), {
    kind: 'matchers',
    matchers: [
      { kind: 'prefix', value: 'p' },
      { kind: 'suffix', value: 's' },
      { kind: 'equals-ignore-case', value: 'E' },
      {
        kind: 'wildcard',
        value: 'he\\**o?',
        parts: [{ kind: 'text', text: 'he*' }, { kind: 'any' }, { kind: 'text', text: 'o' }, { kind: 'one' }],
      },
    ],
  });
  assert.equal(field('c'), {
    kind: 'matchers',
    matchers: [
      { kind: 'numeric', lower: { value: 1, inclusive: true }, upper: { value: 5, inclusive: false } },
      { kind: 'numeric', lower: { value: 301.8, inclusive: true }, upper: { value: 301.8, inclusive: true } },
      { kind: 'numeric', lower: { value: 0, inclusive: false } },
    ],
  });
  const blocks = (
    field('d') as unknown as { matchers: Array<{ block: { address: number[]; prefixLength: number } }> }
  ).matchers.map((m) => m.block);
  assert.equal(blocks, [
    { address: [0, 0, 0, 0, 0, 0xffff, 0x0a00, 0x0001], prefixLength: 128 },
    { address: [0, 0, 0, 0, 0, 0xffff, 0xdca0, 0x99aa], prefixLength: 127 },
    { address: [0x2001, 0xdb8, 0, 0, 0, 0, 0, 0], prefixLength: 32 },
    { address: [0, 0, 0, 0, 0, 0xffff, 0x0a00, 0], prefixLength: 104 },
  ]);
  assert.equal(field('e'), {
    kind: 'matchers',
    matchers: [
      { kind: 'exists', value: false },
      { kind: 'equals', value: '1' },
    ],
  });
  assert.equal((field('f') as unknown as { matchers: unknown[] }).matchers, [
    { kind: 'anything-but', excluded: { kind: 'values', values: ['x'] } },
    { kind: 'anything-but', excluded: { kind: 'values', values: [111, 'y'] } },
    { kind: 'anything-but', excluded: { kind: 'strings', matchers: [{ kind: 'prefix', value: 'init' }] } },
    {
      kind: 'anything-but',
      excluded: {
        kind: 'strings',
        matchers: [
          { kind: 'suffix', value: '.tmp' },
          { kind: 'suffix', value: '~' },
        ],
      },
    },
  ]);
});

test('a wildcard may mix * and ? and escaped stars next to a star', () => {
  for (const w of ['*?*', '?*?', '\\**', '*\\*', '\\*\\*', '*\\\\*', '']) parsePattern({ a: [{ wildcard: w }] });
});

test('test-pattern answers {match} or throws the same 400', () => {
  assert.equal(testPattern({ source: ['acs.ecs'] }, { source: 'acs.ecs' }), { match: true });
  assert.equal(testPattern({ source: ['acs.ecs'] }, { source: 'acs.oss' }), { match: false });
  assert.throws(
    () => testPattern({ source: [{ wildcard: 'a**' }] }, {}),
    (e: unknown) => isPatternError(e) && e.path === 'source[0].wildcard',
  );
});

test.run();
