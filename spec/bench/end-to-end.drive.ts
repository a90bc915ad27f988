import { median, perSecond, quantile } from './report.ts';

// The end-to-end benchmarks' load (hub.bench.ts, delivery.bench.ts): requests driven closed-loop or at a
// steady pace, each timed from its start to its arrival at the receiver, and saturated rounds of ours
// alternated with rounds of the direct POST loop, so that both sides see the same moments of a noisy machine.

export type Load = { kind: 'closed'; concurrency: number } | { kind: 'paced'; perSecond: number };
/** one run's figures, every send-to-arrival latency of it, and the ids the receiver saw */
export type Run = { rate: number; p50: number; p99: number; latencies: number[]; ids: string[] };
/** the saturated figure of several rounds: the median round's rate, latencies over all rounds */
export type Rounds = { rate: number; rates: number[]; p50: number; p99: number; ids: string[] };

/** `send(i)` answers the id the receiver will see for request i; `count` of them under `load` */
export async function drive(
  count: number,
  load: Load,
  send: (i: number) => Promise<string>,
  arrived: (ids: string[]) => Promise<Map<string, number>>,
): Promise<Run> {
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
      const wait = t0 + (i * 1000) / load.perSecond - performance.now();
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
    latencies,
    ids,
  };
}

/** a round count made even (at least 2), so that each side goes first as often as second */
export const evenRounds = (asked: number) => 2 * Math.max(1, Math.ceil((Math.floor(asked) || 4) / 2));

/**
 * `rounds` saturated rounds of each side, alternated direct, ours, ours, direct, direct, ours … (each side
 * first as often as second): the medians of each side's rates, and latencies over all of a side's rounds.
 */
export async function alternated(
  rounds: number,
  direct: () => Promise<Run>,
  ours: () => Promise<Run>,
): Promise<{ ours: Rounds; direct: Rounds }> {
  const runs = { ours: [] as Run[], direct: [] as Run[] };
  for (let r = 0; r < rounds; r++) {
    const order = r % 2 === 0 ? (['direct', 'ours'] as const) : (['ours', 'direct'] as const);
    for (const side of order) runs[side].push(await (side === 'direct' ? direct() : ours()));
  }
  const summary = (rs: Run[]): Rounds => {
    const all = rs.flatMap((r) => r.latencies).sort((a, b) => a - b);
    return {
      rate: median(rs.map((r) => r.rate)),
      rates: rs.map((r) => r.rate),
      p50: quantile(all, 0.5),
      p99: quantile(all, 0.99),
      ids: rs.flatMap((r) => r.ids),
    };
  };
  return { ours: summary(runs.ours), direct: summary(runs.direct) };
}
