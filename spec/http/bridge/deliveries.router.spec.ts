import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { quiet } from '../../core/quiet.ts';
import { ADMIN, anEvent, type BridgePlatform, PUT_EVENT, startBridgePlatform } from './bridge-harness.ts';

// The delivery administration over HTTP, end to end: the whole platform (identity, bridge, workers) with
// the real preset HTTP client target posting to a real receiver in this process (SERVICE_REGISTRY).
const test = suite('delivery administration over HTTP: dead letters, blocked rule targets');

type Call = { deliveryId: string; attempt: string; body: unknown };
const calls: Call[] = [];
let status = 500;
let receiver: Server;
let p: BridgePlatform;
let acme: string;
let beta: string;

const targetOf = (o: Record<string, unknown> = {}) => ({
  Id: 1,
  TypeId: 3,
  PushRetryStrategy: 'BACKOFF_RETRY',
  ErrorTolerance: 'ALL',
  DeadLetterRecord: true,
  Params: [
    { ResourceKey: 'SERVICE_NAME', Form: 'CONSTANT', Value: 'svc' },
    { ResourceKey: 'BODY', Form: 'ORIGINAL', Value: '' },
  ],
  ...o,
});
const base = (rule: string) => `${ADMIN}/rules/${rule}/targets/1`;

async function put(kind: string) {
  const event = anEvent({ data: { kind } });
  const r = await p.call('POST', PUT_EVENT, { token: acme, body: event });
  assert.is(r.status, 200, JSON.stringify(r.body));
  return { eventId: r.body.eventId as string, event };
}

/** waits for `probe`, moving the manual clock 20 s (a BACKOFF retry's longest wait) between looks */
const settle = <T>(probe: () => Promise<T | undefined>, what: string) =>
  p.eventually(
    async () => {
      const v = await probe();
      if (v !== undefined) return v;
      p.clock.advance(20_000);
      return undefined;
    },
    { what, intervalMs: 30 },
  );

const lastDelivery = async (eventId: string) => {
  const t = await p.call('GET', `${ADMIN}/trace/events/${eventId}`, { token: acme });
  const d = (t.body?.delivery ?? []) as Array<{ status: string; deliveryId?: string }>;
  return d[d.length - 1];
};
const deadLetters = (rule: string) => p.call('GET', `${base(rule)}/dead-letters`, { token: acme });

test.before(async () => {
  receiver = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      calls.push({
        deliveryId: String(req.headers['x-delivery-id']),
        attempt: String(req.headers['x-delivery-attempt']),
        body: JSON.parse(body || 'null'),
      });
      res.statusCode = status;
      res.end(status < 300 ? '{"ok":true}' : '{"error":"receiver down"}');
    });
  });
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/svc`;
  p = await startBridgePlatform({ env: { SERVICE_REGISTRY: `svc=${url}`, DELIVERY_POLL_MS: '10' } });
  acme = await p.token('acme');
  beta = await p.token('beta');
  assert.is((await p.call('POST', `${ADMIN}/buses`, { token: acme, body: { name: 'orders' } })).status, 201);
  for (const [id, kind, target] of [
    ['dlq-rule', 'dlq', targetOf()],
    ['strict-rule', 'strict', targetOf({ ErrorTolerance: 'NONE' })],
  ] as const) {
    const r = await p.call('POST', `${ADMIN}/rules`, {
      token: acme,
      body: { id, bus: 'orders', name: id, pattern: { data: { kind: [kind] } }, targets: [target] },
    });
    assert.is(r.status, 201, JSON.stringify(r.body));
  }
  await p.eventually(
    async () =>
      (await p.call('GET', `${ADMIN}/rules?bus=orders`, { token: acme })).body?.items?.length === 2 ? true : undefined,
    'rules listed',
  );
});
test.after(async () => {
  await p.stop();
  await new Promise((r) => receiver.close(r));
});

const published: Array<{ eventId: string; event: Record<string, unknown> }> = [];

test('after the last retry the dead letter queue holds the events; list and inspect show them unchanged', async () => {
  status = 500;
  for (let i = 0; i < 3; i++) published.push(await put('dlq'));
  const list = await settle(async () => {
    const r = await deadLetters('dlq-rule');
    return r.status === 200 && r.body.total === 3 ? r.body : undefined;
  }, 'three dead letters');
  assert.equal(list.items.map((d: { eventId: string }) => d.eventId).sort(), published.map((e) => e.eventId).sort());
  const first = list.items.find((d: { eventId: string }) => d.eventId === published[0]!.eventId);
  assert.is(first.attempts, 4, 'the first attempt and 3 retries');
  assert.match(first.lastError, /500/);
  assert.is(first.httpStatus, 500);
  assert.is(first.source, 'shop:checkout');
  assert.is(calls.filter((c) => c.deliveryId === first.deliveryId).length, 4, 'every call carried the delivery id');

  const detail = await p.call('GET', `${base('dlq-rule')}/dead-letters/${first.deliveryId}`, { token: acme });
  assert.is(detail.status, 200);
  assert.equal(detail.body.event, { ...published[0]!.event }, 'the raw event, unchanged');
  assert.equal(detail.body.payload, detail.body.event, 'the complete-event payload');
  assert.is(detail.body.lastError, first.lastError);
  assert.equal(
    detail.body.history.map((h: { status: string }) => h.status),
    ['failed', 'failed', 'failed', 'failed'],
  );
  assert.is((await lastDelivery(published[0]!.eventId))!.status, 'dead-lettered');
});

test('access: a bearer token with bridge:admin of the rule’s tenant; unknown rules and dead letters are 404', async () => {
  assert.is((await p.call('GET', `${base('dlq-rule')}/dead-letters`)).status, 401);
  assert.is(
    (await p.call('GET', `${base('dlq-rule')}/dead-letters`, { token: await p.token('acme', ['bridge:publish']) }))
      .status,
    403,
  );
  const other = await p.call('GET', `${base('dlq-rule')}/dead-letters`, { token: beta });
  assert.is(other.status, 404);
  assert.is(other.body.code, 'RULE.NOT_FOUND');
  assert.is(
    (await p.call('GET', `${base('dlq-rule')}/dead-letters/${'0'.repeat(64)}`, { token: acme })).body.code,
    'DEAD_LETTER.NOT_FOUND',
  );
  assert.is((await p.call('GET', `${base('dlq-rule')}/dead-letters/not-an-id`, { token: acme })).status, 400);
  assert.is((await p.call('GET', `${ADMIN}/rules/dlq-rule/targets/x/status`, { token: acme })).status, 400);
});

test('redrive one: delivered again with the same delivery id; purge one; redrive all', async () => {
  const list = (await deadLetters('dlq-rule')).body.items as Array<{ deliveryId: string; eventId: string }>;
  const [one, two, three] = list;
  status = 200;
  const r = await p.call('POST', `${base('dlq-rule')}/dead-letters/${one!.deliveryId}/redrive`, { token: acme });
  assert.is(r.status, 202, JSON.stringify(r.body));
  await p.eventually(
    async () => ((await lastDelivery(one!.eventId))?.status === 'succeeded' ? true : undefined),
    'redriven and delivered',
  );
  assert.is(calls.filter((c) => c.deliveryId === one!.deliveryId).length, 5);
  assert.is(calls.filter((c) => c.deliveryId === one!.deliveryId).at(-1)!.attempt, '5');

  assert.is(
    (await p.call('DELETE', `${base('dlq-rule')}/dead-letters/${two!.deliveryId}`, { token: acme })).status,
    204,
  );
  const all = await p.call('POST', `${base('dlq-rule')}/dead-letters/redrive`, { token: acme });
  assert.is(all.status, 202);
  assert.equal(all.body, { redriven: [three!.deliveryId], count: 1 });
  await p.eventually(
    async () => ((await lastDelivery(three!.eventId))?.status === 'succeeded' ? true : undefined),
    'all redriven',
  );
  await p.eventually(async () => ((await deadLetters('dlq-rule')).body.total === 0 ? true : undefined), 'queue empty');
  assert.is((await lastDelivery(two!.eventId))!.status, 'purged');
  assert.is(calls.filter((c) => c.deliveryId === two!.deliveryId).length, 4, 'a purged dead letter is not delivered');
  // gone: neither redriven nor purged again
  assert.is(
    (await p.call('POST', `${base('dlq-rule')}/dead-letters/${two!.deliveryId}/redrive`, { token: acme })).status,
    404,
  );
});

test('purge all', async () => {
  status = 500;
  const a = await put('dlq');
  const b = await put('dlq');
  await settle(async () => ((await deadLetters('dlq-rule')).body.total === 2 ? true : undefined), 'two dead letters');
  const r = await p.call('DELETE', `${base('dlq-rule')}/dead-letters`, { token: acme });
  assert.is(r.status, 200);
  assert.is(r.body.count, 2);
  await p.eventually(async () => ((await deadLetters('dlq-rule')).body.total === 0 ? true : undefined), 'purged');
  assert.is((await lastDelivery(a.eventId))!.status, 'purged');
  assert.is((await lastDelivery(b.eventId))!.status, 'purged');
});

test('ErrorTolerance NONE: the rule target blocks, visibly in its status and the trace; later events wait; resume delivers them in order', async () => {
  status = 500;
  const first = await put('strict');
  const blocked = await settle(async () => {
    const r = await p.call('GET', `${base('strict-rule')}/status`, { token: acme });
    return r.body?.blocked === true ? r.body : undefined;
  }, 'blocked');
  assert.is(blocked.ruleId, 'strict-rule');
  assert.is(blocked.targetId, 1);
  assert.is(blocked.blockedBy.length, 1);
  assert.match(blocked.blockedBy[0].error, /500/);
  await p.eventually(
    async () => ((await lastDelivery(first.eventId))?.status === 'blocked' ? true : undefined),
    'blocked in the trace',
  );
  const blocker = (await lastDelivery(first.eventId))!.deliveryId!;

  status = 200;
  const second = await put('strict');
  const third = await put('strict');
  await p.eventually(async () => {
    const r = await p.call('GET', `${base('strict-rule')}/status`, { token: acme });
    return r.body.counts.waiting === 3 ? true : undefined;
  }, 'the later deliveries wait');
  p.clock.advance(3_600_000);
  await quiet(p.platform);
  assert.is((await lastDelivery(second.eventId))!.status, 'scheduled', 'not attempted while blocked');
  const before = calls.length;

  const resumed = await p.call('POST', `${base('strict-rule')}/resume`, { token: acme });
  assert.is(resumed.status, 200, JSON.stringify(resumed.body));
  assert.is(resumed.body.blocked, false);
  assert.equal(
    resumed.body.released.map((b: { deliveryId: string }) => b.deliveryId),
    [blocker],
  );
  await p.eventually(
    async () => ((await lastDelivery(third.eventId))?.status === 'succeeded' ? true : undefined),
    'all delivered',
  );
  await p.eventually(
    async () => ((await lastDelivery(first.eventId))?.status === 'succeeded' ? true : undefined),
    'the blocker delivered',
  );
  const order = calls.slice(before).map((c) => c.deliveryId);
  const ids = await Promise.all([first, second, third].map(async (e) => (await lastDelivery(e.eventId))!.deliveryId!));
  assert.equal(
    order.filter((id) => ids.includes(id)),
    ids,
    'in the order they were scheduled',
  );
  const after = await p.call('GET', `${base('strict-rule')}/status`, { token: acme });
  assert.is(after.body.blocked, false);
  assert.is(after.body.counts.succeeded, 3);
  const again = await p.call('POST', `${base('strict-rule')}/resume`, { token: acme });
  assert.is(again.status, 409);
  assert.is(again.body.code, 'RULE_TARGET.NOT_BLOCKED');
});

test('the routes are in the bridge’s OpenAPI document', async () => {
  const doc = (await p.call('GET', '/api/platform/platform-pub/eventBridge/openapi.json')).body;
  const paths = Object.keys(doc.paths);
  for (const suffix of [
    '/dead-letters',
    '/dead-letters/{deliveryId}',
    '/dead-letters/{deliveryId}/redrive',
    '/dead-letters/redrive',
    '/status',
    '/resume',
  ]) {
    assert.ok(paths.includes(`${ADMIN}/rules/{ruleId}/targets/{targetId}${suffix}`), suffix);
  }
});

test.run();
