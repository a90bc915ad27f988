import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { renderParam } from '../../../../domain/bridge/conversion/index.ts';
import type { TargetParam } from '../../../../domain/bridge/model.ts';
import { envOf, event, noEnv } from './fixtures.ts';

const p = (form: TargetParam['form'], value: string, template?: string): TargetParam => ({
  resourceKey: 'BODY',
  form,
  value,
  ...(template !== undefined && { template }),
});

test('CONSTANT: the value as written', async () => {
  assert.equal(await renderParam(event, p('CONSTANT', 'Alert'), noEnv), { status: 'ok', value: 'Alert', missing: [] });
});

test('ENV_PARAM: the configuration-center value, unset an error', async () => {
  assert.equal(await renderParam(event, p('ENV_PARAM', 'mail.account'), envOf({ 'mail.account': 'ops@x' })), {
    status: 'ok',
    value: 'ops@x',
    missing: [],
  });
  assert.equal(await renderParam(event, p('ENV_PARAM', 'mail.account'), noEnv), {
    status: 'error',
    error: 'BODY: configuration key mail.account is not set',
  });
});

test('JSONPATH: the value found, nothing found an error', async () => {
  assert.equal(await renderParam(event, p('JSONPATH', '$.data.tags'), noEnv), {
    status: 'ok',
    value: ['a', 'b'],
    missing: [],
  });
  const r = await renderParam(event, p('JSONPATH', '$.data.none'), noEnv);
  assert.is(r.status, 'error');
});

test('TEMPLATE: Value is the variable map, Template the text', async () => {
  const r = await renderParam(
    event,
    p('TEMPLATE', '{"job":"$.data.job","x":"$.data.x","lvl":2}', '{"job":"${job}","lvl":${lvl},"x":"${x}"}'),
    noEnv,
  );
  assert.equal(r, { status: 'ok', value: { job: 'nightly-settlement', lvl: 2, x: '' }, missing: ['x'] });
  const text = await renderParam(event, p('TEMPLATE', '{"job":"$.data.job"}', 'Job ${job} failed'), noEnv);
  assert.equal(text, { status: 'ok', value: 'Job nightly-settlement failed', missing: [] });
  const badMap = await renderParam(event, p('TEMPLATE', 'not json', 'x'), noEnv);
  assert.is(badMap.status, 'error');
  const badJson = await renderParam(event, p('TEMPLATE', '{"d":"$.data.none"}', '{"d": ${d}}'), noEnv);
  assert.is(badJson.status, 'error');
});

test('ORIGINAL: the complete event', async () => {
  assert.equal(await renderParam(event, p('ORIGINAL', ''), noEnv), { status: 'ok', value: event, missing: [] });
});

test('TENANT_PROFILE: unresolved without a lookup, resolved with one', async () => {
  const to: TargetParam = { resourceKey: 'TO', form: 'TENANT_PROFILE', value: 'supportMailGroup' };
  assert.equal(await renderParam(event, to, noEnv), {
    status: 'unresolved',
    form: 'TENANT_PROFILE',
    key: 'supportMailGroup',
  });
  assert.equal(
    await renderParam(event, to, noEnv, async (k) => (k === 'supportMailGroup' ? 'support@acme' : undefined)),
    {
      status: 'ok',
      value: 'support@acme',
      missing: [],
    },
  );
  assert.is((await renderParam(event, to, noEnv, async () => undefined)).status, 'error');
});

test.run();
