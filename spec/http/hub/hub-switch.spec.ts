// `comm-hub.enabled` (docs/hub.md#hub-switch) through the whole platform with a real webhook receiver and the
// manual clock: switched off for acme in the configuration center (the bridge's config API), a send is
// still accepted and stored (201) but the receiver sees nothing: the dispatch item is held (pushed back by
// HUB_HOLD_MS, not dropped) and a manual retry answers 409 HUB.DISABLED; beta, still on, is sent at once;
// switched on again, acme's held message arrives by itself once the clock passes the hold. The same for a
// confirmed TCC branch (the command worker holds its materialization) and a sweep's repair item.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { CommandDueItem } from '../../../commands/hub/command.worker.ts';
import { HUB_HOLD_MS } from '../../../commands/hub/hub-switch.ts';
import { createSweeps } from '../../../commands/hub/sweeps.ts';
import { BRIDGE_ADMIN_BASE } from '../../../http/bridge/bridge.paths.ts';
import { liveCollection } from '../../../projections/core/writable-model.ts';
import { DISPATCH_PROJECTION, type HubDueDoc } from '../../../projections/hub/dispatch.projection.ts';
import { TCC_PROJECTION } from '../../../projections/hub/tcc.projection.ts';
import { sweepCollections } from './fixtures/sweep-collections.ts';
import { startWebhookReceiver, type WebhookReceiver } from './fixtures/webhook-receiver.ts';
import { aSend, configure, HUB, type HubPlatform, startHubPlatform } from './hub-harness.ts';

let p: HubPlatform;
let rx: WebhookReceiver;
const BRIDGE_SECRET = 'bridge-spec-secret-0123456789';

test.before(async () => {
  p = await startHubPlatform({ env: { HUB_COMMAND_WORKER_INTERVAL_MS: '20' } });
  rx = await startWebhookReceiver(() => 200);
  // a client of acme that may write the tenant's configuration (bridge:admin)
  await p.commands.registerClient(
    {
      clientId: 'acme-config',
      grantTypes: ['client_credentials'],
      defaultUser: 'hub-svc',
      scopes: ['bridge:admin'],
      clientSecret: BRIDGE_SECRET,
    },
    { tenant: 'acme', actor: 'spec' },
    'spec/client/acme-config',
  );
});
test.after(async () => {
  await rx.close();
  await p.platform.stop();
});

async function configToken(): Promise<string> {
  p.syncClock();
  const res = await fetch(`${p.base}/cas/oidc/token`, {
    method: 'POST',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      authorization: `Basic ${Buffer.from(`acme-config:${BRIDGE_SECRET}`).toString('base64')}`,
    },
    body: new URLSearchParams({ grant_type: 'client_credentials', scope: 'bridge:admin' }),
  });
  const body = (await res.json()) as { access_token?: string };
  assert.is(res.status, 200, JSON.stringify(body));
  return body.access_token!;
}
async function setEnabled(value: 'true' | 'false') {
  const r = await p.call('PUT', `${BRIDGE_ADMIN_BASE}/config/comm-hub.enabled`, {
    token: await configToken(),
    body: { value },
  });
  assert.ok(r.status < 300, `config: ${r.status} ${JSON.stringify(r.body)}`);
}
const send = async (tenant: string, code: string) => {
  const body = aSend(code);
  const r = await p.call('POST', `${HUB}/notifications/send`, { token: await p.token(tenant), body });
  assert.is(r.status, 201, JSON.stringify(r.body));
  return { requestId: body.RequestId as string, messageId: r.body.Messages[0].MessageId as string };
};
const submissions = (requestId: string) => rx.received.filter((x) => x.body.RequestId === requestId);
const message = async (tenant: string, id: string) =>
  (await p.call('GET', `${HUB}/messages/getById?messageId=${id}`, { token: await p.token(tenant) })).body;

test('comm-hub.enabled false for acme: sends stored, nothing dispatched, manual retry 409; beta unaffected; true again: it arrives', async () => {
  const acme = await configure(p, 'acme', { receiverUrl: rx.url });
  const beta = await configure(p, 'beta', { receiverUrl: rx.url });
  await setEnabled('false');

  const held = await send('acme', acme.code);
  const other = await send('beta', beta.code);
  await p.eventually(
    async () => (submissions(other.requestId).length === 1 ? true : undefined),
    "beta's message (the switch is per tenant)",
  );

  // the worker looked at acme's item and pushed it back by the hold, not the whole lease
  const due = await liveCollection<HubDueDoc>(p.platform.stores.readStore, DISPATCH_PROJECTION, 'due')();
  const item = await p.eventually(async () => {
    const d = await due.get(held.messageId);
    const now = p.clock.now().getTime();
    return d !== null &&
      d.leaseOwner !== undefined &&
      Date.parse(d.leaseUntil) > now &&
      Date.parse(d.leaseUntil) <= now + HUB_HOLD_MS
      ? d
      : undefined;
  }, 'the held item');
  assert.ok(item.leases! >= 1);
  assert.is(submissions(held.requestId).length, 0, 'the receiver sees nothing');
  const m = await message('acme', held.messageId);
  assert.is(m.State, 'PLANNED', 'stored, not sent');
  assert.is(m.Attempts, 0);

  const retry = await p.call('POST', `${HUB}/messages/retry?messageId=${held.messageId}`, {
    token: await p.token('acme'),
    body: { Reason: 'try now' },
    headers: { 'idempotency-key': 'switch-retry-1' },
  });
  assert.is(retry.status, 409, JSON.stringify(retry.body));
  assert.is(retry.body.code, 'HUB.DISABLED');

  // still held after another hold interval (looked at again, still off)
  p.advance(HUB_HOLD_MS + 1000);
  await p.eventually(async () => {
    const d = await due.get(held.messageId);
    return d !== null && (d.leases ?? 0) > item.leases! ? true : undefined;
  }, 'the item looked at again');
  assert.is(submissions(held.requestId).length, 0, 'still nothing while off');

  await setEnabled('true');
  // the settings' cache (5 s) and the hold pass: the work resumes by itself
  p.advance(HUB_HOLD_MS + 1000);
  await p.eventually(
    async () => (submissions(held.requestId).length === 1 ? true : undefined),
    "acme's held message reaches the receiver",
  );
  const after = await p.eventually(async () => {
    const x = await message('acme', held.messageId);
    return x.Attempts === 1 ? x : undefined;
  }, 'the attempt recorded');
  assert.is(after.State, 'ACCEPTED');
  assert.is(submissions(held.requestId).length, 1, 'sent once');
});

test('comm-hub.enabled false: a confirmed TCC branch stays READY (materialization held, nothing sent); true again: materialized and sent', async () => {
  const acme = await configure(p, 'acme', { receiverUrl: rx.url, receiptMode: 'ACCEPTANCE_ONLY' });
  await setEnabled('false');
  p.advance(HUB_HOLD_MS + 1000); // the settings' cache forgets the earlier `true`
  const b = { Xid: `switch-${process.pid}`, BranchId: 'hub-send' };
  const send = aSend(acme.code);
  const tcc = async (op: string, body: unknown) =>
    p.call('POST', `${HUB}/notifications/tcc/${op}`, { token: await p.token('acme'), body });
  assert.is((await tcc('try', { ...b, ...send })).status, 202);
  assert.is((await tcc('confirm', b)).body.Status, 'READY');
  const due = await liveCollection<CommandDueItem>(p.platform.stores.readStore, TCC_PROJECTION, 'due')();
  await p.eventually(async () => {
    const items = await due.find({});
    const d = items.find(
      (x) =>
        x.leaseOwner !== undefined &&
        Date.parse(x.leaseUntil) > p.clock.now().getTime() &&
        Date.parse(x.leaseUntil) <= p.clock.now().getTime() + HUB_HOLD_MS,
    );
    return d ?? undefined;
  }, 'the held command item');
  const view = async () =>
    (
      await p.call('GET', `${HUB}/notifications/tcc/getById?xid=${b.Xid}&branchId=${b.BranchId}`, {
        token: await p.token('acme'),
      })
    ).body;
  assert.is((await view()).Status, 'READY', 'not materialized while off');
  assert.is(submissions(send.RequestId).length, 0);

  await setEnabled('true');
  p.advance(HUB_HOLD_MS + 1000);
  await p.eventually(async () => ((await view()).Status === 'MATERIALIZED' ? true : undefined), 'materialized once on');
  await p.eventually(async () => (submissions(send.RequestId).length === 1 ? true : undefined), 'sent');
});

test("comm-hub.enabled false: a sweep's repair item is held (kept, pushed back), then run once on", async () => {
  const { readStore, eventStore } = p.platform.stores;
  const tag = `switch_${process.pid}`;
  const collections = await sweepCollections(readStore, tag);
  const values: Record<string, string> = { 'comm-hub.enabled': 'false' };
  const advanced: string[] = [];
  const sweeps = createSweeps({
    eventStore,
    clock: p.clock,
    settings: { get: async (tenant, key) => (tenant === 'acme' ? values[key] : undefined) },
    ...collections,
    advance: async (_stream, id) => {
      advanced.push(id);
      return 'submitted';
    },
    enabledByDefault: true,
    owner: 'switch-spec',
  });
  const repairs = readStore.collection<any>(`${tag}_repairs`);
  const now = () => p.clock.now().toISOString();
  await repairs.upsert({
    id: 'x1.m1',
    stream: 'hubNotification-acme.x1',
    tenant: 'acme',
    kind: 'retry',
    sweep: 'retry',
    dueAt: now(),
    leaseUntil: '',
  });
  await repairs.upsert({
    id: 'y1.m1',
    stream: 'hubNotification-beta.y1',
    tenant: 'beta',
    kind: 'retry',
    sweep: 'retry',
    dueAt: now(),
    leaseUntil: '',
  });
  assert.is(await sweeps.repairEngine.runDue(), 2);
  assert.equal(advanced, ['y1.m1'], "beta's repair ran; acme's is held");
  const held = await repairs.get('x1.m1');
  assert.ok(held !== null, 'kept, not dropped');
  assert.is(Date.parse(held.leaseUntil), p.clock.now().getTime() + HUB_HOLD_MS);
  assert.is(await repairs.get('y1.m1'), null);
  assert.is(await sweeps.repairEngine.runDue(), 0, 'not before the hold passes');
  values['comm-hub.enabled'] = 'true';
  p.clock.advance(HUB_HOLD_MS + 1);
  assert.is(await sweeps.repairEngine.runDue(), 1);
  assert.equal(advanced, ['y1.m1', 'x1.m1']);
  assert.is(await repairs.get('x1.m1'), null);
});

test.run();
