// A reused event id with other content keeps the spec's duplicate rule (200, duplicate:
// true, nothing routed) and says so: `contentDiffers: true` in the answer, a note in the trace naming the
// fields. The same content (whatever the order of its keys) is a plain duplicate.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { MAX_DUPLICATE_NOTES } from '../../../domain/bridge/published-event.decider.ts';
import { ADMIN, anEvent, type BridgePlatform, PUT_EVENT, startBridgePlatform } from './bridge-harness.ts';

const test = suite('duplicate with other content');
let p: BridgePlatform;
let acme: string;

test.before(async () => {
  p = await startBridgePlatform();
  acme = await p.token('acme');
  assert.is((await p.call('POST', `${ADMIN}/buses`, { token: acme, body: { name: 'orders' } })).status, 201);
});
test.after(() => p.stop());

const put = (body: unknown, headers: Record<string, string> = {}) =>
  p.call('POST', PUT_EVENT, { token: acme, body, headers });
const trace = (eventId: string) => p.call('GET', `${ADMIN}/trace/events/${eventId}`, { token: acme });
const publishedTypes = async (eventId: string) =>
  (await p.platform.stores.eventStore.readStream(`published-acme.${eventId}`)).map((e) => e.type);

test('the same content again, keys in another order: duplicate: true and nothing else', async () => {
  const event = anEvent({ data: { a: 1, b: { c: 2, d: 3 } } });
  const first = await put(event);
  const reordered = { ...event, data: { b: { d: 3, c: 2 }, a: 1 } };
  const again = await put(Object.fromEntries(Object.entries(reordered).reverse()));
  assert.equal(again.body, { eventId: first.body.eventId, duplicate: true });
  assert.not.ok((await publishedTypes(first.body.eventId)).includes('DuplicateReceived'));
});

test('other content: duplicate: true, contentDiffers: true, routed once, and a trace note naming the fields', async () => {
  const event = anEvent();
  const first = await put(event);
  const id = first.body.eventId as string;
  await p.eventually(async () => ((await trace(id)).body?.filtering ? true : undefined), 'the first event routed');
  const again = await put(
    { ...event, data: { ...event.data, amount: 999 }, subject: 'orders:us' },
    { 'idempotency-key': 'dup-1' },
  );
  assert.is(again.status, 200);
  assert.equal(again.body, { eventId: id, duplicate: true, contentDiffers: true });
  const note = await p.eventually(async () => (await trace(id)).body?.notes?.[0], 'the trace note');
  assert.equal(note.fields, ['data', 'subject']);
  assert.is(note.kind, 'duplicate-content-differs');
  assert.is(note.publisher.tenant, 'acme');
  const t = (await trace(id)).body;
  assert.is(t.event.data.amount, event.data.amount, 'the trace keeps the first event');

  // a retry of the same request (same Idempotency-Key) notes nothing twice
  assert.equal(
    (
      await put(
        { ...event, data: { ...event.data, amount: 999 }, subject: 'orders:us' },
        { 'idempotency-key': 'dup-1' },
      )
    ).body,
    again.body,
  );
  const types = await publishedTypes(id);
  assert.equal(types.filter((t) => t === 'EventRouted').length, 1, 'nothing routed again');
  assert.equal(types.filter((t) => t === 'DuplicateReceived').length, 1);
});

test(`a producer stuck in a loop: every answer says so, the stream keeps ${MAX_DUPLICATE_NOTES} notes`, async () => {
  const event = anEvent();
  const id = (await put(event)).body.eventId as string;
  for (let i = 0; i < MAX_DUPLICATE_NOTES + 3; i++) {
    assert.is((await put({ ...event, data: { n: i } })).body.contentDiffers, true);
  }
  assert.is((await publishedTypes(id)).filter((t) => t === 'DuplicateReceived').length, MAX_DUPLICATE_NOTES);
});

test('putEvents: the entry of a repeat with other content says so too', async () => {
  const event = anEvent();
  await put(event);
  const r = await p.call('POST', '/api/platform/platform-pub/eventBridge/event/v1/putEvents', {
    token: acme,
    body: [event, { ...event, type: 'shop:Order:Changed' }],
  });
  assert.is(r.status, 200);
  assert.is(r.body.entries[0].contentDiffers, undefined);
  assert.is(r.body.entries[1].contentDiffers, true);
});

test.run();
