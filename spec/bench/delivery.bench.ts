// `npm run bench` (section "delivery"): the event bridge end to end — putEvent over HTTP, routing,
// delivery scheduling, the delivery worker and the preset HTTP client target posting to an HTTP receiver
// on loopback — beside a direct HTTP POST loop to the same receiver (the floor: what the receiver and
// loopback cost without the bridge). Two figures per deployment:
// - throughput: events/s with BENCH_DELIVERY_CONCURRENCY (16) keep-alive putEvent loops, from the first
//   put to the last arrival at the receiver;
// - latency: publish-to-receive p50/p99 at a steady BENCH_DELIVERY_RATE (50 events/s, open loop, below
//   saturation: under saturation latency is only queueing), from the start of the putEvent request to the
//   delivery's arrival at the receiver.
// The platform runs in its own process(es) (spec/http/bridge/fixtures/delivery-platform.ts, the crash
// test's fixture: a tenant, a bus and a rule sending every event to the receiver); this process generates
// the load and hosts the receiver, so both timestamps come from one clock. Two deployments: all in one
// process (npm start), and an API process beside two worker processes, where the receiver also counts the
// deliveries that reached it more than once (the goal: none; workers claim with leases).
// Run alone: node --import tsx spec/bench/delivery.bench.ts (BENCH_CHILD_PROF=<dir>: CPU profiles).
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { deliveryIdFor } from '../../commands/bridge/delivery.scheduler.ts';
import { DEFAULT_DELIVERY_CONCURRENCY } from '../../infra/core/config.ts';
import { DEFAULT_SETTLE_MS } from '../../infra/core/log-reader.ts';
import { createArrivals } from './arrivals.ts';
import { spawnBenchServer } from './bench-server.ts';
import type { Goal } from './goal.ts';
import { cpuMicros } from './process-cpu.ts';
import { perSecond, printRow, printSection, quantile, warmUp, warmUpText } from './report.ts';

const EVENTS = Number(process.env.BENCH_DELIVERY_EVENTS ?? 2000);
/** events per warm-up round (the warm-up runs rounds for WARMUP_SECONDS) */
const WARMUP_ROUND = 200;
const CONCURRENCY = Number(process.env.BENCH_DELIVERY_CONCURRENCY ?? 16);
const RATE = Number(process.env.BENCH_DELIVERY_RATE ?? 50);
const PACED = Number(process.env.BENCH_DELIVERY_PACED_EVENTS ?? 500);
/** seconds at the steady pace before the latency is measured */
const PACED_WARMUP_SECONDS = 3;
/** BENCH_DELIVERY_ONLY=all: the all-in-one deployment alone (diagnostics) */
const ONLY_ALL = process.env.BENCH_DELIVERY_ONLY === 'all';
const PUT = '/api/platform/platform-pub/eventBridge/event/v1/putEvent';
const fixture = path.join(import.meta.dirname, '..', 'http', 'bridge', 'fixtures', 'delivery-platform.ts');

let seq = 0;
/** an order event (~300 bytes), each with a fresh id */
const event = () =>
  JSON.stringify({
    id: `bench-${process.pid}-${++seq}`,
    source: 'shop:checkout',
    type: 'shop:Order:Placed',
    subject: 'orders:eu',
    time: '2026-03-01T10:00:00',
    dataContentType: 'application/json',
    eventBusName: 'orders',
    data: {
      orderId: seq,
      amount: 120 + (seq % 50),
      region: 'eu',
      lines: [{ sku: `sku-${seq % 97}`, qty: 1 + (seq % 3) }],
    },
  });

type Load = { kind: 'closed'; concurrency: number } | { kind: 'paced'; perSecond: number };
type Figures = { rate: number; p50: number; p99: number; count: number; ids: string[] };

/** `send(i)` answers the id the receiver will see for request i; `count` of them under `load` */
async function drive(
  count: number,
  load: Load,
  send: (i: number) => Promise<string>,
  arrived: (ids: string[]) => Promise<Map<string, number>>,
): Promise<Figures> {
  const started: number[] = [];
  const ids: string[] = [];
  const t0 = performance.now();
  const one = async (i: number) => {
    started[i] = performance.now();
    ids[i] = await send(i);
  };
  if (load.kind === 'closed') {
    let next = 0;
    await Promise.all(
      Array.from({ length: load.concurrency }, async () => {
        while (next < count) await one(next++);
      }),
    );
  } else {
    const pending: Array<Promise<void>> = [];
    for (let i = 0; i < count; i++) {
      const due = t0 + (i * 1000) / load.perSecond;
      const wait = due - performance.now();
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      pending.push(one(i));
    }
    await Promise.all(pending);
  }
  const at = await arrived(ids);
  const end = Math.max(...ids.map((id) => at.get(id)!));
  const latencies = ids.map((id, i) => at.get(id)! - started[i]!).sort((a, b) => a - b);
  return {
    rate: perSecond(count, end - t0),
    p50: quantile(latencies, 0.5),
    p99: quantile(latencies, 0.99),
    count,
    ids,
  };
}

export async function deliveryBench(): Promise<void> {
  printSection('bridge delivery end to end');
  // the receiver: first arrival time per delivery id (the bridge) or per request id (the direct loop)
  const arrivals = createArrivals();
  const receiver = createServer((req, res) => {
    const id = String(req.headers['x-delivery-id'] ?? req.headers['x-request-id']);
    arrivals.note(id);
    req.resume();
    req.on('end', () => {
      res.statusCode = 200;
      res.end('{"ok":true}');
    });
  });
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
  const receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
  const { arrived, repeats } = arrivals;

  // ---- the floor: POST straight to the receiver ----
  const direct = (count: number, load: Load) =>
    drive(
      count,
      load,
      async (i) => {
        const id = `direct-${seq}-${i}`;
        const res = await fetch(`${receiverUrl}/eventbridge/receivedEvent`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-request-id': id },
          body: event(),
        });
        await res.text();
        return id;
      },
      arrived,
    );
  await warmUp(() => direct(WARMUP_ROUND, { kind: 'closed', concurrency: CONCURRENCY }));
  const baseRate = await direct(EVENTS, { kind: 'closed', concurrency: CONCURRENCY });
  await direct(RATE * PACED_WARMUP_SECONDS, { kind: 'paced', perSecond: RATE });
  const baseLatency = await direct(PACED, { kind: 'paced', perSecond: RATE });

  // ---- ours: putEvent → … → the receiver ----
  const startProcess = (dir: string, flags: string[]) =>
    spawnBenchServer<{ url: string; token: string }>([fixture, dir, receiverUrl, ...flags], 'platform');
  /** one deployment on a fresh data directory: `roles` are the processes' flags, the first one sets up */
  const measure = async (roles: string[][]) => {
    const dir = mkdtempSync(path.join(tmpdir(), 'bench-delivery-'));
    const processes: Array<Awaited<ReturnType<typeof startProcess>>> = [];
    try {
      for (const [i, flags] of roles.entries())
        processes.push(await startProcess(dir, i === 0 ? [...flags, '--setup'] : flags));
      const api = processes.find((p) => p.ready.token !== '')!.ready;
      const put = async () => {
        const res = await fetch(`${api.url}${PUT}`, {
          method: 'POST',
          headers: { authorization: `Bearer ${api.token}`, 'content-type': 'application/json' },
          body: event(),
        });
        const body = (await res.json()) as { eventId?: string };
        if (res.status !== 200 || body.eventId === undefined)
          throw new Error(`putEvent answered ${res.status}: ${JSON.stringify(body)}`);
        return deliveryIdFor(body.eventId, 'crash', 'to-receiver', 1);
      };
      await warmUp(() => drive(WARMUP_ROUND, { kind: 'closed', concurrency: CONCURRENCY }, put, arrived));
      // the platform's CPU time per delivered event (all its processes): steadier than a rate on a noisy machine
      const cpu = () => processes.reduce((sum, p) => sum + cpuMicros(p.pid), 0);
      const cpuBefore = cpu();
      const rate = await drive(EVENTS, { kind: 'closed', concurrency: CONCURRENCY }, put, arrived);
      const cpuPerEvent = (cpu() - cpuBefore) / EVENTS;
      // the steady pace first for a while unmeasured: the read models catch up on the saturated run's events
      await drive(RATE * PACED_WARMUP_SECONDS, { kind: 'paced', perSecond: RATE }, put, arrived);
      const latency = await drive(PACED, { kind: 'paced', perSecond: RATE }, put, arrived);
      // a repeat would come shortly after its first arrival: the lease makes it at least a lease away
      return { rate, latency, cpuPerEvent, twice: repeats([...rate.ids, ...latency.ids]) };
    } finally {
      for (const p of processes.reverse()) await p.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  };
  let all: Awaited<ReturnType<typeof measure>>;
  let split: Awaited<ReturnType<typeof measure>> | undefined;
  try {
    all = await measure([[]]);
    // BENCH_DELIVERY_ONLY=all: the all-in-one deployment alone (diagnostics; rows of the other are not printed)
    split = ONLY_ALL ? undefined : await measure([['--workers'], ['--workers'], ['--api']]);
  } finally {
    receiver.closeAllConnections();
    await new Promise((r) => receiver.close(r));
  }

  const common = `SQLite stores, npm start defaults (DELIVERY_CONCURRENCY ${DEFAULT_DELIVERY_CONCURRENCY}, LOG_SETTLE_MS ${DEFAULT_SETTLE_MS}); one rule, one preset HTTP client target; the receiver (in the load generator) answers 200 at once`;
  const rows = (
    label: string,
    m: Awaited<ReturnType<typeof measure>>,
    where: string,
    goals: { rate?: Goal; p99?: Goal },
  ) => {
    printRow({
      name: `bridge delivery, ${label}: putEvent → HTTP receiver, end to end`,
      figure: m.rate.rate,
      unit: 'events/s',
      baseline: { name: `direct POST loop to the same receiver`, figure: baseRate.rate },
      setup: `${EVENTS} events ${warmUpText(`in rounds of ${WARMUP_ROUND} at the same concurrency (the direct POST loop's too)`)}, ${CONCURRENCY} concurrent keep-alive loops, first put to last arrival; ${where}; ${common}. Saturated, publish-to-receive is p50 ${m.rate.p50.toFixed(0)} ms, p99 ${m.rate.p99.toFixed(0)} ms (queueing); the platform's CPU time per delivered event ${m.cpuPerEvent.toFixed(0)} µs. Deliveries that reached the receiver twice: ${m.twice}`,
      ...(goals.rate ? { goal: goals.rate } : {}),
    });
    for (const [q, ours, theirs] of [
      ['p50', m.latency.p50, baseLatency.p50],
      ['p99', m.latency.p99, baseLatency.p99],
    ] as const) {
      printRow({
        name: `bridge delivery, ${label}: publish-to-receive latency ${q} at ${RATE} events/s`,
        figure: ours,
        unit: 'ms',
        baseline: { name: `direct POST at the same pace, send to arrival`, figure: theirs },
        setup: `${PACED} events put at a steady ${RATE}/s (open loop) after ${PACED_WARMUP_SECONDS} s at that pace, from the start of the putEvent request to the delivery's arrival at the receiver`,
        ...(q === 'p99' && goals.p99 ? { goal: goals.p99 } : {}),
      });
    }
  };
  rows('all in one process', all, 'identity, bridge, every projection and worker in one process (npm start)', {
    rate: { of: 'ratio', op: '>=', value: 0.5 },
    p99: { of: 'figure', op: '<=', value: 10 },
  });
  if (split === undefined) return;
  rows(
    'API and two worker processes',
    split,
    'an API process (platform start --no-workers) beside two worker processes (--services none: projections, router and delivery worker, claiming with leases)',
    {
      rate:
        split.twice === 0
          ? { of: 'ratio', op: '>=', value: 0.5 }
          : {
              of: 'ratio',
              op: '>=',
              value: Number.POSITIVE_INFINITY,
              text: `ratio ≥ 0.5 with no delivery made twice (${split.twice} were)`,
            },
    },
  );
}

if (import.meta.url === `file://${process.argv[1]}`) await deliveryBench();
