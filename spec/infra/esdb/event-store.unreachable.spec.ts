import { randomUUID } from 'node:crypto';
import { createServer } from 'node:net';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { StoreUnavailableError } from '../../../infra/core/store-errors.ts';
import { createEsdbEventStore } from '../../../infra/esdb/event-store.esdb.ts';

/*
 * The EventStoreDB adapter against a server that is not there (a closed port on 127.0.0.1): no server is
 * needed, so this runs everywhere. The contract runs against a real server when ESDB_URL is set.
 */
const test = suite('EventStoreDB adapter, server unreachable');

/** Safety net against hangs; never a speed assertion. */
const WAIT_MS = 15_000;

const closedPort = async () => {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
};

const event = () => ({
  id: randomUUID(),
  type: 'Happened',
  data: {},
  metadata: { tenant: 'acme', occurredAt: '2024-01-01T00:00:00.000Z', schemaVersion: 1 },
});

test('appendMany rejects as a whole with StoreUnavailableError; a page subscription waits (retrying) until aborted', async () => {
  const store = createEsdbEventStore({ connectionString: `esdb://127.0.0.1:${await closedPort()}?tls=false` });
  try {
    const controller = new AbortController();
    const pages = store.subscribePages({ signal: controller.signal })[Symbol.asyncIterator]();
    const pending = pages.next();
    pending.catch(() => {});
    const failed = await rejection(
      store.appendMany([
        { stream: 'thing-acme.1', events: [event()], expected: 'any' },
        { stream: 'thing-acme.2', events: [event()], expected: 'no_stream' },
      ]),
    );
    assert.instance(failed, StoreUnavailableError);
    // by now the page reader has met the same refusal: it keeps retrying instead of failing the consumer
    controller.abort();
    assert.is((await within(pending)).done, true);
  } finally {
    await store.close();
  }
});

test('close ends a page subscription that is retrying', async () => {
  const store = createEsdbEventStore({ connectionString: `esdb://127.0.0.1:${await closedPort()}?tls=false` });
  const pending = store.subscribePages({ pageSize: 10 })[Symbol.asyncIterator]().next();
  pending.catch(() => {});
  assert.instance(await rejection(store.headPosition()), StoreUnavailableError);
  store.interruptSubscriptions(); // nothing open to interrupt: a no-op
  await store.close();
  assert.is((await within(pending)).done, true);
  assert.instance(await rejection(store.appendMany([])), StoreUnavailableError);
});

test('a page size that is not a positive integer is refused', async () => {
  const store = createEsdbEventStore({ connectionString: `esdb://127.0.0.1:${await closedPort()}?tls=false` });
  try {
    assert.throws(() => store.subscribePages({ pageSize: 0 }), /pageSize/);
  } finally {
    await store.close();
  }
});

test.run();

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await within(promise);
  } catch (error) {
    return error;
  }
  return assert.unreachable('expected a rejection');
}

function within<T>(promise: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('timed out')), WAIT_MS);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
