// The platform message queue's consumer API end to end: a real server on 127.0.0.1 port 0, real SQLite
// stores, real access tokens from the identity provider (one client per consuming service), messages
// enqueued by the message-queue target (TypeId 2) as the delivery engine calls it.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pino } from 'pino';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { DeliveryRequest } from '../../../commands/bridge/delivery.contracts.ts';
import { createMqConsumers } from '../../../commands/bridge/mq-consumers.commands.ts';
import { createMessageQueueTarget } from '../../../commands/bridge/targets/message-queue.target.ts';
import { forTenant } from '../../../commands/core/envelopes.ts';
import { createDirectoryCommands } from '../../../commands/identity/directory.commands.ts';
import type { BridgeEvent, Target } from '../../../domain/bridge/model.ts';
import { BRIDGE_CONSUME_SCOPE, MQ_BASE } from '../../../http/bridge/bridge.paths.ts';
import { createMqRouter } from '../../../http/bridge/mq.router.ts';
import { openApiDocument } from '../../../http/core/openapi.ts';
import { createRouteRegistry } from '../../../http/core/route-registry.ts';
import { manualClock } from '../../../infra/core/clock.port.ts';
import { loadConfig } from '../../../infra/core/config.ts';
import { createIdentityService } from '../../../infra/identity/identity.service.ts';
import { createSqliteEventStore } from '../../../infra/sqlite/event-store.sqlite.ts';
import { createSqliteReadStore } from '../../../infra/sqlite/read-store.sqlite.ts';
import { eventually } from '../../core/eventually.ts';
import { startTestApp, type TestApp } from '../core/harness.ts';
import { machineToken } from '../identity/machine-token.ts';

const dir = mkdtempSync(path.join(tmpdir(), 'mq-router-'));
const eventStore = createSqliteEventStore({ file: path.join(dir, 'events.sqlite'), pollIntervalMs: 20 });
const readStore = createSqliteReadStore({ file: path.join(dir, 'read.sqlite') });
// the real time, frozen: tokens are checked against it; leases expire when the spec moves it
const clock = manualClock(new Date());
const config = loadConfig({ DATA_DIR: dir, LOG_LEVEL: 'silent', PUBLIC_BASE_URL: 'http://127.0.0.1:8080' });
const identity = createIdentityService({ config, eventStore, readStore, clock, log: pino({ level: 'silent' }) });
const directory = createDirectoryCommands({ eventStore, clock, scrypt: { N: 1024, r: 8, p: 1 } });
const consumers = createMqConsumers({ eventStore, readStore, clock });
const target = createMessageQueueTarget({ eventStore, clock });
const registry = createRouteRegistry();
const tokens: Record<string, string> = {};
let app: TestApp;

const tokenFor = (tenant: string, clientId: string, scopes: string[]) =>
  machineToken({ baseUrl: app.url, directory, tenant, clientId, scopes });

type Reply = { status: number; body: any };
async function call(method: string, url: string, token: string | undefined, body?: unknown): Promise<Reply> {
  const res = await fetch(`${app.url}${MQ_BASE}${url}`, {
    method,
    headers: {
      ...(body !== undefined && { 'content-type': 'application/json' }),
      ...(token !== undefined && { authorization: `Bearer ${token}` }),
    },
    ...(body !== undefined && { body: JSON.stringify(body) }),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : {} };
}
const pull = (who: string, topic: string, query = '') => call('GET', `/topics/${topic}/messages?${query}`, tokens[who]);
const ack = (who: string, topic: string, body: Record<string, unknown>) =>
  call('POST', `/topics/${topic}/ack`, tokens[who], body);
const bodies = (r: Reply) => (r.body.messages as Array<{ body: unknown }>).map((m) => m.body);

const event: BridgeEvent = {
  id: 'e1',
  source: 'claims:core',
  type: 'claims:Claim:Created',
  dataContentType: 'application/json',
  eventBusName: 'claims',
  data: {},
};
const mqTarget: Target = {
  id: 1,
  typeId: 2,
  pushRetryStrategy: 'BACKOFF_RETRY',
  errorTolerance: 'ALL',
  deadLetterRecord: false,
  params: [],
  conversion: { kind: 'complete' },
};
let seq = 0;
async function send(
  topic: string,
  params: { SEND_TYPE: 'APP' | 'BROADCAST'; APP_NAME?: string; BODY: unknown },
  tenant = 'acme',
) {
  const r: DeliveryRequest = {
    deliveryId: `dlv-${++seq}`,
    attemptId: `att-${seq}`,
    attempt: 1,
    tenant,
    ruleTenant: tenant,
    ruleId: 'r1',
    target: mqTarget,
    event,
    payload: event,
    params: { ...params, TOPIC: topic },
    signal: new AbortController().signal,
  };
  const outcome = await target.deliver(r);
  assert.is(outcome.ok, true, JSON.stringify(outcome));
}

const test = suite('platform message queue: consumer API');

test.before(async () => {
  await identity.keyRing.ensureKey();
  for (const code of ['acme', 'globex'])
    await directory.createTenant({ name: code }, forTenant({ tenant: 'platform', actor: 'test' }, code), `t-${code}`);
  app = await startTestApp({
    routers: [
      { service: 'identity', router: identity.router },
      { service: 'bridge', router: createMqRouter({ consumers, bearer: identity.bearer, registry }) },
    ],
  });
  for (const svc of ['claims-svc', 'audit-svc', 'billing-svc'])
    tokens[svc] = await tokenFor('acme', svc, [BRIDGE_CONSUME_SCOPE]);
  tokens.globex = await tokenFor('globex', 'claims-svc-globex', [BRIDGE_CONSUME_SCOPE]);
  tokens.admin = await tokenFor('acme', 'acme-admin', ['bridge:admin']);
});
test.after(async () => {
  await consumers.close();
  await app.close();
  await eventStore.close();
  await readStore.close();
  rmSync(dir, { recursive: true, force: true });
});

test('authentication and scope: 401 without a token, 403 without bridge:consume; a bad topic is a 400', async () => {
  assert.is((await call('GET', '/topics/claims/messages', undefined)).status, 401);
  assert.is((await pull('admin', 'claims')).status, 403);
  const bad = await pull('claims-svc', 'bad%2Ftopic');
  assert.is(bad.status, 400);
});

test('APP messages only to the named services, BROADCAST to all', async () => {
  await send('claims', { SEND_TYPE: 'APP', APP_NAME: 'claims-svc,audit-svc', BODY: { n: 1 } });
  await send('claims', { SEND_TYPE: 'BROADCAST', BODY: { n: 2 } });
  await send('claims', { SEND_TYPE: 'APP', APP_NAME: 'audit-svc', BODY: { n: 3 } });
  const claims = await pull('claims-svc', 'claims', 'max=10');
  assert.is(claims.status, 200, JSON.stringify(claims.body));
  assert.equal(bodies(claims), [{ n: 1 }, { n: 2 }]);
  assert.is(claims.body.app, 'claims-svc');
  assert.is(claims.body.group, 'default');
  assert.equal(Object.keys(claims.body.messages[0]).sort(), ['body', 'deliveryId', 'enqueuedAt', 'offset', 'sendType']);
  assert.equal(bodies(await pull('audit-svc', 'claims', 'max=10')), [{ n: 1 }, { n: 2 }, { n: 3 }]);
  assert.equal(bodies(await pull('billing-svc', 'claims', 'max=10')), [{ n: 2 }]);
  // another tenant's topic of the same name is another log
  assert.equal(bodies(await pull('globex', 'claims', 'max=10')), []);
});

test('ack moves the offset: the next pull starts after it', async () => {
  const before = await call('GET', '/topics/claims/position', tokens['claims-svc']);
  assert.equal(before.body, { committedOffset: -1, headOffset: 2, lag: 3, lease: before.body.lease });
  assert.ok(before.body.lease !== null, 'leased by the pull above');
  const r = await ack('claims-svc', 'claims', { offset: 1 });
  assert.equal([r.status, r.body], [200, { committedOffset: 1, leaseReleased: true }]);
  const after = await call('GET', '/topics/claims/position', tokens['claims-svc']);
  assert.equal(after.body, { committedOffset: 1, headOffset: 2, lag: 1, lease: null });
  assert.equal(bodies(await pull('claims-svc', 'claims')), []);
  await send('claims', { SEND_TYPE: 'BROADCAST', BODY: { n: 4 } });
  const next = await pull('claims-svc', 'claims');
  assert.equal(bodies(next), [{ n: 4 }]);
  assert.equal((await ack('claims-svc', 'claims', { offset: next.body.lease.to, leaseId: next.body.lease.id })).body, {
    committedOffset: 3,
    leaseReleased: true,
  });
  // an offset beyond the newest message is refused
  assert.is((await ack('claims-svc', 'claims', { offset: 99 })).status, 400);
  assert.is((await ack('claims-svc', 'claims', { offset: -1 })).status, 400);
});

test('a consumer that was down gets everything it missed; an unacknowledged pull comes back after its lease', async () => {
  // billing pulled {n: 2} above and never acknowledged it (it "crashed"); meanwhile more arrives
  await send('claims', { SEND_TYPE: 'BROADCAST', BODY: { n: 5 } });
  await send('claims', { SEND_TYPE: 'APP', APP_NAME: 'billing-svc', BODY: { n: 6 } });
  assert.equal(bodies(await pull('billing-svc', 'claims', 'max=10')), [], 'still leased to the crashed consumer');
  clock.advance(31_000);
  const back = await pull('billing-svc', 'claims', 'max=10');
  assert.equal(bodies(back), [{ n: 2 }, { n: 4 }, { n: 5 }, { n: 6 }]);
  assert.is((await ack('billing-svc', 'claims', { offset: back.body.lease.to })).status, 200);
});

test('two groups of one service are independent', async () => {
  await send('orders', { SEND_TYPE: 'BROADCAST', BODY: { o: 1 } });
  await send('orders', { SEND_TYPE: 'BROADCAST', BODY: { o: 2 } });
  const a = await pull('claims-svc', 'orders', 'group=indexer&max=10');
  const b = await pull('claims-svc', 'orders', 'group=mailer&max=1');
  assert.equal(bodies(a), [{ o: 1 }, { o: 2 }]);
  assert.equal(bodies(b), [{ o: 1 }]);
  await ack('claims-svc', 'orders', { group: 'indexer', offset: 1 });
  await ack('claims-svc', 'orders', { group: 'mailer', offset: 0 });
  assert.equal(bodies(await pull('claims-svc', 'orders', 'group=indexer')), []);
  assert.equal(bodies(await pull('claims-svc', 'orders', 'group=mailer')), [{ o: 2 }]);
  assert.is((await call('GET', '/topics/orders/position?group=indexer', tokens['claims-svc'])).body.committedOffset, 1);
  assert.is((await call('GET', '/topics/orders/position?group=mailer', tokens['claims-svc'])).body.committedOffset, 0);
});

test('long poll: a pull with wait returns when a message arrives', async () => {
  const pending = pull('audit-svc', 'alerts', 'wait=20');
  await eventually(() => consumers.waiting() > 0, 'the pull waits');
  await send('alerts', { SEND_TYPE: 'APP', APP_NAME: 'audit-svc', BODY: { alert: 'disk full' } });
  const r = await pending;
  assert.is(r.status, 200);
  assert.equal(bodies(r), [{ alert: 'disk full' }]);
});

test('long poll: a message for another app does not answer the wait (it is skipped)', async () => {
  const pending = pull('billing-svc', 'alerts', 'wait=20');
  await eventually(() => consumers.waiting() > 0, 'the pull waits');
  await send('alerts', { SEND_TYPE: 'APP', APP_NAME: 'audit-svc', BODY: { alert: 'not for billing' } });
  await send('alerts', { SEND_TYPE: 'BROADCAST', BODY: { alert: 'for all' } });
  assert.equal(bodies(await pending), [{ alert: 'for all' }]);
});

test('the OpenAPI document lists the consumer routes', () => {
  const doc = openApiDocument('Event bridge', registry);
  assert.ok(doc.paths[`${MQ_BASE}/topics/{topic}/messages`]?.get);
  assert.ok(doc.paths[`${MQ_BASE}/topics/{topic}/ack`]?.post);
  assert.ok(doc.paths[`${MQ_BASE}/topics/{topic}/position`]?.get);
});

test.run();
