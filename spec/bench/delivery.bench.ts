// `npm run bench` (section "delivery"): the event bridge end to end — putEvent over HTTP, routing,
// delivery scheduling, the delivery worker and the preset HTTP client target posting to an HTTP receiver
// on loopback — beside a direct HTTP POST loop to the same receiver (the floor: what the receiver and
// loopback cost without the bridge). Two figures per deployment:
// - throughput: events/s with BENCH_DELIVERY_CONCURRENCY (16) keep-alive putEvent loops, from the first
//   put to the last arrival at the receiver, in BENCH_DELIVERY_ROUNDS (4) rounds of BENCH_DELIVERY_EVENTS
//   (1,000) alternated with rounds of the direct POST loop (end-to-end.drive.ts): medians compared;
// - latency: publish-to-receive p50/p99 at a steady BENCH_DELIVERY_RATE (50 events/s, open loop, below
//   saturation: under saturation latency is only queueing), from the start of the putEvent request to the
//   delivery's arrival at the receiver.
// The platform runs in its own process(es) (spec/http/bridge/fixtures/delivery-platform.ts, the crash
// test's fixture: a tenant, a bus and a rule sending every event to the receiver); this process generates
// the load and hosts the receiver, so both timestamps come from one clock. Two deployments: all in one
// process (npm start), and an API process beside two worker processes, where the receiver also counts the
// deliveries that reached it more than once (the goal: none; workers claim with leases). A reference row
// first: a relay that stores nothing (relay-server.ts), what HTTP in and out alone cost a Node.js process.
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
import { alternated, drive, evenRounds, type Load } from './end-to-end.drive.ts';
import type { Goal } from './goal.ts';
import { cpuMicros } from './process-cpu.ts';
import { printRow, printSection, warmUp, warmUpText } from './report.ts';

/** events per saturated round (BENCH_DELIVERY_EVENTS) */
const EVENTS = Number(process.env.BENCH_DELIVERY_EVENTS ?? 1000);
/** saturated rounds of each side (BENCH_DELIVERY_ROUNDS, default 4, made even), alternated with the direct loop's */
const ROUNDS = evenRounds(Number(process.env.BENCH_DELIVERY_ROUNDS ?? 4));
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
  const saturated = { kind: 'closed', concurrency: CONCURRENCY } as const;
  await warmUp(() => direct(WARMUP_ROUND, saturated));
  await direct(RATE * PACED_WARMUP_SECONDS, { kind: 'paced', perSecond: RATE });
  const baseLatency = await direct(PACED, { kind: 'paced', perSecond: RATE });

  /**
   * `send`'s saturated rounds alternated with the direct loop's, both sides warmed first a round of each in
   * turn, and the CPU time `cpu` (µs, the sender's server processes) counts per event of its rounds only
   */
  const againstDirect = async (send: (i: number) => Promise<string>, cpu: () => number) => {
    await warmUp(async () => {
      await direct(WARMUP_ROUND, saturated);
      await drive(WARMUP_ROUND, saturated, send, arrived);
    });
    let spent = 0;
    const rounds = await alternated(
      ROUNDS,
      () => direct(EVENTS, saturated),
      async () => {
        const before = cpu();
        const run = await drive(EVENTS, saturated, send, arrived);
        spent += cpu() - before;
        return run;
      },
    );
    return { rounds, cpuPerEvent: spent / (EVENTS * ROUNDS) };
  };

  // ---- the ceiling: a relay that stores nothing, HTTP in and HTTP out (relay-server.ts) ----
  const relay = await spawnBenchServer<{ url: string }>(
    [path.join(import.meta.dirname, 'relay-server.ts'), receiverUrl],
    'relay',
  );
  let relayed: Awaited<ReturnType<typeof againstDirect>>;
  try {
    const forward = async () => {
      const res = await fetch(`${relay.ready.url}/put`, {
        method: 'POST',
        headers: { authorization: 'Bearer relay', 'content-type': 'application/json' },
        body: event(),
      });
      return ((await res.json()) as { eventId: string }).eventId;
    };
    relayed = await againstDirect(forward, () => cpuMicros(relay.pid));
  } finally {
    await relay.stop();
  }

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
      // the platform's CPU time per delivered event: all its processes
      const { rounds, cpuPerEvent } = await againstDirect(put, () =>
        processes.reduce((sum, p) => sum + cpuMicros(p.pid), 0),
      );
      // the steady pace first for a while unmeasured: the read models catch up on the saturated run's events
      await drive(RATE * PACED_WARMUP_SECONDS, { kind: 'paced', perSecond: RATE }, put, arrived);
      const latency = await drive(PACED, { kind: 'paced', perSecond: RATE }, put, arrived);
      // a repeat would come shortly after its first arrival: the lease makes it at least a lease away
      return {
        rate: rounds.ours,
        base: rounds.direct,
        latency,
        cpuPerEvent,
        twice: repeats([...rounds.ours.ids, ...latency.ids]),
      };
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
  const rates = (xs: number[]) => xs.map((x) => Math.round(x).toLocaleString('en-US')).join(', ');
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
      baseline: { name: 'direct POST loop to the same receiver, rounds alternated with ours', figure: m.base.rate },
      setup: `medians of ${ROUNDS} rounds of ${EVENTS.toLocaleString('en-US')} events and ${ROUNDS} of ${EVENTS.toLocaleString('en-US')} direct POSTs, alternated (direct first, then ours first, …) ${warmUpText(`in rounds of ${WARMUP_ROUND} of each side in turn`)}, ${CONCURRENCY} concurrent keep-alive loops, first put to last arrival; rounds: ours ${rates(m.rate.rates)}, direct ${rates(m.base.rates)}; ${where}; ${common}. Saturated, publish-to-receive is p50 ${m.rate.p50.toFixed(0)} ms, p99 ${m.rate.p99.toFixed(0)} ms (queueing); the platform's CPU time per delivered event ${m.cpuPerEvent.toFixed(0)} µs. Deliveries that reached the receiver twice: ${m.twice}`,
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
  printRow({
    name: 'reference: a bare express relay that stores nothing, POST → HTTP receiver, end to end',
    figure: relayed.rounds.ours.rate,
    unit: 'events/s',
    baseline: {
      name: 'direct POST loop to the same receiver, rounds alternated with the relay',
      figure: relayed.rounds.direct.rate,
    },
    setup: `the ceiling for the rows below: express with its JSON body parser answers an id at once and forwards the body to the receiver over a keep-alive undici pool (spec/bench/relay-server.ts), in its own process; medians of ${ROUNDS} rounds of ${EVENTS.toLocaleString('en-US')} alternated with ${ROUNDS} direct rounds, ${CONCURRENCY} concurrent keep-alive loops; rounds: relay ${rates(relayed.rounds.ours.rates)}, direct ${rates(relayed.rounds.direct.rates)}; the relay's CPU time per event ${relayed.cpuPerEvent.toFixed(0)} µs`,
  });
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
