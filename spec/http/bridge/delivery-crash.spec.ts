// The delivery's crash test: a burst of 1,000 events routed to an HTTP receiver (in this process, recording
// every X-Delivery-Id); the platform process is SIGKILLed mid-burst and started again on the same data.
// Afterwards every event is delivered, and the only delivery ids the receiver saw more than once are those
// whose attempt was started and whose outcome was never recorded (the log shows them as uncertain
// failures): at most the attempts in flight when the process died.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { deliveryIdFor } from '../../../commands/bridge/delivery.scheduler.ts';
import { type DeliveryAttemptFailedData, UNCERTAIN_ERROR } from '../../../domain/bridge/delivery.decider.ts';
import { createSqliteEventStore } from '../../../infra/sqlite/event-store.sqlite.ts';
import { eventually } from '../../core/eventually.ts';

const EVENTS = 1000;
const KILL_AFTER = 300; // deliveries the receiver has seen when the process is killed
const PUT_CONCURRENCY = 8;
const DELIVERY_CONCURRENCY = 4;
const TENANT = 'crash';
const RULE = 'to-receiver';
const PUT = '/api/platform/platform-pub/eventBridge/event/v1/putEvent';
const fixture = path.join(import.meta.dirname, 'fixtures', 'delivery-platform.ts');
const dir = mkdtempSync(path.join(tmpdir(), 'delivery-crash-'));

/** delivery id → how many times the receiver got it */
const seen = new Map<string, number>();
let receiver: Server;
let receiverUrl = '';

test.before(async () => {
  receiver = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const id = String(req.headers['x-delivery-id']);
      seen.set(id, (seen.get(id) ?? 0) + 1);
      // a short think time keeps attempts in flight, as a real receiver would
      setTimeout(() => {
        res.statusCode = 200;
        res.end('{"ok":true}');
      }, 5);
    });
  });
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
});
test.after(async () => {
  receiver.closeAllConnections();
  await new Promise((r) => receiver.close(r));
  rmSync(dir, { recursive: true, force: true });
});

type Running = { child: ChildProcess; url: string; token: string; exited: Promise<number | null> };

async function startChild(setup: boolean): Promise<Running> {
  const child = spawn(process.execPath, ['--import', 'tsx', fixture, dir, receiverUrl, ...(setup ? ['--setup'] : [])], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      ...process.env,
      DELIVERY_CONCURRENCY: String(DELIVERY_CONCURRENCY),
      // short, so that the restarted process takes the killed one's attempts for lost soon
      DELIVERY_TIMEOUT_MS: '2000',
      DELIVERY_LEASE_MS: '4000',
      DELIVERY_POLL_MS: '50',
    },
  });
  let out = '';
  let err = '';
  child.stderr!.on('data', (d) => (err += d));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const ready = await new Promise<{ url: string; token: string }>((resolve, reject) => {
    child.stdout!.on('data', (d) => {
      out += d;
      const m = /READY (\{.*\})/.exec(out);
      if (m) resolve(JSON.parse(m[1]!) as { url: string; token: string });
    });
    void exited.then((code) => reject(new Error(`platform exited with ${code}: ${err.slice(-3000)}`)));
  });
  return { child, exited, ...ready };
}

let seq = 0;
const events = Array.from({ length: EVENTS }, () => ({
  id: `order-${++seq}`,
  source: 'shop:checkout',
  type: 'shop:Order:Placed',
  time: '2026-03-01T10:00:00',
  dataContentType: 'application/json',
  eventBusName: 'orders',
  data: { n: seq },
}));

/** the event key putEvent answered, per event index (undefined: no answer yet) */
const keys: Array<string | undefined> = new Array(EVENTS);

/** puts every event without an answer yet, PUT_CONCURRENCY at a time; stops quietly when the server dies */
async function burst(p: Running, onProgress?: () => void) {
  let next = 0;
  await Promise.all(
    Array.from({ length: PUT_CONCURRENCY }, async () => {
      while (next < EVENTS) {
        const i = next++;
        if (keys[i] !== undefined) continue;
        try {
          const res = await fetch(`${p.url}${PUT}`, {
            method: 'POST',
            headers: { authorization: `Bearer ${p.token}`, 'content-type': 'application/json' },
            body: JSON.stringify(events[i]),
          });
          const body = (await res.json()) as { eventId?: string };
          if (res.status === 200 && body.eventId) keys[i] = body.eventId;
        } catch {
          // the process was killed: this one is resent after the restart (a duplicate answers its key)
        }
        onProgress?.();
      }
    }),
  );
}

test(`SIGKILL during a burst of ${EVENTS} events: after a restart every event is delivered, duplicates only where the outcome was lost`, async () => {
  const first = await startChild(true);
  let killed = false;
  const kill = () => {
    if (!killed && [...seen.values()].length >= KILL_AFTER) {
      killed = true;
      first.child.kill('SIGKILL');
    }
  };
  // the kill comes from the receiver's side too: deliveries run while events are still being put
  const watcher = setInterval(kill, 1);
  await burst(first, kill);
  clearInterval(watcher);
  if (!killed) {
    // the burst finished before enough deliveries: kill now, mid-delivery
    killed = true;
    first.child.kill('SIGKILL');
  }
  await first.exited;
  const answeredBeforeKill = keys.filter((k) => k !== undefined).length;
  const seenBeforeKill = seen.size;

  const second = await startChild(false);
  await burst(second);
  assert.is(keys.filter((k) => k !== undefined).length, EVENTS, 'every event accepted');
  const expected = keys.map((k) => deliveryIdFor(k!, TENANT, RULE, 1));
  await eventually(() => expected.every((id) => seen.has(id)), {
    what: 'every event delivered',
    timeoutMs: 60_000,
  }).catch(() => undefined);
  const missing = expected.filter((id) => !seen.has(id));
  assert.is(missing.length, 0, `${missing.length} events never delivered`);
  second.child.kill('SIGTERM');
  assert.is(await second.exited, 0);

  // the log: which attempts were started and never got their outcome
  const eventStore = createSqliteEventStore({ file: path.join(dir, 'events.sqlite') });
  const uncertain = new Map<string, number>();
  let after = undefined as string | undefined;
  while (true) {
    const page = await eventStore.readAll({
      ...(after !== undefined && { after }),
      filter: { categories: ['delivery'], eventTypes: ['DeliveryAttemptFailed'] },
      limit: 1000,
    });
    if (page.length === 0) break;
    for (const e of page) {
      const d = e.data as DeliveryAttemptFailedData;
      if (d.uncertain === true) {
        assert.is(d.error, UNCERTAIN_ERROR);
        uncertain.set(d.deliveryId, (uncertain.get(d.deliveryId) ?? 0) + 1);
      }
    }
    after = page[page.length - 1]!.position;
  }
  const failedOther = (
    await eventStore.readAll({
      filter: { categories: ['delivery'], eventTypes: ['DeliveryDeadLettered', 'DeliveryDiscarded'] },
    })
  ).length;
  await eventStore.close();

  const twice = [...seen].filter(([, n]) => n > 1);
  for (const [id, n] of twice) {
    assert.ok(uncertain.has(id), `delivery ${id} was seen ${n} times but its outcome had been recorded`);
    assert.ok(
      n <= 1 + uncertain.get(id)!,
      `delivery ${id} was seen ${n} times for ${uncertain.get(id)} lost outcome(s)`,
    );
  }
  assert.ok(
    uncertain.size <= DELIVERY_CONCURRENCY,
    `${uncertain.size} attempts in flight at the kill, more than the ${DELIVERY_CONCURRENCY} loops`,
  );
  assert.is(failedOther, 0, 'nothing dead-lettered or discarded');
  assert.is(seen.size, EVENTS, 'no stray delivery ids');
  console.log(
    `    killed after ${seenBeforeKill} deliveries and ${answeredBeforeKill} answered puts; attempts in flight then (uncertain): ${uncertain.size}; delivery ids seen twice: ${twice.length}`,
  );
});

test.run();
