import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { Convert } from '../../../commands/bridge/bridge.contracts.ts';
import { createEventRouter, createRouterWorker } from '../../../commands/bridge/router.process.ts';
import { REACTOR_CHECKPOINTS } from '../../../commands/core/reactor.ts';
import { convert as realConvert } from '../../../domain/bridge/conversion/index.ts';
import type { EventRoutedData } from '../../../domain/bridge/published-event.decider.ts';
import { PLATFORM_SCHEMA_IDS, seedPlatformSchemas } from '../../../infra/bridge/platform-schemas.ts';
import { eventually } from '../../core/eventually.ts';
import { type BridgeFixture, createBridgeFixture, ctxOf, httpTarget, mailTarget } from './bridge-fixture.ts';

const test = suite('bridge router process');

let f: BridgeFixture;
let convertCalls = 0;
// the real conversion, except that a constant "boom" makes it throw (a bug in a converter must not crash routing)
const convert: Convert = async (event, conversion, env) => {
  convertCalls++;
  if (conversion.kind === 'constant' && conversion.value === 'boom') throw new Error('converter exploded');
  return realConvert(event, conversion, env) as ReturnType<Convert>;
};

const ALERT_RULE = 'platform-batch-job-alert';

const jobAlert = (tenant: string, id: string, bus = 'platform') => ({
  id,
  source: 'batchv2:job',
  type: 'batchv2:Alter:JobAlter',
  subject: 'batchv2:job:nightly',
  time: '2026-03-01T09:59:00',
  dataContentType: 'application/json',
  eventBusName: bus,
  data: {
    jobId: 'j1',
    jobName: 'nightly-close',
    status: 'FAILED',
    message: 'disk full',
    tenant,
    occurredAt: '2026-03-01T09:59:00Z',
  },
});
const order = (id: string, data: Record<string, unknown> = { amount: 120, region: 'eu' }) => ({
  id,
  source: 'shop:checkout',
  type: 'shop:Order:Placed',
  time: '2026-03-01T10:00:00',
  dataContentType: 'application/json',
  eventBusName: 'orders',
  data,
});
const caller = (tenant: string) => ({ tenant, subject: 'svc', clientId: `${tenant}-app` });

const router = () =>
  createEventRouter({
    eventStore: f.eventStore,
    clock: f.clock,
    rules: f.rulesIndex,
    configCenter: f.configCenter,
    convert,
  });

/** publishes, then routes the EventAccepted it appended; answers the routing */
async function publishAndRoute(input: unknown, tenant: string): Promise<{ eventId: string; routed: EventRoutedData }> {
  const { eventId, duplicate } = await f.publisher.publish(input, caller(tenant), {}, f.cmd('put'));
  assert.not.ok(duplicate);
  await f.catchUp();
  const stream = `published-${tenant}.${eventId}`;
  const [accepted] = await f.eventStore.readStream(stream);
  const routed = await router().route(accepted!);
  assert.ok(routed, 'routed');
  return { eventId, routed: routed! };
}

test.before(async () => {
  f = await createBridgeFixture();
  const platform = ctxOf('platform');
  await seedPlatformSchemas({ eventStore: f.eventStore, clock: f.clock });
  await f.buses.createBus({ name: 'platform', kind: 'platform' }, platform, 'bus-platform');
  await f.sources.registerSource(
    {
      busTenant: 'platform',
      bus: 'platform',
      name: 'batchv2:job',
      kind: 'platform',
      eventTypes: ['batchv2:Alter:JobAlter'],
      schemaId: PLATFORM_SCHEMA_IDS.jobAlter,
    },
    platform,
    'src-batch',
  );
  for (const t of ['acme', 'beta']) await f.buses.createBus({ name: 'orders', kind: 'custom' }, ctxOf(t), `bus-${t}`);
  // the spec's example platform rule: the batch job alert through the platform mail target
  await f.rules.create(
    {
      ruleId: ALERT_RULE,
      bus: 'platform',
      busKind: 'platform',
      busOwner: 'platform',
      name: 'batch job alert mail',
      pattern: { source: ['batchv2:job'], type: ['batchv2:Alter:JobAlter'] },
      targets: [mailTarget(1)],
    },
    platform,
    'rule-alert',
  );
  await f.config.set({ key: 'alert.mail.account', value: 'alerts@platform.example' }, platform, 'cfg-1');
  await f.catchUpAll();
});
test.after(async () => f.close());

test('a platform rule applies to every tenant’s events on the platform bus', async () => {
  for (const tenant of ['acme', 'beta']) {
    const { routed } = await publishAndRoute(jobAlert(tenant, `alert-${tenant}-1`), tenant);
    assert.equal(routed.evaluated, [ALERT_RULE]);
    assert.equal(routed.skipped, []);
    assert.is(routed.matched.length, 1);
    const m = routed.matched[0]!;
    assert.equal([m.ruleId, m.ruleTenant, m.platform], [ALERT_RULE, 'platform', true]);
    assert.equal(m.targets[0]!.conversion, { ok: true, missing: ['level'] }); // no data.level: left empty, reported
    assert.equal(m.targets[0]!.payload, { job: 'nightly-close', level: '' });
  }
});

test('a tenant that opted out: the platform rule is skipped, its own rule on the platform bus applies', async () => {
  await f.rules.optOut(ALERT_RULE, ctxOf('beta'), 'beta-opt-out');
  await f.rules.create(
    {
      ruleId: 'beta-own-alert',
      bus: 'platform',
      busKind: 'platform',
      busOwner: 'platform',
      name: 'our own alert handling',
      pattern: { type: ['batchv2:Alter:JobAlter'], data: { status: ['FAILED'] } },
      targets: [httpTarget(7, { kind: 'partial', path: '$.data.message' })],
    },
    ctxOf('beta'),
    'beta-rule',
  );
  await f.catchUpAll();

  const beta = (await publishAndRoute(jobAlert('beta', 'alert-beta-2'), 'beta')).routed;
  assert.equal(beta.skipped, [{ ruleId: ALERT_RULE, ruleTenant: 'platform', platform: true, reason: 'opted-out' }]);
  assert.equal(beta.evaluated, ['beta-own-alert']);
  assert.equal(
    beta.matched.map((m) => [m.ruleId, m.platform]),
    [['beta-own-alert', false]],
  );
  assert.equal(beta.matched[0]!.targets[0]!.payload, 'disk full');

  // acme did not opt out and does not see beta's rule
  const acme = (await publishAndRoute(jobAlert('acme', 'alert-acme-2'), 'acme')).routed;
  assert.equal(acme.evaluated, [ALERT_RULE]);
  assert.equal(acme.skipped, []);
  assert.equal(
    acme.matched.map((m) => m.ruleId),
    [ALERT_RULE],
  );
});

test('tenant rules on same-named custom buses of two tenants do not mix', async () => {
  await f.rules.create(
    {
      ruleId: 'acme-big-orders',
      bus: 'orders',
      busKind: 'custom',
      busOwner: 'acme',
      name: 'big orders',
      pattern: { data: { amount: [{ numeric: ['>', 100] }] } },
      targets: [httpTarget(1, { kind: 'complete' })],
    },
    ctxOf('acme'),
    'acme-rule-1',
  );
  await f.rules.create(
    {
      ruleId: 'beta-all-orders',
      bus: 'orders',
      busKind: 'custom',
      busOwner: 'beta',
      name: 'all orders',
      pattern: { source: ['shop:checkout'] },
      targets: [httpTarget(1, { kind: 'complete' })],
    },
    ctxOf('beta'),
    'beta-rule-1',
  );
  await f.catchUpAll();
  const acme = (await publishAndRoute(order('o-1'), 'acme')).routed;
  assert.equal(acme.evaluated, ['acme-big-orders']);
  assert.equal(
    acme.matched.map((m) => m.ruleId),
    ['acme-big-orders'],
  );
  const payload = acme.matched[0]!.targets[0]!.payload as { id: string; eventBusName: string };
  assert.equal([payload.id, payload.eventBusName], ['o-1', 'orders']);
  const beta = (await publishAndRoute(order('o-1'), 'beta')).routed;
  assert.equal(beta.evaluated, ['beta-all-orders']);
  const small = (await publishAndRoute(order('o-2', { amount: 5 }), 'acme')).routed;
  assert.equal(small.evaluated, ['acme-big-orders']);
  assert.equal(small.matched, []);
});

test('two tenants may choose the same rule id on the platform bus: each is matched on its own pattern', async () => {
  const rule = (tenant: string, status: string) =>
    f.rules.create(
      {
        ruleId: 'same-id',
        bus: 'platform',
        busKind: 'platform',
        busOwner: 'platform',
        name: `${tenant} alerts`,
        pattern: { type: ['batchv2:Alter:JobAlter'], data: { status: [status] } },
        targets: [httpTarget(1, { kind: 'complete' })],
      },
      ctxOf(tenant),
      `${tenant}-same-id`,
    );
  await rule('acme', 'OK');
  await rule('beta', 'FAILED');
  await f.catchUpAll();
  // a FAILED alert of acme: beta's same-id rule matches the event, acme's does not: acme sees no match
  const acme = (await publishAndRoute(jobAlert('acme', 'alert-acme-same-id'), 'acme')).routed;
  assert.ok(acme.evaluated.includes('same-id'));
  assert.not.ok(acme.matched.some((m) => m.ruleId === 'same-id'));
  const beta = (await publishAndRoute(jobAlert('beta', 'alert-beta-same-id'), 'beta')).routed;
  assert.ok(beta.matched.some((m) => m.ruleId === 'same-id' && m.ruleTenant === 'beta'));
});

test('a disabled rule is not evaluated; enabling it again recompiles the matcher', async () => {
  await f.rules.disable('acme-big-orders', ctxOf('acme'), 'acme-disable');
  await f.catchUpAll();
  const off = (await publishAndRoute(order('o-3'), 'acme')).routed;
  assert.equal(off.evaluated, []);
  assert.equal(off.matched, []);
  await f.rules.enable('acme-big-orders', ctxOf('acme'), 'acme-enable');
  await f.catchUpAll();
  const on = (await publishAndRoute(order('o-4'), 'acme')).routed;
  assert.equal(
    on.matched.map((m) => m.ruleId),
    ['acme-big-orders'],
  );
  assert.is.not(on.matcherVersion, off.matcherVersion);
});

test('conversion errors are recorded per target, never a crash', async () => {
  await f.rules.create(
    {
      ruleId: 'acme-conversions',
      bus: 'orders',
      busKind: 'custom',
      busOwner: 'acme',
      name: 'conversions',
      pattern: { type: ['shop:Order:Placed'], data: { region: ['eu'] } },
      targets: [
        httpTarget(1, { kind: 'partial', path: '$.data.customer.name' }),
        httpTarget(2, { kind: 'env', key: 'no.such.key' }),
        httpTarget(3, { kind: 'constant', value: 'boom' }),
        // a string inserted raw where JSON is required: not valid JSON
        httpTarget(4, { kind: 'template', variables: { region: '$.data.region' }, template: '{"region":${region}}' }),
      ],
    },
    ctxOf('acme'),
    'acme-rule-conv',
  );
  await f.catchUpAll();
  const { routed } = await publishAndRoute(order('o-5'), 'acme');
  const conv = routed.matched.find((m) => m.ruleId === 'acme-conversions')!;
  const [partial, env, thrown, template] = conv.targets;
  assert.is(partial!.conversion.ok, false);
  assert.match(partial!.conversion.error!, /matched nothing/);
  assert.not.ok('payload' in partial!);
  assert.is(env!.conversion.ok, false);
  assert.match(env!.conversion.error!, /no.such.key/);
  assert.is(thrown!.conversion.ok, false);
  assert.match(thrown!.conversion.error!, /converter exploded/);
  assert.is(template!.conversion.ok, false);
  assert.match(template!.conversion.error!, /not valid JSON/);
  // the other rule on the bus still routed
  assert.ok(routed.matched.some((m) => m.ruleId === 'acme-big-orders'));
});

test('environment values: the event tenant’s configuration, platform rules fall back to the platform’s', async () => {
  await f.rules.update(
    ALERT_RULE,
    { targets: [{ ...mailTarget(1), conversion: { kind: 'env', key: 'alert.mail.account' } }] },
    ctxOf('platform'),
    'alert-env',
  );
  await f.catchUpAll();
  const platformDefault = (await publishAndRoute(jobAlert('acme', 'alert-acme-3'), 'acme')).routed;
  assert.is(platformDefault.matched[0]!.targets[0]!.payload, 'alerts@platform.example');
  await f.config.set({ key: 'alert.mail.account', value: 'ops@acme.example' }, ctxOf('acme'), 'cfg-acme');
  const own = (await publishAndRoute(jobAlert('acme', 'alert-acme-4'), 'acme')).routed;
  assert.is(own.matched[0]!.targets[0]!.payload, 'ops@acme.example');
});

test('redelivery appends nothing twice (route again, and the worker from position 0)', async () => {
  const { eventId } = await publishAndRoute(order('o-6'), 'acme');
  const stream = `published-acme.${eventId}`;
  const [accepted] = await f.eventStore.readStream(stream);
  const again = await router().route(accepted!);
  assert.ok(again);
  assert.equal(
    (await f.eventStore.readStream(stream)).map((e) => e.type),
    ['EventAccepted', 'EventRouted'],
  );

  // the worker over the whole log, twice (checkpoint reset in between): every event routed exactly once
  const worker = createRouterWorker({
    eventStore: f.eventStore,
    readStore: f.readStore,
    clock: f.clock,
    rules: f.rulesIndex,
    configCenter: f.configCenter,
    convert,
  });
  const handled = await worker.drain();
  assert.ok(handled > 0);
  await f.readStore.collection(REACTOR_CHECKPOINTS).delete('bridge.router');
  await worker.drain();
  const all = await f.eventStore.readAll({ filter: { categories: ['published'] } });
  const byStream = new Map<string, string[]>();
  for (const e of all) byStream.set(e.stream, [...(byStream.get(e.stream) ?? []), e.type]);
  for (const [s, types] of byStream) assert.equal(types, ['EventAccepted', 'EventRouted'], s);
  const status = await worker.status();
  assert.is(status.lag, 0);
});

test('a duplicate routes nothing again', async () => {
  const first = await f.publisher.publish(order('o-7'), caller('acme'), {}, f.cmd('put'));
  const dup = await f.publisher.publish(order('o-7'), caller('acme'), {}, f.cmd('put'));
  assert.equal(dup, { eventId: first.eventId, duplicate: true });
  const worker = createRouterWorker({
    eventStore: f.eventStore,
    readStore: f.readStore,
    clock: f.clock,
    rules: f.rulesIndex,
    configCenter: f.configCenter,
    convert,
  });
  await worker.drain();
  assert.equal(
    (await f.eventStore.readStream(`published-acme.${first.eventId}`)).map((e) => e.type),
    ['EventAccepted', 'EventRouted'],
  );
});

test('the live worker routes as events arrive and stops cleanly', async () => {
  const worker = createRouterWorker({
    eventStore: f.eventStore,
    readStore: f.readStore,
    clock: f.clock,
    rules: f.rulesIndex,
    configCenter: f.configCenter,
    convert,
  });
  worker.start();
  const { eventId } = await f.publisher.publish(order('o-8'), caller('acme'), {}, f.cmd('put'));
  const stream = `published-acme.${eventId}`;
  await eventually(async () => (await f.eventStore.readStream(stream)).length >= 2, 'the event routed');
  assert.equal(
    (await f.eventStore.readStream(stream)).map((e) => e.type),
    ['EventAccepted', 'EventRouted'],
  );
  await worker.stop();
  assert.is((await worker.status()).state, 'stopped');
  assert.ok(convertCalls > 0);
});

test.run();
