import { pino } from 'pino';
import { Registry } from 'prom-client';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { DeliveryRequest } from '../../../commands/bridge/delivery.contracts.ts';
import { createUserMessageBoxTarget } from '../../../commands/bridge/targets/user-message-box.target.ts';
import { createUserMessageCommands } from '../../../commands/bridge/user-messages.commands.ts';
import { forTenant } from '../../../commands/core/envelopes.ts';
import type { BridgeEvent, Target } from '../../../domain/bridge/model.ts';
import { INBOX_BASE } from '../../../http/bridge/bridge.paths.ts';
import { createUserMessagesRouter } from '../../../http/bridge/user-messages.router.ts';
import { createApp } from '../../../http/core/app.ts';
import { createHttpMetrics } from '../../../http/core/metrics.ts';
import { openApiDocument } from '../../../http/core/openapi.ts';
import { createRouteRegistry } from '../../../http/core/route-registry.ts';
import { type RunningServer, startHttpServer } from '../../../http/core/server.ts';
import { createIdentityService } from '../../../infra/identity/identity.service.ts';
import { withBoundPort } from '../../../infra/main.ts';
import {
  createUserMessageQueries,
  userMessagesProjection,
} from '../../../projections/bridge/user-messages.projection.ts';
import { createProjectionRunner } from '../../../projections/core/projection-runner.ts';
import { eventually } from '../../core/eventually.ts';
import { type IdentityPlatform, startIdentityPlatform } from '../identity/identity-harness.ts';

// The inbox API on a real HTTP server, behind the platform's bearer middleware, with real user tokens
// (password grant) from the running identity provider, and messages put in by the real target adapter.
const test = suite('user message box API');

let idp: IdentityPlatform;
let server: RunningServer;
let inbox: string;
let runner: ReturnType<typeof createProjectionRunner>;
let deliver: (o: { tenant: string; userId: string; body: unknown; deliveryId?: string }) => Promise<DeliveryRequest>;
const tokens: Record<string, string> = {};
const registry = createRouteRegistry();

const PASSWORD = 'inbox spec password 0123';
const event: BridgeEvent = {
  id: 'evt-1',
  source: 'claims:workflow',
  type: 'claims:Claim:Approved',
  dataContentType: 'application/json',
  eventBusName: 'claims',
  data: { claimId: 42 },
};
const inboxTarget: Target = {
  id: 1,
  typeId: 5,
  pushRetryStrategy: 'BACKOFF_RETRY',
  errorTolerance: 'ALL',
  deadLetterRecord: false,
  params: [],
  conversion: { kind: 'complete' },
};

async function call(method: string, path: string, token?: string, headers: Record<string, string> = {}) {
  const res = await fetch(`${inbox}${path}`, {
    method,
    headers: { ...headers, ...(token !== undefined && { authorization: `Bearer ${token}` }) },
  });
  const text = await res.text();
  return { status: res.status, body: text === '' ? undefined : (JSON.parse(text) as any), headers: res.headers };
}

const unread = async (who: string) =>
  (await call('GET', `${INBOX_BASE}/unread-count`, tokens[who])).body.unread as number;
const waitUnread = (who: string, n: number) =>
  eventually(async () => ((await unread(who)) === n ? true : undefined), `${who} has ${n} unread`);

test.before(async () => {
  idp = await startIdentityPlatform({ redirectUri: 'http://127.0.0.1/callback' });
  const spec = { tenant: 'platform', actor: 'spec' };
  for (const tenant of ['acme', 'beta']) {
    await idp.commands.createTenant({ name: tenant.toUpperCase() }, forTenant(spec, tenant), `spec/tenant/${tenant}`);
    await idp.commands.registerClient(
      { clientId: `${tenant}-portal`, grantTypes: ['password'], clientSecret: 'portal-secret-0123456789' },
      { ...spec, tenant },
      `spec/client/${tenant}`,
    );
  }
  const users: Array<[string, string, string]> = [
    ['acme', 'alice', 'alice'],
    ['acme', 'bob', 'bob'],
    ['beta', 'alice', 'aliceBeta'], // the same user id in another tenant
  ];
  for (const [tenant, userId, key] of users) {
    await idp.commands.registerUser(
      { userId, username: userId, name: userId, password: PASSWORD },
      { ...spec, tenant },
      `spec/user/${key}`,
    );
  }
  idp.syncClock();
  for (const [tenant, userId, key] of users) {
    const res = await fetch(`${idp.base}/cas/oidc/token`, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        authorization: `Basic ${Buffer.from(`${tenant}-portal:portal-secret-0123456789`).toString('base64')}`,
      },
      body: new URLSearchParams({ grant_type: 'password', username: userId, password: PASSWORD }),
    });
    const body = (await res.json()) as { access_token?: string };
    assert.is(res.status, 200, JSON.stringify(body));
    tokens[key] = body.access_token!;
  }

  const { eventStore, readStore } = idp.platform.stores;
  // the platform's bearer middleware, built as the composition root builds it
  const identity = createIdentityService({
    config: withBoundPort(idp.config, idp.platform.url),
    eventStore,
    readStore,
    clock: idp.clock,
    log: pino({ level: 'silent' }),
  });
  const router = createUserMessagesRouter({
    commands: createUserMessageCommands({ eventStore, clock: idp.clock }),
    queries: createUserMessageQueries(readStore),
    bearer: identity.bearer,
    registry,
  });
  const app = createApp({
    routers: [{ service: 'bridge', router }],
    logger: pino({ level: 'silent' }),
    metrics: createHttpMetrics(new Registry()),
    readiness: async () => ({ ok: true, checks: [] }),
  });
  server = await startHttpServer(app, { port: 0, host: '127.0.0.1' });
  inbox = server.url;
  runner = createProjectionRunner({ eventStore, readStore, projection: userMessagesProjection, clock: idp.clock });
  runner.start();

  const target = createUserMessageBoxTarget({ eventStore, clock: idp.clock });
  let seq = 0;
  deliver = async ({ tenant, userId, body, deliveryId }) => {
    seq++;
    idp.clock.advance(1000); // distinct delivery times, in delivery order
    const req: DeliveryRequest = {
      deliveryId: deliveryId ?? `${tenant}-${seq}`.padStart(64, '0'),
      attemptId: `attempt-${seq}`,
      attempt: 1,
      tenant,
      ruleTenant: tenant,
      ruleId: 'notices',
      target: inboxTarget,
      event,
      payload: event,
      params: { USER_ID: userId, MESSAGE_TYPE: 'NOTICE', MESSAGE_LEVEL: 'INFO', BODY: body },
      signal: new AbortController().signal,
    };
    const outcome = await target.deliver(req);
    assert.ok(outcome.ok, JSON.stringify(outcome));
    return req;
  };
  await deliver({ tenant: 'acme', userId: 'alice', body: { text: 'first' } });
  await deliver({ tenant: 'acme', userId: 'alice', body: { text: 'second' } });
  await deliver({ tenant: 'acme', userId: 'alice', body: 'third' });
  await deliver({ tenant: 'acme', userId: 'bob', body: 'for bob' });
  await deliver({ tenant: 'beta', userId: 'alice', body: 'for alice at beta' });
  await waitUnread('alice', 3);
});

test.after(async () => {
  await runner?.stop();
  await server?.close(0);
  await idp?.stop();
});

test('every route needs a bearer token', async () => {
  for (const [method, path] of [
    ['GET', INBOX_BASE],
    ['GET', `${INBOX_BASE}/unread-count`],
    ['POST', `${INBOX_BASE}/read-all`],
    ['POST', `${INBOX_BASE}/x/read`],
  ] as const) {
    const r = await call(method, path);
    assert.is(r.status, 401, `${method} ${path}`);
    assert.is(r.body.code, 'AUTH.REQUIRED');
  }
  const bad = await call('GET', INBOX_BASE, 'not.a.token');
  assert.is(bad.status, 401);
  assert.is(bad.body.code, 'AUTH.INVALID_TOKEN');
});

test('list: the caller’s own messages, newest first, with total and paging', async () => {
  const all = await call('GET', INBOX_BASE, tokens.alice);
  assert.is(all.status, 200);
  assert.is(all.body.total, 3);
  assert.equal(
    all.body.items.map((m: { body: unknown }) => m.body),
    ['third', { text: 'second' }, { text: 'first' }],
  );
  const first = all.body.items[0];
  assert.is(first.read, false);
  assert.is(first.messageType, 'NOTICE');
  assert.is(first.messageLevel, 'INFO');
  assert.is(first.source, 'claims:workflow');
  assert.is(first.eventType, 'claims:Claim:Approved');
  assert.ok(first.deliveredAt);
  assert.is(first.userId, undefined);
  const page2 = await call('GET', `${INBOX_BASE}?page=2&size=2`, tokens.alice);
  assert.equal(
    page2.body.items.map((m: { body: unknown }) => m.body),
    [{ text: 'first' }],
  );
  assert.equal([page2.body.total, page2.body.page, page2.body.size], [3, 2, 2]);
});

test('another user’s messages are invisible; the same user id in another tenant has its own inbox', async () => {
  const bob = await call('GET', INBOX_BASE, tokens.bob);
  assert.equal(
    bob.body.items.map((m: { body: unknown }) => m.body),
    ['for bob'],
  );
  const beta = await eventually(async () => {
    const r = await call('GET', INBOX_BASE, tokens.aliceBeta);
    return r.body.total === 1 ? r : undefined;
  }, 'beta inbox');
  assert.equal(
    beta.body.items.map((m: { body: unknown }) => m.body),
    ['for alice at beta'],
  );
});

test('unread count', async () => {
  assert.is(await unread('alice'), 3);
  assert.is(await unread('bob'), 1);
});

test('mark one read: answered at once; the list and the count follow', async () => {
  const list = await call('GET', INBOX_BASE, tokens.alice);
  const id = list.body.items[2].messageId as string; // the oldest
  const r = await call('POST', `${INBOX_BASE}/${id}/read`, tokens.alice);
  assert.is(r.status, 200);
  assert.is(r.body.messageId, id);
  assert.is(r.body.read, true);
  assert.is(r.body.readAt, idp.clock.now().toISOString());
  assert.equal(r.body.body, { text: 'first' });
  await waitUnread('alice', 2);
  const unreadOnly = await call('GET', `${INBOX_BASE}?unread=true`, tokens.alice);
  assert.equal(
    unreadOnly.body.items.map((m: { body: unknown }) => m.body),
    ['third', { text: 'second' }],
  );
  const readOnly = await call('GET', `${INBOX_BASE}?unread=false`, tokens.alice);
  assert.equal(
    readOnly.body.items.map((m: { messageId: string }) => m.messageId),
    [id],
  );
  assert.is(readOnly.body.items[0].read, true);
  // again: unchanged, still 200
  const again = await call('POST', `${INBOX_BASE}/${id}/read`, tokens.alice);
  assert.is(again.status, 200);
  assert.is(again.body.readAt, r.body.readAt);
});

test('another user cannot mark (or learn about) a message: 404 as for none; the owner can', async () => {
  const list = await call('GET', INBOX_BASE, tokens.alice);
  const id = list.body.items[0].messageId as string;
  const r = await call('POST', `${INBOX_BASE}/${id}/read`, tokens.bob);
  assert.is(r.status, 404);
  assert.is(r.body.code, 'USER_MESSAGE.NOT_FOUND');
  // alice marks with an Idempotency-Key; bob replaying that key on her message learns nothing either
  const own = await call('POST', `${INBOX_BASE}/${id}/read`, tokens.alice, { 'idempotency-key': 'mark-1' });
  assert.is(own.status, 200);
  const replayed = await call('POST', `${INBOX_BASE}/${id}/read`, tokens.bob, { 'idempotency-key': 'mark-1' });
  assert.is(replayed.status, 404);
  assert.is(replayed.body.code, 'USER_MESSAGE.NOT_FOUND');
  const beta = await call('POST', `${INBOX_BASE}/${id}/read`, tokens.aliceBeta);
  assert.is(beta.status, 404);
  const none = await call('POST', `${INBOX_BASE}/${'f'.repeat(64)}/read`, tokens.alice);
  assert.is(none.status, 404);
  await waitUnread('alice', 1);
});

test('mark all read: only the caller’s, and again marks nothing', async () => {
  const r = await call('POST', `${INBOX_BASE}/read-all`, tokens.alice);
  assert.is(r.status, 200);
  assert.equal(r.body, { marked: 1, more: false });
  await waitUnread('alice', 0);
  assert.is(await unread('bob'), 1);
  assert.is(await unread('aliceBeta'), 1);
  const again = await call('POST', `${INBOX_BASE}/read-all`, tokens.alice);
  assert.equal(again.body, { marked: 0, more: false });
});

test('a redelivery of a delivered message adds no duplicate', async () => {
  const first = await deliver({ tenant: 'acme', userId: 'bob', body: 'once', deliveryId: 'b'.repeat(64) });
  await deliver({ tenant: 'acme', userId: 'bob', body: 'once', deliveryId: first.deliveryId });
  // a later message shows the projection has passed both
  await deliver({ tenant: 'acme', userId: 'bob', body: 'marker' });
  const list = await eventually(async () => {
    const r = await call('GET', INBOX_BASE, tokens.bob);
    return r.body.items.some((m: { body: unknown }) => m.body === 'marker') ? r : undefined;
  }, 'marker listed');
  assert.equal(
    list.body.items.map((m: { body: unknown }) => m.body),
    ['marker', 'once', 'for bob'],
  );
  assert.is(list.body.total, 3);
});

test('bad queries are 400 naming the field', async () => {
  const big = await call('GET', `${INBOX_BASE}?size=500`, tokens.alice);
  assert.is(big.status, 400);
  assert.is(big.body.code, 'REQUEST.INVALID');
  assert.is(big.body.details[0].field, 'size');
  const zero = await call('GET', `${INBOX_BASE}?page=0`, tokens.alice);
  assert.is(zero.status, 400);
  const unknown = await call('GET', `${INBOX_BASE}?user=bob`, tokens.alice);
  assert.is(unknown.status, 400);
});

test('the routes are in the OpenAPI registry', () => {
  const doc = openApiDocument('Event bridge', registry) as { paths: Record<string, Record<string, unknown>> };
  assert.ok(doc.paths[INBOX_BASE]?.get);
  assert.ok(doc.paths[`${INBOX_BASE}/unread-count`]?.get);
  assert.ok(doc.paths[`${INBOX_BASE}/read-all`]?.post);
  assert.ok(doc.paths[`${INBOX_BASE}/{messageId}/read`]?.post);
});

test.run();
