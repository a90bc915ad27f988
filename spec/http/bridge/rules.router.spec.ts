// The rules, platform-rule opt-out, test-pattern and configuration-center admin API end to end: a real
// server on 127.0.0.1 port 0, real SQLite stores, real access tokens from the identity provider
// (client_credentials of clients registered per tenant), the projections running.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pino } from 'pino';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createConfigCenter, createConfigCommands } from '../../../commands/bridge/config-center.commands.ts';
import { createRuleCommands } from '../../../commands/bridge/rules.commands.ts';
import { forTenant } from '../../../commands/core/envelopes.ts';
import { createKeyedSecretBox } from '../../../commands/core/secret.box.ts';
import { createDirectoryCommands } from '../../../commands/identity/directory.commands.ts';
import type { BusKind } from '../../../domain/bridge/model.ts';
import { BRIDGE_ADMIN_BASE, BRIDGE_ADMIN_SCOPE } from '../../../http/bridge/bridge.paths.ts';
import { type BusInfo, createRulesRouter, SECRET_MASK } from '../../../http/bridge/rules.router.ts';
import { openApiDocument } from '../../../http/core/openapi.ts';
import { createRouteRegistry } from '../../../http/core/route-registry.ts';
import { manualClock } from '../../../infra/core/clock.port.ts';
import { loadConfig } from '../../../infra/core/config.ts';
import { createIdentityService } from '../../../infra/identity/identity.service.ts';
import { createSqliteEventStore } from '../../../infra/sqlite/event-store.sqlite.ts';
import { createSqliteReadStore } from '../../../infra/sqlite/read-store.sqlite.ts';
import { configProjection } from '../../../projections/bridge/config.projection.ts';
import { rulesProjection } from '../../../projections/bridge/rules.projection.ts';
import { createRulesIndex } from '../../../projections/bridge/rules-index.ts';
import { createProjectionRunner } from '../../../projections/core/projection-runner.ts';
import { caughtUp as caughtUpAll } from '../../core/eventually.ts';
import { startTestApp, type TestApp } from '../core/harness.ts';
import { machineToken } from '../identity/machine-token.ts';

const dir = mkdtempSync(path.join(tmpdir(), 'rules-router-'));
const eventStore = createSqliteEventStore({ file: path.join(dir, 'events.sqlite'), pollIntervalMs: 20 });
const readStore = createSqliteReadStore({ file: path.join(dir, 'read.sqlite') });
// the real time, frozen: tokens are checked against it
const clock = manualClock(new Date());
const config = loadConfig({ DATA_DIR: dir, LOG_LEVEL: 'silent', PUBLIC_BASE_URL: 'http://127.0.0.1:8080' });
const identity = createIdentityService({ config, eventStore, readStore, clock, log: pino({ level: 'silent' }) });
const directory = createDirectoryCommands({ eventStore, clock, scrypt: { N: 1024, r: 8, p: 1 } });
const rules = createRuleCommands({ eventStore, clock });
// secret values are sealed with the key-encryption secret: the configuration center is given its box
const configBox = createKeyedSecretBox('rules-router-spec-key-encryption-secret-0123456789');
const configCommands = createConfigCommands({ eventStore, clock, box: configBox });
const configCenter = createConfigCenter({ eventStore, box: configBox });
const registry = createRouteRegistry();
const runners = [rulesProjection, configProjection].map((projection) =>
  createProjectionRunner({ eventStore, readStore, projection, clock }),
);
const index = createRulesIndex({ readStore, eventStore });
const tokens: Record<string, string> = {};
let app: TestApp;

/** the bus registry of this spec: platform buses, and custom buses per tenant */
const buses: Record<string, { kind: BusKind; tenant: string }> = {
  'platform/platform': { kind: 'platform', tenant: 'platform' },
  'platform/baseline-claim': { kind: 'baseline', tenant: 'platform' },
  'acme/orders': { kind: 'custom', tenant: 'acme' },
  'globex/orders': { kind: 'custom', tenant: 'globex' },
  'globex/ledger': { kind: 'custom', tenant: 'globex' },
};
const busInfo: BusInfo = async (tenant, name) => {
  const qualified = name.includes('/')
    ? name
    : /^(platform|baseline-)/.test(name)
      ? `platform/${name}`
      : `${tenant}/${name}`;
  return buses[qualified] ?? null;
};

const test = suite('rules admin API');

const tokenFor = (tenant: string, scopes: string[], name: string) =>
  machineToken({ baseUrl: app.url, directory, tenant, clientId: name, scopes });

test.before(async () => {
  await identity.keyRing.ensureKey();
  for (const code of ['platform', 'acme', 'globex'])
    await directory.createTenant({ name: code }, forTenant({ tenant: 'platform', actor: 'test' }, code), `t-${code}`);
  app = await startTestApp({
    routers: [
      { service: 'identity', router: identity.router },
      {
        service: 'bridge',
        router: createRulesRouter({
          commands: { rules, config: configCommands },
          readStore,
          bearer: identity.bearer,
          busInfo,
          clock,
          registry,
        }),
      },
    ],
  });
  tokens.platform = await tokenFor('platform', [BRIDGE_ADMIN_SCOPE], 'platform-bridge');
  tokens.acme = await tokenFor('acme', [BRIDGE_ADMIN_SCOPE], 'acme-bridge');
  tokens.globex = await tokenFor('globex', [BRIDGE_ADMIN_SCOPE], 'globex-bridge');
  tokens.acmePublisher = await tokenFor('acme', ['bridge:publish'], 'acme-publisher');
  for (const r of runners) r.start();
});
test.after(async () => {
  await app.close();
  for (const r of runners) await r.stop();
  await eventStore.close();
  await readStore.close();
  rmSync(dir, { recursive: true, force: true });
});

type Reply = { status: number; body: any; text: string; headers: Headers };
async function call(
  method: string,
  url: string,
  token: string | undefined,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<Reply> {
  const res = await fetch(`${app.url}${BRIDGE_ADMIN_BASE}${url}`, {
    method,
    headers: {
      ...(body !== undefined && { 'content-type': 'application/json' }),
      ...(token !== undefined && { authorization: `Bearer ${token}` }),
      ...headers,
    },
    ...(body !== undefined && { body: JSON.stringify(body) }),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : {}, text, headers: res.headers };
}
const fieldsOf = (r: Reply) => (r.body.details as Array<{ field: string }>).map((d) => d.field).sort();

const caughtUp = () => caughtUpAll(...runners);

/** the spec's API destination sample, PascalCase as the spec writes it */
const pascalTarget = {
  Id: 1,
  TypeId: 4,
  Endpoint: 'https://api.acme.example/claims',
  PushRetryStrategy: 'BACKOFF_RETRY',
  ErrorsTolerance: 'ALL',
  DeadLetterRecord: true,
  Params: [
    { ResourceKey: 'NAME', Form: 'CONSTANT', Value: 'claims-api' },
    {
      ResourceKey: 'BODY_PARAMS',
      Form: 'TEMPLATE',
      Value: '{"order":"$.data.orderId","amount":"$.data.amount"}',
      Template: '{"order":"${order}","amount":${amount}}',
    },
  ],
};
const camelTarget = {
  id: 2,
  typeId: 3,
  params: [
    { resourceKey: 'SERVICE_NAME', form: 'CONSTANT', value: 'claims' },
    { resourceKey: 'BODY', form: 'ORIGINAL' },
  ],
  conversion: { kind: 'partial', path: '$.data' },
};
const ordersRule = (o: Record<string, unknown> = {}) => ({
  bus: 'orders',
  name: 'Orders to claims',
  pattern: { source: ['shop:orders'], data: { amount: [{ numeric: ['>', 0, '<=', 5000] }] } },
  targets: [pascalTarget, camelTarget],
  ...o,
});

// ---- authentication ----

test('401 without a token, 403 without bridge:admin', async () => {
  const none = await call('GET', '/rules', undefined);
  assert.is(none.status, 401);
  assert.ok(none.headers.get('www-authenticate')?.startsWith('Bearer'));
  // authentication comes before validation: a stranger's bad body is a 401, not a 400
  assert.is((await call('POST', '/rules', undefined, { nonsense: true })).status, 401);
  const weak = await call('POST', '/test-pattern', tokens.acmePublisher, { pattern: { a: ['b'] }, event: { a: 'b' } });
  assert.is(weak.status, 403);
  assert.match(weak.headers.get('www-authenticate') ?? '', /insufficient_scope/);
});

// ---- CRUD ----

test('create: 201 with the canonical rule (PascalCase target accepted, answered in camelCase)', async () => {
  const r = await call(
    'POST',
    '/rules',
    tokens.acme,
    ordersRule({ id: 'orders-to-claims', description: 'sends orders' }),
  );
  assert.is(r.status, 201, r.text);
  assert.is(r.headers.get('location'), `${BRIDGE_ADMIN_BASE}/rules/orders-to-claims`);
  assert.is(r.body.id, 'orders-to-claims');
  assert.is(r.body.tenant, 'acme');
  assert.is(r.body.bus, 'orders');
  assert.is(r.body.busKind, 'custom');
  assert.is(r.body.enabled, true);
  assert.is(r.body.platform, false);
  assert.is(r.body.description, 'sends orders');
  assert.equal(r.body.targets[0], {
    id: 1,
    typeId: 4,
    endpoint: 'https://api.acme.example/claims',
    pushRetryStrategy: 'BACKOFF_RETRY',
    errorTolerance: 'ALL',
    deadLetterRecord: true,
    params: [
      { resourceKey: 'NAME', form: 'CONSTANT', value: 'claims-api' },
      {
        resourceKey: 'BODY_PARAMS',
        form: 'TEMPLATE',
        value: '{"order":"$.data.orderId","amount":"$.data.amount"}',
        template: '{"order":"${order}","amount":${amount}}',
      },
    ],
    conversion: { kind: 'complete' },
  });
  // camelCase with defaults filled in
  assert.equal(r.body.targets[1], {
    id: 2,
    typeId: 3,
    pushRetryStrategy: 'BACKOFF_RETRY',
    errorTolerance: 'ALL',
    deadLetterRecord: false,
    params: [
      { resourceKey: 'SERVICE_NAME', form: 'CONSTANT', value: 'claims' },
      { resourceKey: 'BODY', form: 'ORIGINAL', value: '' },
    ],
    conversion: { kind: 'partial', path: '$.data' },
  });
  const got = await call('GET', '/rules/orders-to-claims', tokens.acme);
  assert.is(got.status, 200);
  assert.equal(got.body.targets, r.body.targets);
});

test('create with an Idempotency-Key twice: one rule; a generated id otherwise', async () => {
  const headers = { 'idempotency-key': 'create-once-1' };
  const a = await call('POST', '/rules', tokens.acme, ordersRule({ name: 'once' }), headers);
  const b = await call('POST', '/rules', tokens.acme, ordersRule({ name: 'once' }), headers);
  assert.is(a.status, 201);
  assert.is(b.status, 201);
  assert.is(a.body.id, b.body.id);
  assert.is(b.body.replayed, true);
  assert.match(a.body.id, /^[0-9a-f-]{36}$/);
  await caughtUp();
  const list = await call('GET', '/rules?bus=orders', tokens.acme);
  assert.is(list.body.items.filter((x: { name: string }) => x.name === 'once').length, 1);
});

test('create: an id already taken is 409', async () => {
  const r = await call('POST', '/rules', tokens.acme, ordersRule({ id: 'orders-to-claims' }));
  assert.is(r.status, 409);
  assert.is(r.body.code, 'RULE.ALREADY_EXISTS');
});

test('list: paged, filtered by bus and enabled; only the own tenant’s rules', async () => {
  await call('POST', '/rules', tokens.globex, ordersRule({ id: 'globex-rule', targets: [camelTarget] }));
  await caughtUp();
  const all = await call('GET', '/rules', tokens.acme);
  assert.is(all.status, 200);
  assert.ok(all.body.items.every((x: { tenant: string }) => x.tenant === 'acme'));
  assert.is(all.body.total, all.body.items.length);
  assert.is(all.body.limit, 50);
  const page = await call('GET', '/rules?limit=1&offset=1', tokens.acme);
  assert.is(page.body.items.length, 1);
  assert.is(page.body.total, all.body.total);
  assert.is((await call('GET', '/rules?enabled=false', tokens.acme)).body.total, 0);
  assert.is((await call('GET', '/rules?limit=0', tokens.acme)).status, 400);
  assert.is((await call('GET', '/rules?enabled=maybe', tokens.acme)).status, 400);
  const globex = await call('GET', '/rules', tokens.globex);
  assert.equal(
    globex.body.items.map((x: { id: string }) => x.id),
    ['globex-rule'],
  );
});

test('update: the fields given; description null removes it; the bus cannot change', async () => {
  const r = await call('PUT', '/rules/orders-to-claims', tokens.acme, {
    name: 'Renamed',
    description: null,
    pattern: { source: ['shop:returns'] },
  });
  assert.is(r.status, 200, r.text);
  assert.is(r.body.name, 'Renamed');
  assert.is(r.body.description, null);
  assert.equal(r.body.pattern, { source: ['shop:returns'] });
  assert.is(r.body.targets.length, 2);
  const moved = await call('PUT', '/rules/orders-to-claims', tokens.acme, { bus: 'ledger' });
  assert.is(moved.status, 400);
  assert.is(moved.body.code, 'RULE.BUS_IMMUTABLE');
  assert.is((await call('PUT', '/rules/orders-to-claims', tokens.acme, { bus: 'orders', name: 'Orders' })).status, 200);
  const targets = await call('PUT', '/rules/orders-to-claims', tokens.acme, { targets: [camelTarget] });
  assert.is(targets.body.targets.length, 1);
  assert.is((await call('PUT', '/rules/orders-to-claims', tokens.acme, {})).status, 400);
  assert.is((await call('PUT', '/rules/nope', tokens.acme, { name: 'x' })).status, 404);
});

test('enable, disable, delete; the index follows', async () => {
  await caughtUp();
  const ids = async () => (await index.rulesForBus('orders', 'acme')).rules.map((r) => r.ruleId);
  assert.ok((await ids()).includes('orders-to-claims'));
  const off = await call('POST', '/rules/orders-to-claims/disable', tokens.acme);
  assert.is(off.status, 200);
  assert.is(off.body.enabled, false);
  await caughtUp();
  assert.not.ok((await ids()).includes('orders-to-claims'));
  assert.is((await call('GET', '/rules?enabled=false', tokens.acme)).body.total, 1);
  const on = await call('POST', '/rules/orders-to-claims/enable', tokens.acme);
  assert.is(on.body.enabled, true);
  await caughtUp();
  assert.ok((await ids()).includes('orders-to-claims'));
  const del = await call('DELETE', '/rules/orders-to-claims', tokens.acme);
  assert.is(del.status, 204);
  assert.is((await call('GET', '/rules/orders-to-claims', tokens.acme)).status, 404);
  assert.is((await call('DELETE', '/rules/orders-to-claims', tokens.acme)).status, 404);
  assert.is((await call('POST', '/rules/orders-to-claims/enable', tokens.acme)).status, 404);
  await caughtUp();
  assert.not.ok((await ids()).includes('orders-to-claims'));
});

// ---- validation ----

test('pattern 400s name the pattern path', async () => {
  const cases: Array<[unknown, string, RegExp]> = [
    [{ data: { state: [{ 'starts-with': 'x' }] } }, 'data.state[0]', /unknown matcher "starts-with"/],
    [{ subject: [{ wildcard: 'a**b' }] }, 'subject[0].wildcard', /consecutive \*/],
    [
      { data: { amount: [{ numeric: ['>=', 10, '<', 10] }] } },
      'data.amount[0].numeric',
      /lower bound 10 is not below upper bound 10/,
    ],
    [{ data: { ip: [{ cidr: '10.0.0.300/8' }] } }, 'data.ip[0].cidr', /bad CIDR/],
    [{ data: { ip: [{ cidr: '10.0.0.0/40' }] } }, 'data.ip[0].cidr', /bad CIDR/],
    [{ source: [] }, 'source', /at least one matcher/],
    [{ data: { 'a.b': [] } }, 'data["a.b"]', /at least one matcher/],
    [[], '', /not an array/],
  ];
  for (const [pattern, path, reason] of cases) {
    for (const [method, url, body] of [
      ['POST', '/rules', ordersRule({ pattern })],
      ['POST', '/test-pattern', { pattern, event: { source: 'x' } }],
    ] as const) {
      const r = await call(method, url, tokens.acme, body);
      assert.is(r.status, 400, `${url} ${JSON.stringify(pattern)}`);
      assert.is(r.body.code, 'PATTERN.INVALID');
      assert.is(r.body.details.path, path, JSON.stringify(pattern));
      assert.match(r.body.details.reason, reason);
    }
  }
});

test('body 400s name each field: schema, both spellings in conflict, target record, parameter tables', async () => {
  const schema = await call('POST', '/rules', tokens.acme, {
    bus: 'orders',
    targets: [{ ...camelTarget, pushRetryStrategy: 'SOMETIMES' }],
    extra: 1,
  });
  assert.is(schema.status, 400);
  assert.is(schema.body.code, 'REQUEST.INVALID');
  assert.equal(fieldsOf(schema), ['extra', 'name', 'pattern', 'targets.0.pushRetryStrategy']);

  const six = await call(
    'POST',
    '/rules',
    tokens.acme,
    ordersRule({ targets: Array.from({ length: 6 }, (_, i) => ({ ...camelTarget, id: i })) }),
  );
  assert.equal(fieldsOf(six), ['targets']);

  const conflict = await call(
    'POST',
    '/rules',
    tokens.acme,
    ordersRule({ targets: [{ ...pascalTarget, id: 9, ErrorTolerance: 'NONE' }] }),
  );
  assert.is(conflict.status, 400);
  assert.equal(fieldsOf(conflict), ['targets.0.errorTolerance', 'targets.0.id']);
  // the same value under both spellings is fine
  const agreeing = await call(
    'POST',
    '/rules',
    tokens.acme,
    ordersRule({ targets: [{ ...pascalTarget, id: 1, ErrorTolerance: 'ALL' }] }),
  );
  assert.is(agreeing.status, 201, agreeing.text);

  const missing = await call(
    'POST',
    '/rules',
    tokens.acme,
    ordersRule({ targets: [{ Params: [{ Form: 'CONSTANT', Value: 'x' }] }] }),
  );
  assert.equal(fieldsOf(missing), ['targets.0.id', 'targets.0.params.0.resourceKey', 'targets.0.typeId']);

  const dup = await call('POST', '/rules', tokens.acme, ordersRule({ targets: [camelTarget, camelTarget] }));
  assert.is(dup.body.code, 'RULE.INVALID');
  assert.equal(fieldsOf(dup), ['targets.1.id']);

  const mail = {
    Id: 1,
    TypeId: 1,
    Params: [
      { ResourceKey: 'SUBJECT', Form: 'JSONPATH', Value: '$.data.subject' },
      { ResourceKey: 'ACCOUNT', Form: 'ENV_PARAM', Value: 'mail.account' },
      { ResourceKey: 'CONTENT', Form: 'TEMPLATE', Value: '{"job":"$.data.job"}', Template: 'Job ${job} ${missing}' },
    ],
  };
  const table = await call('POST', '/rules', tokens.acme, ordersRule({ targets: [mail] }));
  assert.is(table.status, 400);
  assert.is(table.body.code, 'RULE.INVALID');
  // CONTENT's template names an undefined variable: the shape check reports it, the tables wait for it
  assert.equal(fieldsOf(table), ['targets.0.params.2.template']);
  mail.Params[2]!.Template = 'Job ${job}';
  const table2 = await call('POST', '/rules', tokens.acme, ordersRule({ targets: [mail] }));
  assert.equal(fieldsOf(table2), ['targets.0.params', 'targets.0.params.0.form']);
  assert.match(JSON.stringify(table2.body.details), /SUBJECT of the mail service target takes CONSTANT/);
  assert.match(JSON.stringify(table2.body.details), /needs TO/);

  const badJsonTemplate = await call(
    'POST',
    '/rules',
    tokens.acme,
    ordersRule({
      targets: [
        { ...camelTarget, conversion: { kind: 'template', variables: { a: '$.data.a' }, template: '{"a": ${a}' } },
      ],
    }),
  );
  assert.equal(fieldsOf(badJsonTemplate), ['targets.0.conversion.template']);
});

// ---- tenant isolation and buses ----

test('buses: unknown 404, another tenant’s custom bus 403', async () => {
  const unknown = await call('POST', '/rules', tokens.acme, ordersRule({ bus: 'nowhere' }));
  assert.is(unknown.status, 404);
  assert.is(unknown.body.code, 'BUS.NOT_FOUND');
  const foreign = await call('POST', '/rules', tokens.acme, ordersRule({ bus: 'globex/ledger' }));
  assert.is(foreign.status, 403);
  assert.is(foreign.body.code, 'BUS.FORBIDDEN');
  // a qualified name of the caller's own bus is stored as its plain name
  const own = await call('POST', '/rules', tokens.acme, ordersRule({ bus: 'acme/orders', targets: [camelTarget] }));
  assert.is(own.status, 201);
  assert.is(own.body.bus, 'orders');
});

test('another tenant’s rule is 404 for every operation', async () => {
  for (const [method, url, body] of [
    ['GET', '/rules/globex-rule', undefined],
    ['PUT', '/rules/globex-rule', { name: 'mine now' }],
    ['POST', '/rules/globex-rule/disable', undefined],
    ['POST', '/rules/globex-rule/enable', undefined],
    ['DELETE', '/rules/globex-rule', undefined],
  ] as const) {
    const r = await call(method, url, tokens.acme, body);
    assert.is(r.status, 404, `${method} ${url}`);
    assert.is(r.body.code, 'RULE.NOT_FOUND');
  }
  assert.is((await call('GET', '/rules/globex-rule', tokens.globex)).body.name, 'Orders to claims');
});

// ---- platform rules and opt-outs ----

const alertRule = {
  id: 'batch-job-alert',
  bus: 'platform',
  name: 'Standard batch job alert mail',
  pattern: { type: ['batchv2:Alter:JobAlter'] },
  targets: [
    {
      Id: 1,
      TypeId: 1,
      PushRetryStrategy: 'BACKOFF_RETRY',
      ErrorTolerance: 'ALL',
      DeadLetterRecord: true,
      Params: [
        { ResourceKey: 'SUBJECT', Form: 'CONSTANT', Value: 'Batch job alert' },
        { ResourceKey: 'ACCOUNT', Form: 'ENV_PARAM', Value: 'mail.account' },
        { ResourceKey: 'TO', Form: 'TENANT_PROFILE', Value: 'supportMailGroup' },
        { ResourceKey: 'CONTENT', Form: 'TEMPLATE', Value: { job: '$.data.jobName' }, Template: 'Job ${job} failed' },
      ],
    },
  ],
};

test('platform rules: made by the platform tenant on a platform bus only', async () => {
  const r = await call('POST', '/rules', tokens.platform, alertRule);
  assert.is(r.status, 201, r.text);
  assert.is(r.body.platform, true);
  assert.is(r.body.tenant, 'platform');
  // a Value given as the variable-map object is stored as its JSON text
  assert.is(r.body.targets[0].params[3].value, '{"job":"$.data.jobName"}');
  const byTenant = await call('POST', '/rules', tokens.acme, { ...alertRule, id: 'x', platform: true });
  assert.is(byTenant.status, 403);
  assert.is(byTenant.body.code, 'RULE.PLATFORM_FORBIDDEN');
  const onBaseline = await call('POST', '/rules', tokens.platform, {
    ...alertRule,
    id: 'y',
    bus: 'baseline-claim',
    platform: true,
  });
  assert.is(onBaseline.status, 400);
  // a tenant's own rule on the platform bus (to handle the platform event itself) is allowed
  const own = await call('POST', '/rules', tokens.acme, {
    ...alertRule,
    id: 'acme-job-alert',
    targets: [
      {
        ...camelTarget,
        conversion: {
          kind: 'template',
          variables: { job: '$.data.jobName' },
          template: '{"text": "our job ${job} failed"}',
        },
      },
    ],
  });
  assert.is(own.status, 201, own.text);
  assert.is(own.body.platform, false);
  // a tenant does not manage the platform's rules through /rules
  assert.is((await call('POST', '/rules/batch-job-alert/disable', tokens.acme)).status, 404);
});

test('platform rules listing, opt-out and opt-in per tenant', async () => {
  await caughtUp();
  const list = await call('GET', '/platform-rules', tokens.acme);
  assert.is(list.status, 200);
  assert.equal(list.body.items, [
    {
      id: 'batch-job-alert',
      bus: 'platform',
      name: 'Standard batch job alert mail',
      description: null,
      pattern: { type: ['batchv2:Alter:JobAlter'] },
      enabled: true,
      targets: [{ id: 1, typeId: 1 }],
      optedOut: false,
      optedOutSince: null,
    },
  ]);
  const out = await call('POST', '/platform-rules/batch-job-alert/opt-out', tokens.acme);
  assert.equal([out.status, out.body], [200, { id: 'batch-job-alert', optedOut: true }]);
  assert.equal((await call('POST', '/platform-rules/batch-job-alert/opt-out', tokens.acme)).body.optedOut, true);
  await caughtUp();
  const after = await call('GET', '/platform-rules', tokens.acme);
  assert.is(after.body.items[0].optedOut, true);
  assert.is(typeof after.body.items[0].optedOutSince, 'string');
  assert.is((await call('GET', '/platform-rules', tokens.globex)).body.items[0].optedOut, false);
  assert.equal(await index.optedOut('acme'), new Set(['batch-job-alert']));
  // the routing sees the platform rule and acme's own rule on the platform bus
  const onPlatform = (await index.rulesForBus('platform', 'platform')).rules
    .map((r) => `${r.tenant}/${r.ruleId}`)
    .sort();
  assert.equal(onPlatform, ['acme/acme-job-alert', 'platform/batch-job-alert']);

  const back = await call('POST', '/platform-rules/batch-job-alert/opt-in', tokens.acme);
  assert.equal(back.body, { id: 'batch-job-alert', optedOut: false });
  await caughtUp();
  assert.equal(await index.optedOut('acme'), new Set());
  assert.is((await call('POST', '/platform-rules/acme-job-alert/opt-out', tokens.acme)).status, 404);
  assert.is((await call('POST', '/platform-rules/nope/opt-out', tokens.acme)).status, 404);
});

// ---- test-pattern ----

test('test-pattern: match and no match; lower-case envelope names as putEvent takes them', async () => {
  const pattern = {
    source: [{ prefix: 'batchv2:' }],
    data: { amount: [{ numeric: ['>', 0, '<=', 5] }] },
    dataContentType: ['application/json'],
  };
  const event = {
    id: '1',
    source: 'batchv2:scheduler',
    type: 't',
    datacontenttype: 'application/json',
    data: { amount: 5 },
  };
  const yes = await call('POST', '/test-pattern', tokens.acme, { pattern, event });
  assert.equal([yes.status, yes.body], [200, { match: true }]);
  const no = await call('POST', '/test-pattern', tokens.acme, { pattern, event: { ...event, data: { amount: 5.5 } } });
  assert.equal(no.body, { match: false });
  const missing = await call('POST', '/test-pattern', tokens.acme, { pattern });
  assert.equal([missing.status, fieldsOf(missing)], [400, ['event']]);
});

// ---- configuration center ----

test('configuration center: set, read, list with secrets masked, remove; per tenant', async () => {
  const set = await call('PUT', '/config/mail.account', tokens.acme, { value: 'alerts@acme.example' });
  assert.equal(
    [set.status, set.body.key, set.body.value, set.body.secret],
    [200, 'mail.account', 'alerts@acme.example', false],
  );
  const secret = await call('PUT', '/config/alert.token', tokens.acme, { value: 'tok-123', secret: true });
  assert.equal([secret.status, secret.body.value, secret.body.secret], [200, SECRET_MASK, true]);
  assert.is(secret.headers.get('cache-control'), 'no-store');
  // strongly consistent: the configuration center sees it at once
  assert.is(await configCenter.get('acme', 'alert.token'), 'tok-123');
  assert.is(await configCenter.get('globex', 'alert.token'), undefined);
  const one = await call('GET', '/config/alert.token', tokens.acme);
  assert.equal([one.body.value, one.body.secret], [SECRET_MASK, true]);
  assert.not.match(one.text, /tok-123/);
  // a new value without `secret` stays secret
  await call('PUT', '/config/alert.token', tokens.acme, { value: 'tok-456' });
  assert.is((await call('GET', '/config/alert.token', tokens.acme)).body.value, SECRET_MASK);
  assert.is(await configCenter.get('acme', 'alert.token'), 'tok-456');

  await caughtUp();
  const list = await call('GET', '/config', tokens.acme);
  assert.equal(
    list.body.items.map((e: { key: string; value: string }) => [e.key, e.value]),
    [
      ['alert.token', SECRET_MASK],
      ['mail.account', 'alerts@acme.example'],
    ],
  );
  assert.not.match(list.text, /tok-/);
  assert.equal(
    (await call('GET', '/config?prefix=mail.', tokens.acme)).body.items.map((e: { key: string }) => e.key),
    ['mail.account'],
  );
  assert.is((await call('GET', '/config', tokens.globex)).body.total, 0);
  assert.is((await call('GET', '/config/alert.token', tokens.globex)).status, 404);
  assert.is((await call('DELETE', '/config/alert.token', tokens.globex)).status, 404);

  assert.is((await call('DELETE', '/config/alert.token', tokens.acme)).status, 204);
  assert.is((await call('GET', '/config/alert.token', tokens.acme)).status, 404);
  assert.is(await configCenter.get('acme', 'alert.token'), undefined);
  assert.is((await call('DELETE', '/config/alert.token', tokens.acme)).status, 404);
  await caughtUp();
  assert.equal(
    (await call('GET', '/config', tokens.acme)).body.items.map((e: { key: string }) => e.key),
    ['mail.account'],
  );

  const badKey = await call('PUT', '/config/bad..key', tokens.acme, { value: 'x' });
  assert.equal([badKey.status, fieldsOf(badKey)], [400, ['key']]);
  const badBody = await call('PUT', '/config/k', tokens.acme, { value: 5, secret: 'yes' });
  assert.equal([badBody.status, fieldsOf(badBody)], [400, ['secret', 'value']]);
});

// ---- OpenAPI ----

test('every route is in the OpenAPI document', () => {
  const doc = openApiDocument('Event bridge', registry);
  const base = BRIDGE_ADMIN_BASE;
  for (const [p, m] of [
    ['/rules', 'post'],
    ['/rules', 'get'],
    ['/rules/{id}', 'get'],
    ['/rules/{id}', 'put'],
    ['/rules/{id}', 'delete'],
    ['/rules/{id}/enable', 'post'],
    ['/rules/{id}/disable', 'post'],
    ['/platform-rules', 'get'],
    ['/platform-rules/{id}/opt-out', 'post'],
    ['/platform-rules/{id}/opt-in', 'post'],
    ['/test-pattern', 'post'],
    ['/config', 'get'],
    ['/config/{key}', 'put'],
    ['/config/{key}', 'get'],
    ['/config/{key}', 'delete'],
  ]) {
    assert.ok(doc.paths[`${base}${p}`]?.[m!], `${m} ${p}`);
  }
});

test.run();
