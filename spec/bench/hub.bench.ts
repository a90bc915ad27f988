// `npm run bench` (section "hub"): the notification hub end to end — POST /comm/v1/notifications/send over
// HTTP, acceptance (one append), the dispatch projection's due item, the dispatch worker and the
// REST_WEBHOOK driver posting to a receiver on loopback (signed, with a platform tenant token) — beside a
// direct HTTP POST loop to the same receiver. Two deployments: all in one process, and one API process
// with two worker processes. Two figures each:
// - throughput: sends/s with BENCH_HUB_CONCURRENCY (16) keep-alive send loops, first send to last arrival,
//   in BENCH_HUB_ROUNDS (4) rounds of BENCH_HUB_SENDS (1,000) sends alternated with rounds of the direct POST
//   loop (direct, ours, ours, direct, direct, ours …): the medians of each side are compared, so that the
//   machine's drift during the run falls on both;
// - latency: send-to-webhook p50/p99 at a steady BENCH_HUB_RATE (50 sends/s, open loop).
// The platform runs in child processes (spec/http/hub/fixtures/hub-platform.ts); this process generates the
// load and hosts the receiver, so both timestamps come from one clock.
// Run alone: node --import tsx spec/bench/hub.bench.ts
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { spawnBenchServer } from './bench-server.ts';
import { alternated, drive, evenRounds, type Load } from './end-to-end.drive.ts';
import { sendBody, startWebhookReceiver } from './hub-load.ts';
import { printRow, printSection, warmUp, warmUpText } from './report.ts';

const SENDS = Number(process.env.BENCH_HUB_SENDS ?? 1000);
/** rounds of each side (BENCH_HUB_ROUNDS, default 4), made even so that each side goes first as often as second */
const ROUNDS = evenRounds(Number(process.env.BENCH_HUB_ROUNDS ?? 4));
/** sends per warm-up round (the warm-up runs rounds for WARMUP_SECONDS) */
const WARMUP_ROUND = 200;
const CONCURRENCY = Number(process.env.BENCH_HUB_CONCURRENCY ?? 16);
const RATE = Number(process.env.BENCH_HUB_RATE ?? 50);
const PACED = Number(process.env.BENCH_HUB_PACED ?? 500);
const fixture = path.join(import.meta.dirname, '..', 'http', 'hub', 'fixtures', 'hub-platform.ts');

let seq = 0;

export async function hubBench(): Promise<void> {
  printSection('notification hub end to end');
  const receiver = await startWebhookReceiver();
  const { arrived } = receiver;
  const receiverUrl = receiver.url;

  // ---- the floor: POST straight to the receiver, a body of the same size ----
  const direct = (count: number, load: Load) =>
    drive(
      count,
      load,
      async (i) => {
        const id = `direct-${++seq}-${i}`;
        const res = await fetch(receiverUrl, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-request-id': id },
          body: sendBody(id),
        });
        await res.text();
        return id;
      },
      arrived,
    );
  await warmUp(() => direct(WARMUP_ROUND, { kind: 'closed', concurrency: CONCURRENCY }));
  const baseLatency = await direct(PACED, { kind: 'paced', perSecond: RATE });

  // ---- ours: send → acceptance → due item → worker → webhook ----
  const measure = async (roles: string[][]) => {
    const dir = mkdtempSync(path.join(tmpdir(), 'bench-hub-'));
    const processes: Array<Awaited<ReturnType<typeof spawnBenchServer<{ url: string; token: string }>>>> = [];
    try {
      for (const [i, flags] of roles.entries()) {
        // worker processes fetch the platform tenant token from the first (API) process's identity provider
        const tokenUrl = i === 0 ? [] : [`--token-url=${processes[0]!.ready.url}/cas/oidc/token`];
        processes.push(
          await spawnBenchServer<{ url: string; token: string }>(
            [fixture, dir, receiverUrl, ...flags, ...(i === 0 ? ['--setup'] : tokenUrl)],
            'hub platform',
          ),
        );
      }
      const api = processes.find((p) => p.ready.token !== '')!.ready;
      if (process.env.BENCH_VERBOSE) console.error('platform ready', roles);
      const send = async () => {
        const id = `bench-${process.pid}-${++seq}`;
        const res = await fetch(`${api.url}/comm/v1/notifications/send`, {
          method: 'POST',
          headers: { authorization: `Bearer ${api.token}`, 'content-type': 'application/json' },
          body: sendBody(id),
        });
        const body = await res.text();
        if (res.status !== 201) throw new Error(`send answered ${res.status}: ${body}`);
        return id;
      };
      const saturated = { kind: 'closed', concurrency: CONCURRENCY } as const;
      // both sides warm, as in the measured rounds: a round of each in turn
      await warmUp(async () => {
        await direct(WARMUP_ROUND, saturated);
        await drive(WARMUP_ROUND, saturated, send, arrived);
      });
      const rounds = await alternated(
        ROUNDS,
        () => direct(SENDS, saturated),
        () => drive(SENDS, saturated, send, arrived),
      );
      const latency = await drive(PACED, { kind: 'paced', perSecond: RATE }, send, arrived);
      return { rate: rounds.ours, base: rounds.direct, latency };
    } finally {
      for (const p of processes.reverse()) await p.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  };
  let all: Awaited<ReturnType<typeof measure>>;
  let split: Awaited<ReturnType<typeof measure>>;
  try {
    all = await measure([[]]);
    split = await measure([['--api'], ['--workers'], ['--workers']]);
  } finally {
    await receiver.close();
  }

  const common =
    'SQLite stores, defaults (HUB_DISPATCH_CONCURRENCY 32, HUB_INLINE_DISPATCH_CONCURRENCY 64, LOG_GATHER_MS 25); one definition, one CONTEXT rule, a REST_WEBHOOK service (ACCEPTANCE_ONLY, signed, platform tenant token); the receiver (in the load generator) answers 202 at once';
  const rates = (xs: number[]) => xs.map((x) => Math.round(x).toLocaleString('en-US')).join(' / ');
  const rows = (label: string, m: Awaited<ReturnType<typeof measure>>, where: string) => {
    printRow({
      name: `hub, ${label}: send → webhook, end to end`,
      figure: m.rate.rate,
      unit: 'sends/s',
      baseline: { name: 'direct POST loop to the same receiver, rounds alternated with ours', figure: m.base.rate },
      setup: `medians of ${ROUNDS} rounds of ${SENDS.toLocaleString('en-US')} sends and ${ROUNDS} of ${SENDS.toLocaleString('en-US')} direct POSTs, alternated (direct first, then ours first, …) ${warmUpText(`in rounds of ${WARMUP_ROUND} of each side in turn`)}, ${CONCURRENCY} concurrent keep-alive loops, first send to last arrival; rounds: ours ${rates(m.rate.rates)}, direct ${rates(m.base.rates)}; ${where}; ${common}. Saturated, send-to-webhook is p50 ${m.rate.p50.toFixed(0)} ms, p99 ${m.rate.p99.toFixed(0)} ms (queueing)`,
      goal: { of: 'ratio', op: '>=', value: 0.3 },
    });
    for (const [q, ours, theirs] of [
      ['p50', m.latency.p50, baseLatency.p50],
      ['p99', m.latency.p99, baseLatency.p99],
    ] as const) {
      printRow({
        name: `hub, ${label}: send-to-webhook latency ${q} at ${RATE} sends/s`,
        figure: ours,
        unit: 'ms',
        baseline: { name: 'direct POST at the same pace, send to arrival', figure: theirs },
        setup: `${PACED} sends at a steady ${RATE}/s (open loop), from the start of the send request to the webhook's arrival at the receiver`,
      });
    }
  };
  rows('all in one process', all, 'identity, hub, every projection and worker in one process (npm start)');
  rows(
    'one API and two worker processes',
    split,
    'an API process (platform start --no-workers) beside two worker processes (--services none: projections and dispatch workers, claiming with leases)',
  );
}

if (import.meta.url === `file://${process.argv[1]}`) await hubBench();
