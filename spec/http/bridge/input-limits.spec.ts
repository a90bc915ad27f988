// Input limits end to end: the whole platform with real stores and tokens. Event data,
// patterns and schema documents nested at the limit are accepted (and events traced); past it they are
// 400s naming the limit; bodies 5,000 levels deep are 400s on every route tried here, never 500s;
// and the trace of the other events goes on.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { registryDocument } from '../../domain/bridge/schema-documents.ts';
import { ADMIN, anEvent, type BridgePlatform, PUT_EVENT, PUT_EVENTS, startBridgePlatform } from './bridge-harness.ts';

const test = suite('input limits over HTTP');
let p: BridgePlatform;
let acme: string;

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

/** `{"a":{"a":…{"leaf":1}}}`: `levels` objects deep (built without recursion) */
const nested = (levels: number, leaf: Record<string, unknown> = { leaf: 1 }): Record<string, unknown> => {
  let v = leaf;
  for (let i = 1; i < levels; i++) v = { a: v };
  return v;
};
/** the same as JSON text, for depths JSON.stringify cannot write */
const nestedText = (levels: number) => `${'{"a":'.repeat(levels - 1)}{"leaf":1}${'}'.repeat(levels - 1)}`;
/** `value` as JSON with the placeholder string "<deep>" replaced by `deep` (JSON text) */
const withDeep = (value: unknown, deep: string) => JSON.stringify(value).replace('"<deep>"', deep);

type Trace = {
  filtering: null | { evaluated: string[]; matched: Array<{ ruleId: string }> };
  event: { data: unknown };
};

const routedTrace = (eventId: string) =>
  p.eventually(async () => {
    const r = await p.call('GET', `${ADMIN}/trace/events/${eventId}`, { token: acme });
    return r.status === 200 && r.body.filtering !== null ? (r.body as Trace) : undefined;
  }, `trace of ${eventId} routed`);

const noStack = (r: { body: unknown }) => assert.not.match(JSON.stringify(r.body), /\n\s+at |node_modules|\.ts:\d+/);

test.before(async () => {
  p = await startBridgePlatform();
  acme = await p.token('acme');
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
  await p.eventually(async () => {
    const r = await p.call('GET', `${ADMIN}/rules?bus=orders`, { token: acme });
    return r.body?.items?.length === 1 ? true : undefined;
  }, 'rule listed');
});
test.after(async () => p.stop());

test('event data 32 levels deep is accepted and traced whole; 33 levels is 400 EVENT.INVALID naming the path and the limit', async () => {
  const atLimit = anEvent({ data: nested(32, { leaf: 1, amount: 5 }) });
  const ok = await p.call('POST', PUT_EVENT, { token: acme, body: atLimit });
  assert.is(ok.status, 200, JSON.stringify(ok.body));
  const trace = await routedTrace(ok.body.eventId);
  assert.equal(trace.event.data, atLimit.data);
  assert.equal(trace.filtering!.evaluated, ['big-orders']);

  const past = await p.call('POST', PUT_EVENT, { token: acme, body: anEvent({ data: nested(33) }) });
  assert.is(past.status, 400, JSON.stringify(past.body));
  assert.is(past.body.code, 'EVENT.INVALID');
  assert.equal(past.body.details, [
    {
      field: `data${'.a'.repeat(32)}`,
      message: 'nests deeper than 32 levels (input limit for event data: nesting depth 32)',
      limit: 'depth',
      max: 32,
    },
  ]);
  assert.match(past.body.message, /nests deeper than 32 levels/);
});

test('putEvents: an entry past the limit fails alone, with the limit in its error; the others are published', async () => {
  const r = await p.call('POST', PUT_EVENTS, {
    token: acme,
    body: [anEvent(), anEvent({ data: nested(40) }), anEvent()],
  });
  assert.is(r.status, 200, JSON.stringify(r.body));
  assert.is(r.body.failedEntryCount, 1);
  assert.ok(r.body.entries[0].eventId && r.body.entries[2].eventId);
  assert.is(r.body.entries[1].errorCode, 'EVENT.INVALID');
  assert.equal(
    r.body.entries[1].details.map((d: { limit: string; max: number }) => [d.limit, d.max]),
    [['depth', 32]],
  );
  await routedTrace(r.body.entries[2].eventId);
});

test('bodies 5,000 levels deep: putEvent, putEvents, test-pattern, rules and schemas answer 400 REQUEST.LIMIT_EXCEEDED, never 500', async () => {
  const deep = nestedText(5_000);
  const event = withDeep(anEvent({ data: '<deep>' }), deep);
  const requests: Array<[string, string, string]> = [
    ['POST', PUT_EVENT, event],
    ['POST', PUT_EVENTS, `[${withDeep(anEvent(), '{}')},${event}]`],
    ['POST', `${ADMIN}/test-pattern`, withDeep({ pattern: '<deep>', event: anEvent() }, deep)],
    [
      'POST',
      `${ADMIN}/test-pattern`,
      withDeep({ pattern: { source: ['shop:checkout'] }, event: anEvent({ data: '<deep>' }) }, deep),
    ],
    [
      'POST',
      `${ADMIN}/rules`,
      withDeep({ id: 'deep-rule', bus: 'orders', name: 'deep', pattern: '<deep>', targets: [httpTarget] }, deep),
    ],
    ['PUT', `${ADMIN}/rules/big-orders`, withDeep({ pattern: '<deep>' }, deep)],
    ['POST', `${ADMIN}/schemas`, withDeep({ content: '<deep>' }, deep)],
    ['POST', `${ADMIN}/schemas/300000000000009/versions`, withDeep({ content: '<deep>' }, deep)],
  ];
  for (const [method, path, raw] of requests) {
    const r = await p.call(method, path, { token: acme, raw });
    assert.is(r.status, 400, `${method} ${path}: ${JSON.stringify(r.body).slice(0, 300)}`);
    assert.is(r.body.code, 'REQUEST.LIMIT_EXCEEDED', `${method} ${path}`);
    assert.equal([r.body.details.in, r.body.details.limit, r.body.details.max], ['body', 'depth', 64]);
    noStack(r);
  }
  // a document sent as a string (an uploaded file's text) is parsed by the route: held to the document limits
  const asText = await p.call('POST', `${ADMIN}/schemas`, { token: acme, body: { content: deep } });
  assert.is(asText.status, 400, JSON.stringify(asText.body).slice(0, 300));
  assert.is(asText.body.code, 'SCHEMA.INVALID');
  // (beside name and version, which default to the document's info.title and info.version)
  const contentProblems = (asText.body.details as Array<{ path: string; message: string }>).filter((d) =>
    d.path.startsWith('content'),
  );
  assert.equal(contentProblems.length, 1, JSON.stringify(asText.body.details));
  assert.match(
    contentProblems[0]!.message,
    /nests deeper than 32 levels \(input limit for schema documents: nesting depth 32\)/,
  );
  // nothing of it was stored
  assert.is((await p.call('GET', `${ADMIN}/rules/deep-rule`, { token: acme })).status, 404);
  const rule = await p.call('GET', `${ADMIN}/rules/big-orders`, { token: acme });
  assert.equal(rule.body.pattern, { data: { amount: [{ numeric: ['>', 100] }] } });
  assert.is((await p.call('GET', `${ADMIN}/schemas?owner=own`, { token: acme })).body.total, 0);
});

test('past the stricter limits of patterns and schema documents (a body well within 64 levels): their own 400s', async () => {
  // a pattern 33 levels deep (its matcher array included)
  const deepPattern = { data: nested(31, { x: ['v'] }) };
  const rule = await p.call('POST', `${ADMIN}/rules`, {
    token: acme,
    body: { id: 'deep-rule', bus: 'orders', name: 'deep', pattern: deepPattern, targets: [httpTarget] },
  });
  assert.is(rule.status, 400, JSON.stringify(rule.body));
  assert.is(rule.body.code, 'PATTERN.INVALID');
  assert.is(rule.body.details.path, `data.${'a.'.repeat(30)}x`);
  assert.match(rule.body.details.reason, /input limit for patterns: nesting depth 32/);
  // the same pattern one level shallower is a rule
  const fits = await p.call('POST', `${ADMIN}/rules`, {
    token: acme,
    body: {
      id: 'deep-ok',
      bus: 'orders',
      name: 'deep ok',
      pattern: { data: nested(30, { x: ['v'] }) },
      targets: [httpTarget],
    },
  });
  assert.is(fits.status, 201, JSON.stringify(fits.body));

  const tested = await p.call('POST', `${ADMIN}/test-pattern`, {
    token: acme,
    body: { pattern: deepPattern, event: anEvent() },
  });
  assert.equal([tested.status, tested.body.code], [400, 'PATTERN.INVALID']);
  const deepEvent = await p.call('POST', `${ADMIN}/test-pattern`, {
    token: acme,
    body: { pattern: { source: ['shop:checkout'] }, event: anEvent({ data: nested(33) }) },
  });
  assert.is(deepEvent.status, 400, JSON.stringify(deepEvent.body));
  assert.is(deepEvent.body.code, 'REQUEST.LIMIT_EXCEEDED');
  assert.equal(deepEvent.body.details, { in: 'body', path: `event.data${'.a'.repeat(32)}`, limit: 'depth', max: 32 });
  const matches = await p.call('POST', `${ADMIN}/test-pattern`, {
    token: acme,
    body: { pattern: { data: nested(30, { x: ['v'] }) }, event: anEvent({ data: nested(30, { x: 'v' }) }) },
  });
  assert.equal([matches.status, matches.body], [200, { match: true }]);

  // a schema document 33 levels deep: Order's property chain (root, components, schemas, Order are 4 levels)
  let order: Record<string, unknown> = { type: 'object' };
  for (let level = 4; level + 2 <= 34; level += 2) order = { type: 'object', properties: { p: order } };
  const schema = await p.call('POST', `${ADMIN}/schemas`, {
    token: acme,
    body: { content: registryDocument({ title: 'deep', version: '1', data: 'Order', schemas: { Order: order } }) },
  });
  assert.is(schema.status, 400, JSON.stringify(schema.body));
  assert.is(schema.body.code, 'SCHEMA.INVALID');
  assert.equal(schema.body.details.length, 1);
  assert.match(schema.body.details[0].path, /^content\.components\.schemas\.Order(\.properties\.p)+\.properties$/);
  assert.match(schema.body.details[0].message, /input limit for schema documents: nesting depth 32/);
});

test('the trace of other events is unaffected, and the platform stays ready', async () => {
  const r = await p.call('POST', PUT_EVENT, { token: acme, body: anEvent({ data: { amount: 500 } }) });
  assert.is(r.status, 200, JSON.stringify(r.body));
  const trace = await routedTrace(r.body.eventId);
  assert.equal(
    trace.filtering!.matched.map((m) => m.ruleId),
    ['big-orders'],
  );
  await p.eventually(async () => ((await p.call('GET', '/health/ready')).status === 200 ? true : undefined), 'ready');
});

test.run();
