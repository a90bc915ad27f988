import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { eventually } from './eventually.ts';

test('answers what the first passing try answered: a probe that finds something, a predicate, a block of assertions', async () => {
  let n = 0;
  assert.is(await eventually(() => (++n >= 3 ? `found at ${n}` : undefined), 'the third try'), 'found at 3');
  let m = 0;
  assert.is(await eventually(async () => ++m === 2, 'a predicate'), true);
  let k = 0;
  const r = await eventually(() => {
    k++;
    assert.ok(k > 1, 'not on the first try');
    return k;
  }, 'an assertion');
  assert.is(r, 2);
});

test('false and undefined are "not yet"; 0, null and an empty string are answers', async () => {
  assert.is(await eventually(() => 0, 'zero'), 0);
  assert.is(await eventually(() => null, 'null'), null);
  assert.is(await eventually(() => '', 'the empty string'), '');
});

test('at the timeout it throws what it waited for, with the last failure', async () => {
  const never = await eventually(() => assert.is(1, 2, 'one is two'), {
    what: 'the impossible',
    timeoutMs: 30,
    intervalMs: 5,
  }).catch((e: Error) => e);
  assert.instance(never, Error);
  assert.match((never as Error).message, /never happened within 30 ms \(\d+ tries\): the impossible; last: one is two/);
  const undef = await eventually(() => undefined, { what: 'a value', timeoutMs: 20 }).catch((e: Error) => e);
  assert.match((undef as Error).message, /a value; last: it answered undefined/);
});

test.run();
