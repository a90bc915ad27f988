import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import {
  ADMIN,
  aJobAlert,
  anEvent,
  type BridgePlatform,
  PUT_EVENT,
  PUT_EVENTS,
  startBridgePlatform,
} from './bridge-harness.ts';

const test = suite('putEvent over HTTP');
let p: BridgePlatform;
let acme: string;
let beta: string;

test.before(async () => {
  p = await startBridgePlatform();
  acme = await p.token('acme');
  beta = await p.token('beta');
  for (const token of [acme, beta]) {
    const r = await p.call('POST', `${ADMIN}/buses`, { token, body: { name: 'orders', description: 'order events' } });
    assert.is(r.status, 201, JSON.stringify(r.body));
  }
});
test.after(async () => p.stop());

const put = (token: string, body: unknown, headers: Record<string, string> = {}) =>
  p.call('POST', PUT_EVENT, { token, body, headers });
const fields = (body: { details: Array<{ field: string }> }) => body.details.map((d) => d.field).sort();

test('200 {eventId, duplicate: false}; the repeat of (source, id) is 200 duplicate: true with the same eventId', async () => {
  const event = anEvent();
  const first = await put(acme, event);
  assert.is(first.status, 200, JSON.stringify(first.body));
  assert.match(first.body.eventId, /^[0-9a-f]{64}$/);
  assert.is(first.body.duplicate, false);
  // the same content again (a repeat with other content also answers contentDiffers: duplicate-content.spec.ts)
  const again = await put(acme, event);
  assert.is(again.status, 200);
  assert.equal(again.body, { eventId: first.body.eventId, duplicate: true });
  // accepted once: one EventAccepted in the log
  const stream = await p.platform.stores.eventStore.readStream(`published-acme.${first.body.eventId}`);
  assert.is(stream.filter((e) => e.type === 'EventAccepted').length, 1);
  // the same (source, id) on another tenant's bus is another event
  const other = await put(beta, event);
  assert.is(other.status, 200);
  assert.is(other.body.duplicate, false);
  assert.is.not(other.body.eventId, first.body.eventId);
});

test('the lower-case spellings of the field table are accepted; the stored form is camelCase', async () => {
  const { dataContentType, eventBusName, ...rest } = anEvent();
  const r = await put(acme, {
    ...rest,
    datacontenttype: `${dataContentType}; charset=utf-8`,
    eventbusname: eventBusName,
    dataschemaid: undefined,
  });
  assert.is(r.status, 200, JSON.stringify(r.body));
  const [accepted] = await p.platform.stores.eventStore.readStream(`published-acme.${r.body.eventId}`);
  const event = (accepted!.data as { event: Record<string, unknown> }).event;
  assert.is(event.dataContentType, 'application/json; charset=utf-8');
  assert.is(event.eventBusName, 'orders');
  assert.not.ok('datacontenttype' in event);
});

test('Idempotency-Key: a retried request answers as the first did', async () => {
  const event = anEvent();
  const a = await put(acme, event, { 'idempotency-key': 'put-retry-1' });
  const b = await put(acme, event, { 'idempotency-key': 'put-retry-1' });
  assert.equal(a.body, b.body);
  assert.is(b.body.duplicate, false);
  const c = await put(acme, event);
  assert.is(c.body.duplicate, true);
});

test('400 EVENT.INVALID naming every bad field', async () => {
  const r = await put(
    acme,
    anEvent({ id: '', time: '2026-03-01T10:00:00Z', data: [1], dataContentType: 'text/plain', extra: 1 }),
  );
  assert.is(r.status, 400);
  assert.is(r.body.code, 'EVENT.INVALID');
  assert.equal(fields(r.body), ['data', 'dataContentType', 'extra', 'id', 'time']);
  const missing = await put(acme, {});
  assert.equal(fields(missing.body), ['data', 'dataContentType', 'eventBusName', 'id', 'source', 'time', 'type']);
  const notJson = await p.call('POST', PUT_EVENT, {
    token: acme,
    raw: '{"id": ',
    headers: { 'content-type': 'application/json' },
  });
  assert.is(notJson.status, 400);
  assert.is(notJson.body.code, 'REQUEST.MALFORMED_JSON');
  const array = await put(acme, [anEvent()]);
  assert.is(array.status, 400);
  assert.match(array.body.message, /putEvents/);
});

test('400 when both spellings carry different values, naming both', async () => {
  const r = await put(acme, { ...anEvent(), eventbusname: 'other' });
  assert.is(r.status, 400);
  assert.equal(fields(r.body), ['eventBusName', 'eventbusname']);
});

test('403 wrong bus: a tenant to the platform bus, to another tenant’s bus, a platform source to a custom bus', async () => {
  for (const bus of ['platform', 'platform-batch', 'baseline-claim']) {
    const r = await put(acme, anEvent({ eventBusName: bus }));
    assert.is(r.status, 403, bus);
    assert.is(r.body.code, 'BUS.FORBIDDEN');
  }
  const other = await put(acme, anEvent({ eventBusName: 'beta/orders' }));
  assert.is(other.status, 403);
  assert.is(other.body.code, 'BUS.FORBIDDEN');
  // a bus of another tenant that does not exist: the same 403 (existence is not revealed)
  assert.is((await put(acme, anEvent({ eventBusName: 'beta/nothing' }))).status, 403);
  const platformSource = await put(acme, aJobAlert('acme', { eventBusName: 'orders' }));
  assert.is(platformSource.status, 403);
  assert.match(platformSource.body.message, /platform event source/);
  // an event type the platform source is not registered for
  const type = await put(acme, aJobAlert('acme', { type: 'batchv2:Alter:Other' }));
  assert.is(type.status, 403);
  assert.is(type.body.code, 'SOURCE.TYPE_NOT_ALLOWED');
});

test('a platform source publishes to its platform bus with the tenant’s token', async () => {
  const r = await put(acme, aJobAlert('acme'));
  assert.is(r.status, 200, JSON.stringify(r.body));
});

test('404 unknown bus', async () => {
  for (const bus of ['nothing', 'platform-nothing', 'bad name', 'acme/nothing']) {
    const r = await put(acme, anEvent({ eventBusName: bus }));
    assert.is(r.status, 404, bus);
    assert.is(r.body.code, 'BUS.NOT_FOUND');
  }
});

test('413 EVENT.TOO_LARGE above 256 KiB; just below is accepted', async () => {
  const big = await put(acme, anEvent({ data: { blob: 'x'.repeat(256 * 1024) } }));
  assert.is(big.status, 413);
  assert.is(big.body.code, 'EVENT.TOO_LARGE');
  const fits = await put(acme, anEvent({ data: { blob: 'x'.repeat(250 * 1024) } }));
  assert.is(fits.status, 200);
});

test('401 without a token, 403 without the bridge:publish scope', async () => {
  assert.is((await put(undefined as unknown as string, anEvent())).status, 401);
  const adminOnly = await p.token('acme', ['bridge:admin']);
  const r = await put(adminOnly, anEvent());
  assert.is(r.status, 403);
  assert.is(r.body.code, 'AUTH.INSUFFICIENT_SCOPE');
});

test('schema-validated data: 400 listing every violation; unknown schema 400', async () => {
  const jobAlter = '100000000000003';
  const bad = await put(
    acme,
    anEvent({ dataSchemaId: jobAlter, data: { jobId: '', status: 'EXPLODED', retryCount: -1 } }),
  );
  assert.is(bad.status, 400, JSON.stringify(bad.body));
  assert.is(bad.body.code, 'EVENT.SCHEMA_VIOLATION');
  const paths = (bad.body.details as Array<{ field: string; keyword: string }>).map((d) => `${d.field}:${d.keyword}`);
  for (const expected of [
    'data.jobId:minLength',
    'data.status:enum',
    'data.retryCount:minimum',
    'data.jobName:required',
    'data.occurredAt:required',
  ]) {
    assert.ok(paths.includes(expected), `${expected} in ${paths}`);
  }
  assert.ok(paths.filter((x) => x.endsWith(':required')).length >= 4, paths.join());
  const good = await put(acme, anEvent({ dataSchemaId: Number(jobAlter), data: aJobAlert('acme').data }));
  assert.is(good.status, 200, JSON.stringify(good.body));
  const unknown = await put(acme, anEvent({ dataSchemaId: '999' }));
  assert.is(unknown.status, 400);
  assert.is(unknown.body.code, 'SCHEMA.UNKNOWN');
  // a platform source's events are validated against the source's schema even without dataSchemaId
  const platformBad = await put(acme, aJobAlert('acme', { data: { jobId: 'j' } }));
  assert.is(platformBad.status, 400);
  assert.is(platformBad.body.code, 'EVENT.SCHEMA_VIOLATION');
});

test('batch: per-entry results as AWS PutEvents', async () => {
  const dup = anEvent();
  await put(acme, dup);
  const fresh = anEvent();
  const r = await p.call('POST', PUT_EVENTS, {
    token: acme,
    body: [
      fresh,
      anEvent({ time: 'yesterday' }),
      dup,
      anEvent({ eventBusName: 'platform' }),
      anEvent({ eventBusName: 'nothing' }),
      fresh,
    ],
  });
  assert.is(r.status, 200, JSON.stringify(r.body));
  assert.is(r.body.failedEntryCount, 3);
  const [a, b, c, d, e, f] = r.body.entries;
  assert.is(a.duplicate, false);
  assert.match(a.eventId, /^[0-9a-f]{64}$/);
  assert.is(b.errorCode, 'EVENT.INVALID');
  assert.equal(
    b.details.map((x: { field: string }) => x.field),
    ['time'],
  );
  assert.is(c.duplicate, true);
  assert.is(d.errorCode, 'BUS.FORBIDDEN');
  assert.is(e.errorCode, 'BUS.NOT_FOUND');
  assert.equal(f, { eventId: a.eventId, duplicate: true });

  const tooMany = await p.call('POST', PUT_EVENTS, { token: acme, body: Array.from({ length: 11 }, () => anEvent()) });
  assert.is(tooMany.status, 400);
  assert.is(tooMany.body.code, 'EVENT.BATCH_SIZE');
  assert.is((await p.call('POST', PUT_EVENTS, { token: acme, body: [] })).status, 400);
  assert.is((await p.call('POST', PUT_EVENTS, { token: acme, body: anEvent() })).status, 400);
  const big = await p.call('POST', PUT_EVENTS, {
    token: acme,
    body: [anEvent({ data: { blob: 'x'.repeat(200 * 1024) } }), anEvent({ data: { blob: 'x'.repeat(200 * 1024) } })],
  });
  assert.is(big.status, 413);
});

test('the OpenAPI document describes putEvent, putEvents and the admin API', async () => {
  const r = await p.call('GET', '/api/platform/platform-pub/eventBridge/openapi.json');
  assert.is(r.status, 200);
  assert.is(r.body.openapi, '3.0.3');
  for (const path of [
    PUT_EVENT,
    PUT_EVENTS,
    `${ADMIN}/buses`,
    `${ADMIN}/buses/{bus}/sources/{source}`,
    `${ADMIN}/trace/events/{eventId}`,
    `${ADMIN}/rules`,
    `${ADMIN}/test-pattern`,
    `${ADMIN}/schemas`,
  ]) {
    assert.ok(r.body.paths[path], `${path} documented`);
  }
});

test.run();
