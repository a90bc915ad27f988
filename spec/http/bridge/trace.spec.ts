import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import {
  TRACE_COLLECTION,
  TRACE_PROJECTION,
  type TraceDoc,
  traceProjection,
} from '../../../projections/bridge/trace.projection.ts';
import { readModel } from '../../../projections/core/read-model.ts';
import { rebuildProjection } from '../../../projections/core/rebuild.ts';
import { ADMIN, aJobAlert, anEvent, type BridgePlatform, PUT_EVENT, startBridgePlatform } from './bridge-harness.ts';

const test = suite('event trace over HTTP');
let p: BridgePlatform;
let acme: string;
let beta: string;
const ALERT_RULE = 'platform-batch-job-alert';

const httpTarget = {
  Id: 1,
  TypeId: 3,
  PushRetryStrategy: 'BACKOFF_RETRY',
  ErrorTolerance: 'ALL',
  DeadLetterRecord: false,
  Params: [
    { ResourceKey: 'SERVICE_NAME', Form: 'CONSTANT', Value: 'claims' },
    { ResourceKey: 'BODY', Form: 'ORIGINAL', Value: '' },
  ],
};

type Trace = {
  eventId: string;
  receipt: Record<string, unknown>;
  filtering: null | {
    evaluated: string[];
    matched: Array<{ ruleId: string; platform: boolean; targets: Array<Record<string, unknown>> }>;
    skipped: Array<{ ruleId: string; reason: string }>;
    applied: string;
  };
  delivery: Array<{ status: string; ruleId: string; targetId: number; error?: string }>;
  bus: string;
  tenant: string;
  event: Record<string, unknown>;
};

const published: Record<string, { eventId: string; id: string; at: string }> = {};

async function publish(name: string, token: string, event: Record<string, unknown>) {
  p.clock.advance(1000); // distinct receipt times, in publishing order
  const r = await p.call('POST', PUT_EVENT, { token, body: event });
  assert.is(r.status, 200, `${name}: ${JSON.stringify(r.body)}`);
  published[name] = { eventId: r.body.eventId, id: event.id as string, at: p.clock.now().toISOString() };
}

/** the trace once the router and the projection have processed the event */
const routedTrace = (token: string, eventId: string) =>
  p.eventually(async () => {
    const r = await p.call('GET', `${ADMIN}/trace/events/${eventId}`, { token });
    return r.status === 200 && r.body.filtering !== null ? (r.body as Trace) : undefined;
  }, `trace of ${eventId} routed`);

/** the trace once the delivery stage's last entry has the given status */
const settledTrace = (token: string, eventId: string, last: string) =>
  p.eventually(async () => {
    const r = await p.call('GET', `${ADMIN}/trace/events/${eventId}`, { token });
    const d = (r.body?.delivery ?? []) as Array<{ status: string }>;
    return r.status === 200 && d.length > 0 && d[d.length - 1]!.status === last ? (r.body as Trace) : undefined;
  }, `trace of ${eventId}: delivery ${last}`);

test.before(async () => {
  p = await startBridgePlatform();
  acme = await p.token('acme');
  beta = await p.token('beta');
  assert.is((await p.call('POST', `${ADMIN}/buses`, { token: acme, body: { name: 'orders' } })).status, 201);
  const rule = await p.call('POST', `${ADMIN}/rules`, {
    token: acme,
    body: {
      id: 'big-orders',
      bus: 'orders',
      name: 'big orders',
      pattern: { data: { amount: [{ numeric: ['>', 100] }] } },
      targets: [httpTarget],
    },
  });
  assert.is(rule.status, 201, JSON.stringify(rule.body));
  // beta switches the platform alert off for itself and handles alerts with its own rule and template
  const optOut = await p.call('POST', `${ADMIN}/platform-rules/${ALERT_RULE}/opt-out`, { token: beta });
  assert.ok(optOut.status < 300, JSON.stringify(optOut.body));
  const own = await p.call('POST', `${ADMIN}/rules`, {
    token: beta,
    body: {
      id: 'beta-alerts',
      bus: 'platform-batch',
      name: 'our alert template',
      pattern: { type: ['batchv2:Alter:JobAlter'] },
      targets: [
        {
          ...httpTarget,
          Conversion: {
            kind: 'template',
            variables: { job: '$.data.jobName', who: '$.data.owner' },
            template: 'Job ${job} failed (${who})',
          },
        },
      ],
    },
  });
  assert.is(own.status, 201, JSON.stringify(own.body));
  // the rules projection must have them before the events are routed
  await p.eventually(async () => {
    const r = await p.call('GET', `${ADMIN}/rules?bus=orders`, { token: acme });
    return r.body?.items?.length === 1 ? true : undefined;
  }, 'rules listed');
  await p.eventually(async () => {
    const r = await p.call('GET', `${ADMIN}/platform-rules`, { token: beta });
    return (r.body?.items as Array<{ id: string; optedOut: boolean }> | undefined)?.some(
      (x) => x.id === ALERT_RULE && x.optedOut,
    )
      ? true
      : undefined;
  }, 'opt-out listed');
  await p.eventually(async () => {
    const r = await p.call('GET', `${ADMIN}/rules?bus=platform-batch`, { token: beta });
    return r.body?.items?.length === 1 ? true : undefined;
  }, 'beta rule listed');

  await publish('acmeBig', acme, anEvent({ data: { amount: 500 } }));
  await publish('acmeSmall', acme, anEvent({ data: { amount: 5 } }));
  await publish(
    'acmeOther',
    acme,
    anEvent({ source: 'shop:returns', type: 'shop:Order:Returned', data: { amount: 900 } }),
  );
  await publish('acmeAlert', acme, aJobAlert('acme'));
  await publish('betaAlert', beta, aJobAlert('beta'));
});
test.after(async () => p.stop());

test('receipt and filtering by event id: a tenant rule on a custom bus', async () => {
  const t = await routedTrace(acme, published.acmeBig!.eventId);
  assert.is(t.eventId, published.acmeBig!.eventId);
  assert.is(t.tenant, 'acme');
  assert.is(t.bus, 'orders');
  assert.is(t.receipt.source, 'shop:checkout');
  assert.is(t.receipt.type, 'shop:Order:Placed');
  assert.is(t.receipt.subject, 'orders:eu');
  assert.is(t.receipt.id, published.acmeBig!.id);
  assert.is(t.receipt.receivedAt, published.acmeBig!.at);
  assert.is((t.receipt.publisher as { clientId: string }).clientId, 'acme-bridge');
  assert.equal(t.event.data, { amount: 500 });
  assert.equal(t.filtering!.evaluated, ['big-orders']);
  assert.equal(
    t.filtering!.matched.map((m) => m.ruleId),
    ['big-orders'],
  );
  assert.is(t.filtering!.applied, 'tenant');
  assert.equal(t.filtering!.matched[0]!.targets[0], { targetId: 1, typeId: 3, conversion: { ok: true, missing: [] } });
  // the delivery stage: the preset HTTP target's service `claims` is not in the service registry,
  // which retrying cannot fix: one failed attempt, then discarded (no dead letters for this target)
  const delivered = await settledTrace(acme, published.acmeBig!.eventId, 'discarded');
  assert.equal(
    delivered.delivery.map((d) => [d.status, d.ruleId, d.targetId]),
    [
      ['scheduled', 'big-orders', 1],
      ['started', 'big-orders', 1],
      ['failed', 'big-orders', 1],
      ['discarded', 'big-orders', 1],
    ],
  );
  assert.match(delivered.delivery[2]!.error!, /claims/);

  const small = await routedTrace(acme, published.acmeSmall!.eventId);
  assert.equal(small.filtering!.evaluated, ['big-orders']);
  assert.equal(small.filtering!.matched, []);
  assert.is(small.filtering!.applied, 'none');
});

test('the trace shows which applied: the platform rule, or the opted-out tenant’s own rule', async () => {
  const a = await routedTrace(acme, published.acmeAlert!.eventId);
  assert.is(a.bus, 'platform-batch');
  assert.equal(
    a.filtering!.matched.map((m) => [m.ruleId, m.platform]),
    [[ALERT_RULE, true]],
  );
  assert.is(a.filtering!.applied, 'platform');
  assert.equal(a.filtering!.skipped, []);

  const b = await routedTrace(beta, published.betaAlert!.eventId);
  assert.equal(
    b.filtering!.skipped.map((s) => [s.ruleId, s.reason]),
    [[ALERT_RULE, 'opted-out']],
  );
  assert.equal(b.filtering!.evaluated, ['beta-alerts']);
  assert.equal(
    b.filtering!.matched.map((m) => [m.ruleId, m.platform]),
    [['beta-alerts', false]],
  );
  assert.is(b.filtering!.applied, 'tenant');
  // the template's missing variable is reported in the trace
  assert.equal(b.filtering!.matched[0]!.targets[0]!.conversion, { ok: true, missing: ['who'] });
});

test('tenants see only their own trace', async () => {
  const r = await p.call('GET', `${ADMIN}/trace/events/${published.acmeBig!.eventId}`, { token: beta });
  assert.is(r.status, 404);
  assert.is(
    (await p.call('GET', `${ADMIN}/trace/events/${published.acmeBig!.eventId}?tenant=acme`, { token: beta })).status,
    403,
  );
  const platform = await p.token('platform');
  const asPlatform = await p.call('GET', `${ADMIN}/trace/events/${published.acmeBig!.eventId}?tenant=acme`, {
    token: platform,
  });
  assert.is(asPlatform.status, 200);
  assert.is((await p.call('GET', `${ADMIN}/trace/events/${published.acmeBig!.eventId}`)).status, 401);
  const publishOnly = await p.token('acme', ['bridge:publish']);
  assert.is(
    (await p.call('GET', `${ADMIN}/trace/events/${published.acmeBig!.eventId}`, { token: publishOnly })).status,
    403,
  );
});

test('by the producer’s (source, id)', async () => {
  const r = await p.call('GET', `${ADMIN}/trace/events?source=shop:checkout&id=${published.acmeBig!.id}`, {
    token: acme,
  });
  assert.is(r.status, 200);
  assert.equal(
    r.body.items.map((t: Trace) => t.eventId),
    [published.acmeBig!.eventId],
  );
  assert.is((await p.call('GET', `${ADMIN}/trace/events?id=x`, { token: acme })).status, 400);
});

test('by time range with bus, source and type filters, paged newest first', async () => {
  for (const name of Object.keys(published))
    await routedTrace(name.startsWith('beta') ? beta : acme, published[name]!.eventId);
  const all = await p.call('GET', `${ADMIN}/trace/events`, { token: acme });
  assert.equal(
    all.body.items.map((t: Trace) => t.eventId),
    ['acmeAlert', 'acmeOther', 'acmeSmall', 'acmeBig'].map((n) => published[n]!.eventId),
  );
  assert.is(all.body.next, null);

  const byBus = await p.call('GET', `${ADMIN}/trace/events?bus=orders`, { token: acme });
  assert.is(byBus.body.items.length, 3);
  const bySource = await p.call('GET', `${ADMIN}/trace/events?source=shop:returns`, { token: acme });
  assert.equal(
    bySource.body.items.map((t: Trace) => t.eventId),
    [published.acmeOther!.eventId],
  );
  const byType = await p.call(
    'GET',
    `${ADMIN}/trace/events?type=${encodeURIComponent('shop:Order:Placed')}&bus=orders`,
    { token: acme },
  );
  assert.equal(
    byType.body.items.map((t: Trace) => t.eventId),
    [published.acmeSmall!.eventId, published.acmeBig!.eventId],
  );

  // time range: from inclusive, to exclusive
  const range = await p.call(
    'GET',
    `${ADMIN}/trace/events?from=${published.acmeSmall!.at}&to=${published.acmeAlert!.at}`,
    { token: acme },
  );
  assert.equal(
    range.body.items.map((t: Trace) => t.eventId),
    [published.acmeOther!.eventId, published.acmeSmall!.eventId],
  );

  // pages of 1 cover everything once, in order
  const seen: string[] = [];
  let cursor: string | null = null;
  do {
    const page: { body: { items: Trace[]; next: string | null } } = await p.call(
      'GET',
      `${ADMIN}/trace/events?limit=1${cursor ? `&cursor=${cursor}` : ''}`,
      { token: acme },
    );
    seen.push(...page.body.items.map((t) => t.eventId));
    cursor = page.body.next;
  } while (cursor !== null);
  assert.equal(
    seen,
    all.body.items.map((t: Trace) => t.eventId),
  );
  assert.is((await p.call('GET', `${ADMIN}/trace/events?cursor=garbage`, { token: acme })).status, 400);
  assert.is((await p.call('GET', `${ADMIN}/trace/events?from=yesterday`, { token: acme })).status, 400);

  const betaList = await p.call('GET', `${ADMIN}/trace/events`, { token: beta });
  assert.equal(
    betaList.body.items.map((t: Trace) => t.eventId),
    [published.betaAlert!.eventId],
  );
});

test('the trace is a projection: a rebuild from the log gives the same documents', async () => {
  const { eventStore, readStore } = p.platform.stores;
  const traces = readModel<TraceDoc>(readStore, TRACE_PROJECTION, TRACE_COLLECTION);
  // deliveries settled (the manual clock holds retries back): the documents do not move under the comparison
  await settledTrace(acme, published.acmeBig!.eventId, 'discarded');
  await settledTrace(beta, published.betaAlert!.eventId, 'discarded');
  await settledTrace(acme, published.acmeAlert!.eventId, 'failed');
  const before = await traces.find({}, { sort: { id: 1 } });
  assert.is(before.length, 5);
  const result = await rebuildProjection({ eventStore, readStore, projection: traceProjection, clock: p.clock });
  assert.ok(result.generation >= 2);
  const after = await traces.find({}, { sort: { id: 1 } });
  assert.equal(after, before);
  // and the API reads the new generation
  const t = await p.call('GET', `${ADMIN}/trace/events/${published.acmeBig!.eventId}`, { token: acme });
  assert.equal(t.body.filtering.evaluated, ['big-orders']);
});

test.run();
