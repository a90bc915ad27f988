// The caller-token store (Bearer source `caller`): real SQLite read and event stores; the token is
// sealed at rest (never readable in the read-model file or in the log), opens only for its own event, is
// not answered past its expiry, and the sweep removes expired entries. putEvent keeps it for accepted
// events only (a duplicate neither replaces nor adds one).
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { CALLER_TOKENS_COLLECTION, createCallerTokens } from '../../../commands/bridge/caller-tokens.store.ts';
import { createPublisher } from '../../../commands/bridge/publish.commands.ts';
import { type BridgeFixture, createBridgeFixture, ctxOf } from './bridge-fixture.ts';

const SECRET = 'spec-key-encryption-secret-0123456789abcdef';
const TOKEN = 'eyJhbGciOiJFUzI1NiJ9.eyJzdWIiOiJjYWxsZXItdG9rZW4tc3BlYyJ9.c2lnbmF0dXJlLW9mLXRoZS1jYWxsZXItdG9rZW4';

const test = suite('caller tokens: sealed, outside the log, until they expire');
let f: BridgeFixture;

test.before(async () => {
  f = await createBridgeFixture();
});
test.after(async () => {
  await f.close();
});

/** every byte SQLite wrote for a store file (the file and its -wal / -shm companions) */
const bytesOf = (file: string) =>
  Buffer.concat(
    readdirSync(path.dirname(file))
      .filter((n) => n.startsWith(path.basename(file)))
      .map((n) => readFileSync(path.join(path.dirname(file), n))),
  );
const inFile = (file: string, s: string) => bytesOf(file).includes(Buffer.from(s, 'utf8'));

test('keep → get → forget; sealed at rest, under the event key', async () => {
  const tokens = createCallerTokens({ readStore: f.readStore, clock: f.clock, secret: SECRET });
  const expiresAt = new Date(f.clock.now().getTime() + 3600_000);
  await tokens.keep('event-1', TOKEN, expiresAt);
  assert.is(await tokens.get('event-1'), TOKEN);
  assert.ok(await tokens.has('event-1'));

  const doc = await f.readStore.collection(CALLER_TOKENS_COLLECTION).get('event-1');
  assert.ok(doc !== null);
  assert.match(String(doc!.sealed), /^enc:v1:/);
  assert.is(doc!.expiresAt, expiresAt.toISOString());
  assert.not.ok(JSON.stringify(doc).includes(TOKEN));
  assert.not.ok(inFile(path.join(f.dir, 'read-models.sqlite'), TOKEN), 'the raw token is not in the read-model file');
  assert.not.ok(
    inFile(path.join(f.dir, 'read-models.sqlite'), 'c2lnbmF0dXJlLW9mLXRoZS1jYWxsZXItdG9rZW4'),
    'nor a part of it',
  );

  // a sealed token moved onto another event does not open there; another key-encryption secret opens nothing
  await f.readStore.collection(CALLER_TOKENS_COLLECTION).upsert({ ...doc!, id: 'event-2' });
  assert.is(await tokens.get('event-2'), undefined);
  const other = createCallerTokens({ readStore: f.readStore, clock: f.clock, secret: `${SECRET}-other` });
  assert.is(await other.get('event-1'), undefined);

  await tokens.forget('event-1');
  await tokens.forget('event-2');
  assert.is(await tokens.get('event-1'), undefined);
  assert.not.ok(await tokens.has('event-1'));
  await tokens.forget('event-1'); // forgetting twice is fine
});

test('past its expiry a token is not answered; sweep deletes the expired entries only', async () => {
  const tokens = createCallerTokens({ readStore: f.readStore, clock: f.clock, secret: SECRET });
  const t0 = f.clock.now().getTime();
  await tokens.keep('short', 'short-token', new Date(t0 + 60_000));
  await tokens.keep('long', 'long-token', new Date(t0 + 3600_000).toISOString());
  assert.is(await tokens.sweep(), 0);
  f.clock.advance(60_000);
  assert.is(await tokens.get('short'), undefined, 'expired at exp');
  assert.is(await tokens.get('long'), 'long-token');
  f.clock.advance(1);
  assert.is(await tokens.sweep(), 1);
  assert.not.ok(await tokens.has('short'));
  assert.ok(await tokens.has('long'));
  await tokens.forget('long');
});

test('putEvent keeps the caller token of an accepted event, not in the log; a duplicate keeps nothing', async () => {
  const tokens = createCallerTokens({ readStore: f.readStore, clock: f.clock, secret: SECRET });
  const publisher = createPublisher({
    eventStore: f.eventStore,
    clock: f.clock,
    buses: f.lookup,
    schemaValidator: f.schemaValidator,
    callerTokens: tokens,
  });
  await f.buses.createBus({ name: 'orders', kind: 'custom' }, ctxOf('acme'), f.cmd('bus'));
  const caller = { tenant: 'acme', subject: 'svc', clientId: 'acme-bridge' };
  const event = {
    id: 'order-1',
    source: 'shop:checkout',
    type: 'shop:Order:Placed',
    time: '2026-03-01T10:00:00',
    dataContentType: 'application/json',
    eventBusName: 'orders',
    data: { orderId: 1 },
  };
  const expiresAt = new Date(f.clock.now().getTime() + 3600_000);
  const first = await publisher.publish(event, caller, { callerToken: { token: TOKEN, expiresAt } }, f.cmd('put'));
  assert.is(first.duplicate, false);
  assert.is(await tokens.get(first.eventId), TOKEN);

  const again = await publisher.publish(
    event,
    caller,
    { callerToken: { token: 'another-callers-token', expiresAt } },
    f.cmd('put'),
  );
  assert.equal(again, { eventId: first.eventId, duplicate: true });
  assert.is(await tokens.get(first.eventId), TOKEN, 'a duplicate does not replace the token');

  // a duplicate of an event whose token is gone does not leave its own behind
  await tokens.forget(first.eventId);
  await publisher.publish(event, caller, { callerToken: { token: 'another-callers-token', expiresAt } }, f.cmd('put'));
  assert.not.ok(await tokens.has(first.eventId));

  const all = await f.eventStore.readAll({ limit: 10_000 });
  assert.ok(all.length > 0);
  assert.not.ok(JSON.stringify(all).includes(TOKEN), 'not in the events');
  assert.not.ok(inFile(path.join(f.dir, 'events.sqlite'), TOKEN), 'not in the events table');
  assert.not.ok(inFile(path.join(f.dir, 'events.sqlite'), 'another-callers-token'));
  assert.not.ok(inFile(path.join(f.dir, 'read-models.sqlite'), TOKEN), 'not in the read-model file');
});

test.run();
