import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import {
  applyUpdate,
  compareForSort,
  matchesFilter,
  normalizeFilter,
  validateFilter,
  validateUpdate,
} from '../../../infra/core/query/index.ts';
import type { Filter, Update } from '../../../infra/core/read-store.port.ts';

/** [document, filter, MongoDB's answer] */
type Case = [Record<string, unknown>, Filter, boolean];

const cases: Record<string, Case[]> = {
  'equality on scalars and arrays': [
    [{ a: 1 }, { a: 1 }, true],
    [{ a: 1 }, { a: '1' }, false],
    [{ a: 1 }, { a: 1.0 }, true],
    [{ a: true }, { a: 1 }, false],
    [{ a: [1, 2] }, { a: 1 }, true],
    [{ a: [1, 2] }, { a: [1, 2] }, true],
    [{ a: [1, 2] }, { a: [2, 1] }, false],
    [{ a: [[1, 2], 3] }, { a: [1, 2] }, true],
    [{ a: [[1, 2]] }, { a: 1 }, false],
    [{ a: { b: 1, c: 2 } }, { a: { b: 1, c: 2 } }, true],
    [{ a: { b: 1, c: 2 } }, { a: { c: 2, b: 1 } }, false],
    [{ a: { b: 1, c: 2 } }, { a: { b: 1 } }, false],
    [{ a: 1 }, { a: { $eq: 1 } }, true],
    [{ id: 'x1' }, { id: 'x1' }, true],
  ],
  'dotted paths into objects and arrays': [
    [{ a: { b: { c: 3 } } }, { 'a.b.c': 3 }, true],
    [{ a: { b: { c: 3 } } }, { 'a.b': { c: 3 } }, true],
    [{ a: [{ b: 1 }, { b: 2 }] }, { 'a.b': 2 }, true],
    [{ a: [{ b: 1 }, { b: 2 }] }, { 'a.b': 3 }, false],
    [{ a: [{ b: [1, 2] }] }, { 'a.b': 2 }, true],
    [{ a: [4, 5] }, { 'a.1': 5 }, true],
    [{ a: [4, 5] }, { 'a.0': 5 }, false],
    [{ a: [{ b: 1 }, { b: 2 }] }, { 'a.1.b': 2 }, true],
    [{ a: [{ b: 1 }, { b: 2 }] }, { 'a.0.b': 2 }, false],
    [{ a: { '1': 'x' } }, { 'a.1': 'x' }, true],
    [{ a: [[{ b: 1 }]] }, { 'a.b': 1 }, false],
    [{ a: 5 }, { 'a.b': 5 }, false],
  ],
  '$ne and $nin (negations over the whole fan-out)': [
    [{ a: [1, 2] }, { a: { $ne: 1 } }, false],
    [{ a: [1, 2] }, { a: { $ne: 3 } }, true],
    [{}, { a: { $ne: 1 } }, true],
    [{ a: null }, { a: { $ne: null } }, false],
    [{ a: 0 }, { a: { $ne: null } }, true],
    [{}, { a: { $ne: null } }, false],
    [{ a: [{ b: 1 }, { c: 1 }] }, { 'a.b': { $ne: null } }, false],
    [{ a: [1, 2] }, { a: { $nin: [2, 3] } }, false],
    [{ a: [1, 2] }, { a: { $nin: [3, 4] } }, true],
    [{}, { a: { $nin: [1] } }, true],
    [{}, { a: { $nin: [null] } }, false],
  ],
  $in: [
    [{ a: [1, 2] }, { a: { $in: [2, 5] } }, true],
    [{ a: 'x' }, { a: { $in: ['y', 'x'] } }, true],
    [{ a: 'x' }, { a: { $in: [] } }, false],
    [{}, { a: { $in: [null] } }, true],
    [{ a: [1, 2] }, { a: { $in: [[1, 2]] } }, true],
    [{ a: 1 }, { a: { $in: ['1', true] } }, false],
  ],
  'null and $exists': [
    [{}, { a: null }, true],
    [{ a: null }, { a: null }, true],
    [{ a: 0 }, { a: null }, false],
    [{ a: [1, null] }, { a: null }, true],
    [{ a: [] }, { a: null }, false],
    [{ a: 5 }, { 'a.b': null }, true],
    [{ a: [{ b: 1 }, { c: 2 }] }, { 'a.b': null }, true],
    [{ a: [{ b: 1 }] }, { 'a.b': null }, false],
    [{ a: null }, { a: { $exists: true } }, true],
    [{}, { a: { $exists: true } }, false],
    [{}, { a: { $exists: false } }, true],
    [{ a: null }, { a: { $exists: false } }, false],
    [{ a: [] }, { a: { $exists: true } }, true],
    [{ a: [{ c: 1 }, { b: 2 }] }, { 'a.b': { $exists: true } }, true],
    [{ a: [{ c: 1 }, { b: 2 }] }, { 'a.b': { $exists: false } }, false],
    [{ a: [{ c: 1 }] }, { 'a.b': { $exists: true } }, false],
    [{ a: { b: 1 } }, { 'a.b': { $exists: 1 } }, true],
  ],
  'comparisons (same kind only)': [
    [{ a: [1, 5] }, { a: { $gt: 4, $lt: 2 } }, true],
    [{ a: [1, 5] }, { a: { $gt: 5 } }, false],
    [{ a: [1, 5] }, { a: { $gte: 5 } }, true],
    [{ a: 2.5 }, { a: { $gt: 2, $lt: 3 } }, true],
    [{ a: '10' }, { a: { $gt: 5 } }, false],
    [{ a: 10 }, { a: { $gt: '5' } }, false],
    [{ a: 'b' }, { a: { $gt: 'a' } }, true],
    [{ a: 'B' }, { a: { $gt: 'a' } }, false],
    [{ a: true }, { a: { $gt: false } }, true],
    [{ a: true }, { a: { $gt: 0 } }, false],
    [{}, { a: { $gte: null } }, true],
    [{}, { a: { $gt: null } }, false],
    [{ a: null }, { a: { $lte: null } }, true],
    [{ a: 1 }, { a: { $gte: null } }, false],
    [{ a: [[1, 2]] }, { a: { $gt: 0 } }, false],
    [{ a: [{ b: 5 }, { b: 1 }] }, { 'a.b': { $gt: 4 } }, true],
    [{}, { a: { $lt: 5 } }, false],
  ],
  $regex: [
    [{ a: 'Hello' }, { a: { $regex: '^hel' } }, false],
    [{ a: 'Hello' }, { a: { $regex: '^hel', $options: 'i' } }, true],
    [{ a: ['x', 'Hello'] }, { a: /^hel/i }, true],
    [{ a: 'Hello' }, { a: { $regex: /^hel/i } }, true],
    [{ a: 5 }, { a: { $regex: '5' } }, false],
    [{ a: 'a\nb' }, { a: { $regex: '^b', $options: 'm' } }, true],
    [{ a: 'a\nb' }, { a: { $regex: '^b' } }, false],
    [{ a: 'a\nb' }, { a: { $regex: 'a.b', $options: 's' } }, true],
    [{ a: 'a\nb' }, { a: { $regex: 'a.b' } }, false],
    [{ a: 'ab' }, { a: { $regex: 'a # the a\n b', $options: 'x' } }, true],
    [{ a: 'Hello' }, { a: { $regex: 'ell', $ne: 'Hello' } }, false],
  ],
  '$and / $or nesting': [
    [{ a: 1, b: 2 }, { $or: [{ a: 2 }, { $and: [{ b: 2 }, { a: { $in: [1] } }] }] }, true],
    [{ a: 1, b: 2 }, { $and: [{ $or: [{ a: 2 }, { b: 3 }] }, { a: 1 }] }, false],
    [{ a: 1 }, { $and: [{ a: 1 }], $or: [{ b: null }, { b: 5 }] }, true],
    [{ a: 1 }, { a: 1, $or: [{ b: { $exists: true } }] }, false],
    [{}, {}, true],
  ],
};

const matching = suite('mongo-filter: matchesFilter (MongoDB answers)');
for (const [group, rows] of Object.entries(cases)) {
  rows.forEach(([doc, filter, expected], i) => {
    const label = `${JSON.stringify(doc)} ~ ${JSON.stringify(filter, (_k, v: unknown) => (v instanceof RegExp ? String(v) : v))}`;
    matching(`${group} #${i + 1}: ${label} → ${expected}`, () => {
      assert.is(matchesFilter(doc, filter), expected);
    });
  });
}
matching.run();

const validation = suite('mongo-filter: validateFilter');
const rejected: Array<[Filter, RegExp]> = [
  [{ $where: 'this.a > 1' }, /unknown top-level operator \$where/],
  [{ $nor: [{ a: 1 }] }, /\$nor/],
  [{ a: { $where: 1 } }, /unknown operator \$where/],
  [{ a: { $elemMatch: { b: 1 } } }, /unknown operator \$elemMatch/],
  [{ a: { $not: { $gt: 1 } } }, /unknown operator \$not/],
  [{ a: { $in: 5 } }, /\$in needs an array/],
  [{ a: { $nin: 'x' } }, /\$nin needs an array/],
  [{ a: { $in: [/x/] } }, /regular expressions/],
  [{ a: { $gt: {} } }, /\$gt needs a number, string, boolean or null/],
  [{ a: { $lt: [1] } }, /\$lt needs/],
  [{ a: { $gte: undefined } }, /\$gte needs/],
  [{ $and: [] }, /non-empty array/],
  [{ $or: {} as unknown as Filter[] }, /non-empty array/],
  [{ $or: [5 as unknown as Filter] }, /plain object/],
  [{ a: { $regex: 5 } }, /\$regex must be a string or a RegExp/],
  [{ a: { $options: 'i' } }, /\$options without \$regex/],
  [{ a: { $regex: 'x', $options: 'q' } }, /\$options must be/],
  [{ a: { $regex: '(' } }, /invalid regular expression/],
  [{ a: /x/u }, /flag/],
  [{ a: { $exists: 'yes' } }, /\$exists needs a boolean/],
  [{ a: { $gt: 1, b: 2 } }, /cannot mix operators and fields/],
  [{ a: undefined }, /undefined/],
  [{ a: { $eq: undefined } }, /undefined/],
  [{ a: { $eq: /x/ } }, /RegExp/],
  [{ a: Number.NaN }, /finite/],
  [{ a: new Date(0) }, /JSON values/],
  [{ a: { b: { $gt: 1 } } }, /unknown operator \$gt/],
  [{ 'a..b': 1 }, /empty component/],
  [{ 'a.$.b': 1 }, /\$-prefixed component/],
];
rejected.forEach(([filter, message], i) => {
  validation(`rejects #${i + 1} with ${message}`, () => {
    assert.throws(() => validateFilter(filter), message);
  });
});
validation('accepts the whole subset', () => {
  validateFilter({
    a: 1,
    'b.c': { $eq: 'x', $ne: 'y', $in: [1, 'a', null, [1]], $nin: [], $gt: 1, $gte: 'a', $lt: true, $lte: null },
    d: { $regex: '^x', $options: 'imsx' },
    e: /y/i,
    f: { $exists: false },
    g: { nested: [1, { x: null }] },
    $and: [{ h: 1 }, { $or: [{ i: 2 }, { j: 3 }] }],
  });
});
validation('normalizeFilter turns RegExp values into {$regex, $options} strings', () => {
  assert.equal(normalizeFilter({ a: /x/gi, b: { $regex: /y/m, $ne: 'z' }, $or: [{ c: /z/ }] }), {
    a: { $regex: 'x', $options: 'i' },
    b: { $ne: 'z', $regex: 'y', $options: 'm' },
    $or: [{ c: { $regex: 'z' } }],
  });
});
validation.run();

const sorting = suite('mongo-filter: compareForSort (BSON order)');
sorting('orders null/missing < numbers < strings < objects < arrays < booleans', () => {
  const ordered: unknown[] = [
    null,
    -1,
    0,
    2.5,
    10,
    '',
    'B',
    'a',
    'é',
    '\uffff',
    '😀',
    {},
    { b: 1 },
    { a: 'x' },
    { a: 'x', b: 0 },
    { b: 'x' },
    [],
    [1],
    [1, 2],
    [2],
    ['a'],
    false,
    true,
  ];
  const shuffled = [...ordered.slice(11), ...ordered.slice(0, 11).reverse()];
  assert.equal(shuffled.sort(compareForSort), ordered);
  // Array.prototype.sort keeps undefined out of the comparator; compare directly
  assert.is(compareForSort(undefined, -1), -1);
  assert.is(compareForSort('', undefined), 1);
});
sorting('null and missing compare equal, 0 and -0 too', () => {
  assert.is(compareForSort(null, undefined), 0);
  assert.is(compareForSort(0, -0), 0);
  assert.is(compareForSort(1, 1.0), 0);
});
sorting.run();

const updates = suite('mongo-filter: applyUpdate');
const doc = { id: 'x', a: 1, b: { c: 1, d: 2 }, arr: [1, { k: 1 }], s: 'str' };
const updateCases: Array<[string, Update, Record<string, unknown>]> = [
  ['$set creates intermediate documents', { $set: { 'n.o.p': 1 } }, { ...doc, n: { o: { p: 1 } } }],
  ['$set replaces a nested value', { $set: { 'b.c': 5 } }, { ...doc, b: { c: 5, d: 2 } }],
  ['$set pads an array with null', { $set: { 'arr.3': 'z' } }, { ...doc, arr: [1, { k: 1 }, null, 'z'] }],
  ['$set into an array element', { $set: { 'arr.1.k': 2 } }, { ...doc, arr: [1, { k: 2 }] }],
  ['$unset removes fields, ignores missing ones', { $unset: ['b.c', 'zz', 'q.r'] }, { ...doc, b: { d: 2 } }],
  ['$unset of an array element leaves null', { $unset: ['arr.0'] }, { ...doc, arr: [null, { k: 1 }] }],
  ['$inc adds, and sets a missing field', { $inc: { a: 2, 'b.e': -1 } }, { ...doc, a: 3, b: { c: 1, d: 2, e: -1 } }],
  [
    'operators together',
    { $set: { s: 't' }, $unset: ['a'], $inc: { 'b.d': 1 } },
    { id: 'x', b: { c: 1, d: 3 }, arr: [1, { k: 1 }], s: 't' },
  ],
];
for (const [name, update, expected] of updateCases) {
  updates(name, () => {
    assert.equal(applyUpdate(doc, update), expected);
  });
}
updates('does not modify its input', () => {
  const before = structuredClone(doc);
  applyUpdate(doc, { $set: { 'b.c': 9, 'arr.1.k': 9 }, $unset: ['a'] });
  assert.equal(doc, before);
});
updates('appends new fields in path order, as MongoDB 5.0+', () => {
  assert.equal(Object.keys(applyUpdate({ id: 'x', z: 1 }, { $set: { b: 1, a: 1 } })), ['id', 'z', 'a', 'b']);
});
const badUpdates: Array<[string, Update, RegExp]> = [
  ['$inc of a string', { $inc: { s: 1 } }, /not a number/],
  ['$set through a scalar', { $set: { 'a.b': 1 } }, /cannot create field "b"/],
  ['$set of a named field in an array', { $set: { 'arr.k': 1 } }, /in an array/],
];
for (const [name, update, message] of badUpdates) {
  updates(`throws on ${name}`, () => {
    assert.throws(() => applyUpdate(doc, update), message);
  });
}
const invalid: Array<[Update, RegExp]> = [
  [{ $set: { a: 1 }, $inc: { 'a.b': 1 } } as Update, /conflict/],
  [{ $set: { a: 1 }, $unset: ['a'] }, /conflict/],
  [{ $set: { id: 'y' } }, /immutable/],
  [{ $unset: ['id'] }, /immutable/],
  [{ $push: { a: 1 } } as unknown as Update, /unsupported operator \$push/],
  [{ $set: { a: undefined } }, /undefined/],
  [{ $inc: { a: '1' as unknown as number } }, /finite number/],
  [{ $unset: 'a' as unknown as string[] }, /array of paths/],
  [{ $set: { 'a..b': 1 } }, /empty component/],
];
invalid.forEach(([update, message], i) => {
  updates(`validateUpdate rejects #${i + 1} (${message})`, () => {
    assert.throws(() => validateUpdate(update), message);
  });
});
updates('paths that only share a prefix do not conflict', () => {
  validateUpdate({ $set: { a: 1, 'a-b': 2, ab: 3 } });
});
updates.run();
