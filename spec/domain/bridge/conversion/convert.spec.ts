import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { Convert } from '../../../../commands/bridge/bridge.contracts.ts';
import { checkConversion, convert } from '../../../../domain/bridge/conversion/index.ts';
import { envOf, event, noEnv } from './fixtures.ts';

// the domain function satisfies the contract FLOW consumes
const contract: Convert = convert;

test('complete event: the event itself', async () => {
  assert.equal(await contract(event, { kind: 'complete' }, noEnv), { ok: true, payload: event, missing: [] });
});

test('partial: the value a JSONPath finds (one value, or an array of several)', async () => {
  assert.equal(await convert(event, { kind: 'partial', path: '$.data.detail' }, noEnv), {
    ok: true,
    payload: { step: 'load', codes: [1, 2] },
    missing: [],
  });
  assert.equal(await convert(event, { kind: 'partial', path: '$.data.attempts' }, noEnv), {
    ok: true,
    payload: 3,
    missing: [],
  });
  assert.equal(await convert(event, { kind: 'partial', path: '$.data.items[*].id' }, noEnv), {
    ok: true,
    payload: [1, 2],
    missing: [],
  });
  assert.equal(await convert(event, { kind: 'partial', path: '$.data.owner' }, noEnv), {
    ok: true,
    payload: null,
    missing: [],
  });
});

test('partial: nothing matched is an error result', async () => {
  const r = await convert(event, { kind: 'partial', path: '$.data.nothing' }, noEnv);
  assert.is(r.ok, false);
  if (!r.ok) assert.match(r.error, /path matched nothing/);
  const bad = await convert(event, { kind: 'partial', path: 'data' }, noEnv);
  assert.is(bad.ok, false);
});

test('constant: the value whatever the event', async () => {
  assert.equal(await convert(event, { kind: 'constant', value: { alert: true } }, noEnv), {
    ok: true,
    payload: { alert: true },
    missing: [],
  });
  assert.equal(await convert(event, { kind: 'constant', value: 'ping' }, noEnv), {
    ok: true,
    payload: 'ping',
    missing: [],
  });
});

test('template: rendered, missing variables reported', async () => {
  const r = await convert(
    event,
    { kind: 'template', variables: { job: '$.data.job', x: '$.data.x' }, template: '{"job": "${job}", "x": "${x}"}' },
    noEnv,
  );
  assert.equal(r, { ok: true, payload: { job: 'nightly-settlement', x: '' }, missing: ['x'] });
  const bad = await convert(event, { kind: 'template', variables: {}, template: '[1,' }, noEnv);
  assert.is(bad.ok, false);
});

test('environment variable: the configuration-center value, unset is an error result', async () => {
  assert.equal(await convert(event, { kind: 'env', key: 'alert.token' }, envOf({ 'alert.token': 's3cret' })), {
    ok: true,
    payload: 's3cret',
    missing: [],
  });
  const r = await convert(event, { kind: 'env', key: 'alert.token' }, noEnv);
  assert.equal(r, { ok: false, error: 'configuration key alert.token is not set' });
});

test('an outage of the configuration center is passed on (the delivery retries), not turned into content', async () => {
  try {
    await convert(event, { kind: 'env', key: 'k' }, async () => {
      throw new Error('store down');
    });
    assert.unreachable();
  } catch (err) {
    assert.is((err as Error).message, 'store down');
  }
});

test('checkConversion names the bad field', () => {
  assert.equal(checkConversion({ kind: 'complete' }, 'c'), []);
  assert.equal(checkConversion({ kind: 'nope' }, 'c'), [
    { field: 'c.kind', message: 'must be one of complete, partial, constant, template, env' },
  ]);
  assert.equal(checkConversion({ kind: 'partial', path: 'x' }, 'c')[0]!.field, 'c.path');
  assert.equal(checkConversion({ kind: 'constant' }, 'c')[0]!.field, 'c.value');
  assert.equal(checkConversion({ kind: 'env', key: 'bad key' }, 'c')[0]!.field, 'c.key');
  assert.equal(
    checkConversion({ kind: 'template', variables: { a: '$.x' }, template: '${b}' }, 'c')[0]!.field,
    'c.template',
  );
  assert.equal(
    checkConversion({ kind: 'template', variables: { a: '$[?(@)]' }, template: '${a}' }, 'c')[0]!.field,
    'c.variables.a',
  );
  assert.equal(checkConversion({ kind: 'complete', path: '$' }, 'c')[0]!.field, 'c.path');
  assert.equal(checkConversion(null, 'c')[0]!.field, 'c');
  assert.equal(checkConversion({ kind: 'template', variables: { n: 7 }, template: '${n}' }, 'c'), [
    { field: 'c.variables.n', message: 'must be a JSONPath ($…) or a constant string' },
  ]);
});

test.run();
