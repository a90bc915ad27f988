import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Router } from 'express';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { commandHandler } from '../../../commands/core/command-handler.ts';
import type { RecordedEvent } from '../../../domain/core/event.ts';
import { commandIdFrom } from '../../../http/core/command-id.ts';
import { commandMetadata } from '../../../http/core/request-context.ts';
import { validate } from '../../../http/core/validate.ts';
import type { EventStore } from '../../../infra/core/event-store.port.ts';
import { createEsdbEventStore } from '../../../infra/esdb/event-store.esdb.ts';
import { createSqliteEventStore } from '../../../infra/sqlite/event-store.sqlite.ts';
import { accountDecider } from '../../core/fixtures/account.decider.ts';
import { startTestApp, type TestApp } from './harness.ts';

/** A test-only service router over the account decider: how a real service plugs a command into HTTP. */
function accountRouter(store: EventStore) {
  const handle = commandHandler(store, accountDecider);
  const router = Router();
  router.post(
    '/accounts/:id/deposits',
    validate({
      params: { type: 'object', properties: { id: { type: 'string', pattern: '^[a-z0-9]+$' } }, required: ['id'] },
      body: {
        type: 'object',
        properties: { amount: { type: 'number' } },
        required: ['amount'],
        additionalProperties: false,
      },
    }),
    async (req, res) => {
      const ctx = commandMetadata(res, { tenant: 'acme', actor: 'user:test' });
      const r = await handle({
        stream: `account-acme.${req.params.id}`,
        command: { type: 'Deposit', amount: req.body.amount },
        commandId: commandIdFrom(req),
        now: new Date().toISOString(),
        context: ctx,
      });
      res
        .status(r.replayed ? 200 : 201)
        .json({ revision: r.revision, balance: r.state.status === 'none' ? 0 : r.state.balance });
    },
  );
  return router;
}

/** given(stream events).when(request).then([status, new events]) against a real server. */
async function given(app: TestApp, store: EventStore, stream: string) {
  const before = (await store.readStream(stream)).length;
  return {
    async when(method: string, url: string, body: unknown, headers: Record<string, string> = {}) {
      const res = await fetch(app.url + url, {
        method,
        headers: { 'content-type': 'application/json', ...headers },
        body: typeof body === 'string' ? body : JSON.stringify(body),
      });
      const json = await res.json();
      const after = await store.readStream(stream);
      return {
        status: res.status,
        body: json as Record<string, unknown>,
        newEvents: after.slice(before) as RecordedEvent[],
        headers: res.headers,
      };
    },
  };
}

const dir = mkdtempSync(path.join(tmpdir(), 'http-cmd-'));
const store = createSqliteEventStore({ file: path.join(dir, 'events.sqlite') });
let app: TestApp;

test.before(async () => {
  app = await startTestApp({ router: accountRouter(store) });
  await store.append(
    'account-acme.a1',
    [
      {
        id: '0b7d5c36-4a55-4f3e-a0d6-d5b9a2b0e001',
        type: 'AccountOpened',
        data: { owner: 'ann', openedAt: 'x' },
        metadata: { tenant: 'acme', occurredAt: 'x', schemaVersion: 1 },
      },
    ],
    'no_stream',
  );
});
test.after(async () => {
  await app.close();
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

test('a valid command: 201 and one new event carrying request and correlation ids', async () => {
  const r = await (await given(app, store, 'account-acme.a1')).when(
    'POST',
    '/accounts/a1/deposits',
    { amount: 5 },
    { 'x-correlation-id': 'corr-42' },
  );
  assert.is(r.status, 201);
  assert.equal(r.body, { revision: 1, balance: 5 });
  assert.is(r.newEvents.length, 1);
  assert.is(r.newEvents[0]!.metadata.correlationId, 'corr-42');
  assert.is(r.newEvents[0]!.metadata.causationId, r.headers.get('x-request-id'));
  assert.is(r.newEvents[0]!.metadata.actor, 'user:test');
});

test('the same Idempotency-Key twice: second answers 200, appends nothing', async () => {
  const g = await given(app, store, 'account-acme.a1');
  const first = await g.when('POST', '/accounts/a1/deposits', { amount: 3 }, { 'idempotency-key': 'k-1' });
  const second = await g.when('POST', '/accounts/a1/deposits', { amount: 3 }, { 'idempotency-key': 'k-1' });
  assert.is(first.status, 201);
  assert.is(second.status, 200);
  assert.is(second.newEvents.length, 1, 'only the first request appended');
});

test('bad input: 400 naming the field, nothing appended', async () => {
  const r = await (await given(app, store, 'account-acme.a1')).when('POST', '/accounts/a1/deposits', {
    amount: 'ten',
    extra: 1,
  });
  assert.is(r.status, 400);
  assert.is(r.body.code, 'REQUEST.INVALID');
  assert.equal((r.body.details as Array<{ field: string }>).map((d) => d.field).sort(), ['amount', 'extra']);
  assert.is(r.newEvents.length, 0);
});

test('malformed JSON: 400 with a clear message, nothing appended', async () => {
  const r = await (await given(app, store, 'account-acme.a1')).when('POST', '/accounts/a1/deposits', '{"amount": 5');
  assert.is(r.status, 400);
  assert.is(r.body.code, 'REQUEST.MALFORMED_JSON');
  assert.is(r.newEvents.length, 0);
});

test('a rejected command: the decider error status and code, nothing appended', async () => {
  const r = await (await given(app, store, 'account-acme.nobody')).when('POST', '/accounts/nobody/deposits', {
    amount: 5,
  });
  assert.is(r.status, 404);
  assert.is(r.body.code, 'ACCOUNT.NOT_OPEN');
  assert.is(r.newEvents.length, 0);
});

test('an event store that is down: 503 with a clear message, and the server stays up', async () => {
  // nothing listens on port 1: the EventStoreDB client cannot connect
  const down = createEsdbEventStore({ connectionString: 'esdb://127.0.0.1:1?tls=false&keepAliveTimeout=10000' });
  const other = await startTestApp({ router: accountRouter(down) });
  try {
    const res = await fetch(`${other.url}/accounts/a1/deposits`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"amount":1}',
    });
    assert.is(res.status, 503);
    const body = (await res.json()) as { code: string; message: string };
    assert.is(body.code, 'STORE.UNAVAILABLE');
    assert.match(body.message, /unavailable/);
    assert.is(res.headers.get('retry-after'), '5');
    const live = await fetch(`${other.url}/health/live`);
    assert.is(live.status, 200);
  } finally {
    await other.close();
    await down.close();
  }
});

test.run();
