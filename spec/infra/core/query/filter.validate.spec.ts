// The parsed form of a filter, which filter.match.ts evaluates: one clause per key in the filter's order,
// each field's conditions in the order written, literals and RegExps as $eq and $regex, $options read
// with its $regex. (What the filters match is in ../mongo-filter.spec.ts, against MongoDB's answers.)
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { parseFilter, validateFilter } from '../../../../infra/core/query/filter.validate.ts';
import { compileFilter } from '../../../../infra/core/query/index.ts';

const parse = suite('query: parseFilter');

parse('fields, operators and $or in the order written', () => {
  const tree = parseFilter({
    status: 'active',
    'a.b': { $gte: 2, $exists: 1, $nin: [null, 'x'] },
    $or: [{ name: { $options: 'i', $regex: '^al' } }, { tags: /x/m }],
  });
  assert.is(tree.length, 3);
  assert.equal(tree[0], { kind: 'field', parts: ['status'], conditions: [{ op: '$eq', value: 'active' }] });
  assert.equal(tree[1], {
    kind: 'field',
    parts: ['a', 'b'],
    conditions: [
      { op: '$gte', value: 2 },
      { op: '$exists', exists: true },
      { op: '$nin', values: [null, 'x'] },
    ],
  });
  const or = tree[2]!;
  if (or.kind !== '$or') throw new Error(`expected $or, got ${or.kind}`);
  const [byName, byTags] = or.filters.map((f) => f[0]!);
  if (byName?.kind !== 'field' || byTags?.kind !== 'field') throw new Error('expected field clauses');
  const nameRegex = byName.conditions[0];
  const tagsRegex = byTags.conditions[0];
  assert.ok(nameRegex?.op === '$regex' && nameRegex.regex.source === '^al' && nameRegex.regex.flags === 'i');
  assert.ok(tagsRegex?.op === '$regex' && tagsRegex.regex.source === 'x' && tagsRegex.regex.flags === 'm');
  assert.is(byName.conditions.length, 1, '$options adds no condition of its own');
});

parse('a literal document is an equality, not operators', () => {
  assert.equal(parseFilter({ m: { a: 1 } }), [
    { kind: 'field', parts: ['m'], conditions: [{ op: '$eq', value: { a: 1 } }] },
  ]);
});

parse('validation and compilation reject the same filter with the same message', () => {
  const bad = [
    { a: { $gt: 1, b: 2 } },
    { $nor: [] },
    { a: { $in: 3 } },
    { 'a..b': 1 },
    { a: { $regex: '(' } },
    { a: { $exists: 'yes' } },
  ];
  for (const filter of bad) {
    let validated = '';
    let compiled = '';
    try {
      validateFilter(filter as never);
    } catch (e) {
      validated = (e as Error).message;
    }
    try {
      compileFilter(filter as never);
    } catch (e) {
      compiled = (e as Error).message;
    }
    assert.ok(validated !== '', `${JSON.stringify(filter)} is rejected`);
    assert.is(compiled, validated);
  }
});

parse.run();
