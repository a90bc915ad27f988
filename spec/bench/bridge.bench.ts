// `npm run bench` (section "bridge"): putEvent over HTTP — requests/s and p50/p99 latency at a fixed
// concurrency — beside a bare express handler doing JSON parsing only, on the same machine in the same
// run. Each server runs in its own process (spec/bench/bridge-server.ts), one at a time; this process only
// generates load. Two deployments of ours: an API process (workers elsewhere) and everything in one.
// Run alone: node --import tsx -e "import('./spec/bench/bridge.bench.ts').then(m => m.bridgeBench())"
import path from 'node:path';
import { spawnBenchServer } from './bench-server.ts';
import { closedLoops, perSecond, printRow, printSection, quantile, warmUp, warmUpText } from './report.ts';

const CONCURRENCY = Number(process.env.BENCH_BRIDGE_CONCURRENCY ?? 16);
const SECONDS = Number(process.env.BENCH_BRIDGE_SECONDS ?? 5);
const PATH = '/api/platform/platform-pub/eventBridge/event/v1/putEvent';

type Ready = { url: string; token: string };

const startServer = (kind: 'platform-api' | 'platform-all' | 'bare') =>
  spawnBenchServer<Ready>([path.join(import.meta.dirname, 'bridge-server.ts'), kind], `${kind} server`);

let seq = 0;
/** a CityLots-shaped event (~550 bytes of JSON), each with a fresh id */
const event = () => {
  const n = ++seq;
  return JSON.stringify({
    id: `bench-${process.pid}-${n}`,
    source: 'citylots:ingest',
    type: 'citylots:Lot:Updated',
    subject: 'citylots:ingest:sf',
    time: '2026-03-01T10:00:00',
    dataContentType: 'application/json',
    eventBusName: 'orders',
    data: {
      type: 'Feature',
      properties: {
        MAPBLKLOT: `${1000 + (n % 9000)}${String(n % 100).padStart(3, '0')}`,
        BLKLOT: `${1000 + (n % 9000)}001`,
        BLOCK_NUM: String(1000 + (n % 9000)),
        LOT_NUM: '001',
        FROM_ST: String(n % 500),
        TO_ST: String((n % 500) + 10),
        STREET: 'OCTAVIA',
        ST_TYPE: 'ST',
        ODD_EVEN: n % 2 ? 'O' : 'E',
      },
      geometry: {
        type: 'Polygon',
        coordinates: [
          [
            [-122.42, 37.8, 0],
            [-122.421, 37.801, 0],
            [-122.422, 37.8, 0],
            [-122.42, 37.8, 0],
          ],
        ],
      },
    },
  });
};

/** CONCURRENCY keep-alive loops for SECONDS; every answer must be 200 */
async function load(url: string, token: string): Promise<{ rate: number; p50: number; p99: number; count: number }> {
  const one = async () => {
    const started = performance.now();
    const res = await fetch(`${url}${PATH}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: event(),
    });
    const body = await res.text();
    if (res.status !== 200) throw new Error(`putEvent answered ${res.status}: ${body}`);
    return performance.now() - started;
  };
  await warmUp(() => closedLoops(CONCURRENCY, 1, one));
  const start = performance.now();
  const latencies = await closedLoops(CONCURRENCY, SECONDS, one);
  const ms = performance.now() - start;
  latencies.sort((a, b) => a - b);
  return {
    rate: perSecond(latencies.length, ms),
    p50: quantile(latencies, 0.5),
    p99: quantile(latencies, 0.99),
    count: latencies.length,
  };
}

export async function bridgeBench(): Promise<void> {
  printSection('bridge putEvent');
  // one server at a time: the machine's cores go to the server under load and the load generator
  const measure = async (kind: 'platform-api' | 'platform-all' | 'bare') => {
    const server = await startServer(kind);
    try {
      return await load(server.ready.url, server.ready.token);
    } finally {
      await server.stop();
    }
  };
  const b = await measure('bare');
  const api = await measure('platform-api');
  const all = await measure('platform-all');
  const common = `${CONCURRENCY} concurrent keep-alive loops for ${SECONDS} s ${warmUpText()}, ~550-byte CityLots-shaped events, the server in its own process. Ours: bearer token verified (RS256, revocation list), event validated, bus read from its stream, platform-source check (catalog read model), one append with no_stream (SQLite WAL). Baseline: express.json() and a handler answering the same shape`;
  const base = (figure: number) => ({ name: 'bare express JSON handler', figure });
  printRow({
    name: 'bridge: putEvent over HTTP, API process (workers elsewhere)',
    figure: api.rate,
    unit: 'requests/s',
    baseline: base(b.rate),
    setup: `${common}; ${api.count} and ${b.count} requests`,
    goal: { of: 'ratio', op: '>=', value: 0.7 },
  });
  printRow({
    name: 'bridge: putEvent p50 latency, API process',
    figure: api.p50,
    unit: 'ms',
    baseline: base(b.p50),
    setup: `same run, concurrency ${CONCURRENCY}`,
  });
  printRow({
    name: 'bridge: putEvent p99 latency, API process',
    figure: api.p99,
    unit: 'ms',
    baseline: base(b.p99),
    setup: `same run, concurrency ${CONCURRENCY}`,
  });
  printRow({
    name: 'bridge: putEvent over HTTP, all in one process (npm start)',
    figure: all.rate,
    unit: 'requests/s',
    baseline: base(b.rate),
    setup: `as above, with every projection and the router worker in the server process: each event is also routed (an EventRouted append) and projected (trace, stream catalog) while the load runs, the warm-up's events too where the workers have not caught up with them (the process is saturated: its figure includes that backlog's share); ${all.count} requests`,
    goal: { of: 'ratio', op: '>=', value: 0.5 },
  });
  printRow({
    name: 'bridge: putEvent p50 latency, all in one process',
    figure: all.p50,
    unit: 'ms',
    baseline: base(b.p50),
    setup: `same run, concurrency ${CONCURRENCY}`,
  });
  printRow({
    name: 'bridge: putEvent p99 latency, all in one process',
    figure: all.p99,
    unit: 'ms',
    baseline: base(b.p99),
    setup: `same run, concurrency ${CONCURRENCY}`,
  });
}

if (import.meta.url === `file://${process.argv[1]}`) await bridgeBench();
