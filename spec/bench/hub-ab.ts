// A diagnostic, not part of `npm run bench`: what a hub send costs the all-in-one process, warm, for two
// variants side by side. Two platforms (spec/http/hub/fixtures/hub-platform.ts, each on its own data
// directory) post to one receiver; each is warmed with HUB_AB_WARM sends, then rounds of HUB_AB_PER sends
// (16 keep-alive loops, until every webhook arrived) alternate between them, A B B A A B …, so that the
// machine's drift falls on both. Per round: sends/s and the server's CPU per send (/proc utime + stime, every
// thread of the process). The comparison: the median, over the rounds, of B's round against A's round next
// to it in time; a difference smaller than the rounds' spread is none.
// Variants are environment overrides, as JSON: HUB_AB_A='{}' HUB_AB_B='{"SOME_SETTING":"1"}'; a key FLAGS
// gives node flags (e.g. {"FLAGS":"--no-opt"}), a key ROOT runs that variant's platform from another checkout
// of the repository (e.g. a `git worktree` of the commit before a change, its node_modules linked).
// HUB_AB_SPLIT=1: each variant is the bench's other deployment, one API process and two worker processes
// (CPU per send summed over the three).
// Run: node --import tsx spec/bench/hub-ab.ts
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { spawnBenchServer } from './bench-server.ts';
import { sendBody, startWebhookReceiver } from './hub-load.ts';
import { cpuMicros } from './process-cpu.ts';

const WARM = Number(process.env.HUB_AB_WARM ?? 4000);
const PER = Number(process.env.HUB_AB_PER ?? 1000);
const ROUNDS = Number(process.env.HUB_AB_ROUNDS ?? 8);
const CONCURRENCY = 16;
/** the platform fixture of this checkout, or of the checkout at `root` */
const fixtureIn = (root = path.join(import.meta.dirname, '..', '..')) =>
  path.join(root, 'spec', 'http', 'hub', 'fixtures', 'hub-platform.ts');

type Round = { rate: number; cpuPerSend: number };
type Server = Awaited<ReturnType<typeof spawnBenchServer<{ url: string; token: string }>>>;
/** servers[0] takes the sends (the only one, or the API process of a split deployment) */
type Platform = { name: string; dir: string; servers: Server[] };
const SPLIT = process.env.HUB_AB_SPLIT === '1';

let seq = 0;

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const h = Math.floor(s.length / 2);
  return s.length % 2 === 1 ? s[h]! : (s[h - 1]! + s[h]!) / 2;
};

const receiver = await startWebhookReceiver();

async function round(p: Platform, sends: number): Promise<Round> {
  const { url, token } = p.servers[0]!.ready;
  const cpuNow = () => p.servers.reduce((sum, s) => sum + cpuMicros(s.pid), 0);
  const ids: string[] = [];
  let next = 0;
  const cpu0 = cpuNow();
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < sends) {
        next++;
        const id = `ab-${p.name}-${++seq}`;
        ids.push(id);
        const res = await fetch(`${url}/comm/v1/notifications/send`, {
          method: 'POST',
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
          body: sendBody(id),
        });
        const body = await res.text();
        if (res.status !== 201) throw new Error(`send answered ${res.status}: ${body}`);
      }
    }),
  );
  await receiver.arrived(ids);
  const ms = performance.now() - t0;
  return { rate: (sends * 1000) / ms, cpuPerSend: (cpuNow() - cpu0) / sends };
}

const platforms: Platform[] = [];
try {
  for (const name of ['A', 'B']) {
    const env = JSON.parse(process.env[`HUB_AB_${name}`] ?? '{}') as Record<string, string>;
    const dir = mkdtempSync(path.join(tmpdir(), `hub-ab-${name}-`));
    const servers: Server[] = [];
    for (const [i, flags] of (SPLIT ? [['--api'], ['--workers'], ['--workers']] : [[]]).entries()) {
      // worker processes fetch the platform tenant token from the API process's identity provider
      const tokenUrl = i === 0 ? ['--setup'] : [`--token-url=${servers[0]!.ready.url}/cas/oidc/token`];
      servers.push(
        await spawnBenchServer<{ url: string; token: string }>(
          [fixtureIn(env.ROOT), dir, receiver.url, ...flags, ...tokenUrl],
          `hub platform ${name}`,
          {
            env: { ...process.env, ...env },
            ...(env.FLAGS !== undefined && { nodeFlags: env.FLAGS.split(' ') }),
          },
        ),
      );
    }
    platforms.push({ name, dir, servers });
  }
  for (const p of platforms) await round(p, WARM);
  const rounds = new Map<string, Round[]>(platforms.map((p) => [p.name, []]));
  for (let i = 0; i < ROUNDS; i++)
    for (const p of i % 2 === 0 ? platforms : [...platforms].reverse()) rounds.get(p.name)!.push(await round(p, PER));
  console.log(
    `hub A/B, ${SPLIT ? 'one API and two worker processes' : 'all in one process'}: ${WARM} warm-up sends each, then ${ROUNDS} rounds of ${PER} alternated (${CONCURRENCY} loops)`,
  );
  for (const [name, rs] of rounds) {
    const each = rs.map((r) => `${r.rate.toFixed(0)}/s ${r.cpuPerSend.toFixed(0)} µs`).join(', ');
    console.log(
      `${name}: median ${median(rs.map((r) => r.rate)).toFixed(0)} sends/s, ${median(rs.map((r) => r.cpuPerSend)).toFixed(0)} µs of CPU per send | rounds: ${each}`,
    );
  }
  // each round beside the other variant's round next to it in time (A B, B A, …): the machine's drift cancels
  const [a, b] = [rounds.get('A')!, rounds.get('B')!];
  const paired = (f: (r: Round) => number) => median(a.map((r, i) => f(b[i]!) / f(r)));
  console.log(
    `B against A, the median of the ${ROUNDS} paired rounds: sends/s ×${paired((r) => r.rate).toFixed(3)}, CPU per send ×${paired((r) => r.cpuPerSend).toFixed(3)}`,
  );
} finally {
  for (const p of platforms) {
    for (const s of [...p.servers].reverse()) await s.stop();
    rmSync(p.dir, { recursive: true, force: true });
  }
  await receiver.close();
}
