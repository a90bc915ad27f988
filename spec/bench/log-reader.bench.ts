// `npm run bench` (section "log"): what the log costs per appended event when one process has 5 or 30
// consumers (projections, reactors): the process's one log reader (infra/core/log-reader.ts) against one
// reader per consumer, in the same run. Appends come in bursts of concurrent writers, as
// requests do; the figure is log queries (pages read) per appended event, and pages per burst.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eventIdFor } from '../../commands/core/event-id.ts';
import type { EventStore } from '../../infra/core/event-store.port.ts';
import type { LogConsumer } from '../../infra/core/log-consumer.ts';
import { createLogReader } from '../../infra/core/log-reader.ts';
import { START } from '../../infra/core/position.ts';
import { createSqliteEventStore } from '../../infra/sqlite/event-store.sqlite.ts';
import { printRow, printSection } from './report.ts';

const BURSTS = Number(process.env.BENCH_LOG_BURSTS ?? 40);
const PER_BURST = Number(process.env.BENCH_LOG_PER_BURST ?? 50);
const meta = { tenant: 't', occurredAt: '2026-11-23T00:00:00.000Z', schemaVersion: 1 };

/** a consumer doing a little work per event (as a projection would), counting what it saw */
function consumer(name: string): LogConsumer & { seen: () => number } {
  let seen = 0;
  let position = START;
  return {
    name,
    filter: {},
    seen: () => seen,
    start: async () => position,
    async handle(page) {
      for (const e of page.events) if (e.position > position) seen += JSON.stringify(e.data).length > 0 ? 1 : 0;
      position = page.position;
      return position;
    },
  };
}

/** counts the pages read from the store (one query each) */
function counting(store: EventStore) {
  let pages = 0;
  const counted: EventStore = {
    ...store,
    append: (...a) => store.append(...a),
    readAll: async (o) => (pages++, store.readAll(o)),
    async *subscribePages(o) {
      for await (const page of store.subscribePages(o)) {
        pages++;
        yield page;
      }
    },
    headPosition: () => store.headPosition(),
  };
  return { counted, pages: () => pages };
}

async function measure(consumers: number, shared: boolean): Promise<{ perEvent: number; perBurst: number }> {
  const dir = mkdtempSync(path.join(tmpdir(), 'bench-log-'));
  const store = createSqliteEventStore({ file: path.join(dir, 'events.sqlite') });
  const { counted, pages } = counting(store);
  const list = Array.from({ length: consumers }, (_, i) => consumer(`c${i}`));
  // shared: one reader for all; else a reader (a subscription) per consumer
  const readers = shared
    ? [createLogReader({ eventStore: counted, consumers: list })]
    : list.map((c) => createLogReader({ eventStore: counted, consumers: [c] }));
  for (const r of readers) r.start();
  for (const r of readers) await r.reached(await store.headPosition());
  const before = pages();
  let n = 0;
  for (let b = 0; b < BURSTS; b++) {
    await Promise.all(
      Array.from({ length: PER_BURST }, () => {
        const id = `e${++n}`;
        return store.append(
          `thing-t.${id}`,
          [{ id: eventIdFor(id, 0), type: 'ThingHappened', data: { n }, metadata: meta }],
          'no_stream',
        );
      }),
    );
    const head = await store.headPosition();
    for (const r of readers) await r.reached(head);
  }
  const read = pages() - before;
  for (const r of readers) await r.stop();
  await store.close();
  rmSync(dir, { recursive: true, force: true });
  if (list.some((c) => c.seen() !== n)) throw new Error('a consumer missed events');
  return { perEvent: read / n, perBurst: read / BURSTS };
}

export async function logReaderBench(): Promise<void> {
  printSection('log reader');
  const setup = `${BURSTS} bursts of ${PER_BURST} concurrent appends (one event each) on the SQLite store, each burst waited for; consumers parse every event`;
  const results: Record<string, { perEvent: number; perBurst: number }> = {};
  for (const n of [5, 30]) {
    results[`shared${n}`] = await measure(n, true);
    results[`own${n}`] = await measure(n, false);
    printRow({
      name: `log queries per appended event, ${n} consumers on the process's one log reader`,
      figure: results[`shared${n}`]!.perEvent,
      unit: 'queries/event',
      baseline: { name: 'one reader per consumer', figure: results[`own${n}`]!.perEvent },
      setup: `${setup}; ${results[`shared${n}`]!.perBurst.toFixed(2)} pages per burst (one reader per consumer: ${results[`own${n}`]!.perBurst.toFixed(2)})`,
    });
  }
  printRow({
    name: 'log queries per appended event: 30 consumers against 5, one log reader',
    figure: results.shared30!.perEvent,
    unit: 'queries/event',
    baseline: { name: '5 consumers', figure: results.shared5!.perEvent },
    setup: `${setup}; the same runs as above`,
    goal: { of: 'ratio', op: '<=', value: 1, text: 'ratio ≤ 1 (30 consumers cost no more queries than 5)' },
  });
  printRow({
    name: 'log pages read per burst, 30 consumers on one log reader',
    figure: results.shared30!.perBurst,
    unit: 'pages/burst',
    setup: `${setup}; the 30-consumer run above`,
    goal: { of: 'figure', op: '<=', value: 1 },
  });
}

if (import.meta.url === `file://${process.argv[1]}`) await logReaderBench();
