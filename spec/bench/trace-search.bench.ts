// The portal's event-trace search over 100,000 traced events: a bus's events in a one-hour window of
// receipt, newest first, one page of 20 (what the bus's Event Trace tab asks), through the portal's API
// proxy as the browser calls it (session cookie, x-portal header), against its baseline: the same proxy
// answering one trace by its event id (a lookup by primary key). The traces are written straight into the
// trace read model's collection through the real read store, 5,000 documents per transaction.
import { createHash } from 'node:crypto';
import { TRACE_COLLECTION, TRACE_PROJECTION, type TraceDoc } from '../../projections/bridge/trace.projection.ts';
import { readCheckpoint } from '../../projections/core/checkpoints.ts';
import { physicalName } from '../../projections/core/projection.ts';
import { printRow, quantile, timed, warmUp, warmUpText } from './report.ts';

const EVENTS = Number(process.env.BENCH_TRACE_EVENTS ?? 100_000);
const SEARCHES = Number(process.env.BENCH_TRACE_SEARCHES ?? 400);
const BATCH = 5000;
const START_MS = Date.parse('2026-01-01T00:00:00.000Z');
/** one event a second: 100,000 span about 28 hours */
const STEP_MS = 1000;
const HOUR_MS = 3_600_000;
const TRACE = '/api/platform/platform-pub/eventBridge/admin/v1/trace/events';

const keyOf = (i: number) => createHash('sha256').update(`bench-trace-${i}`).digest('hex');

/** a delivered event's trace: nine in ten on bus `orders`, the others on `billing` */
function traceDoc(tenant: string, i: number): TraceDoc {
  const at = (ms: number) => new Date(START_MS + i * STEP_MS + ms).toISOString();
  const bus = i % 10 === 0 ? 'billing' : 'orders';
  const key = keyOf(i);
  const event = {
    id: `order-${i}`,
    source: 'shop:checkout',
    type: 'shop:Order:Placed',
    subject: 'orders:eu',
    time: '2026-01-01T00:00:00',
    eventBusName: bus,
    data: { orderId: i, amount: i % 500, region: 'eu' },
  };
  const step = { ruleId: 'to-crm', targetId: 1, ruleTenant: tenant, deliveryId: key };
  return {
    id: key,
    stream: `published-${tenant}.${key}`,
    tenant,
    bus,
    busTenant: tenant,
    busKind: 'custom',
    source: event.source,
    type: event.type,
    subject: event.subject,
    sourceEventId: event.id,
    time: event.time,
    receivedAt: at(0),
    publisher: { clientId: 'bench', sub: 'bench', tenant },
    event,
    filtering: {
      routedAt: at(3),
      evaluated: ['to-crm'],
      matched: [
        {
          ruleId: 'to-crm',
          ruleTenant: tenant,
          platform: false,
          targets: [{ targetId: 1, typeId: 3, conversion: { ok: true, missing: [] } }],
        },
      ],
      skipped: [],
      applied: 'tenant',
      matcherVersion: 'bench',
    },
    delivery: [
      { ...step, attemptId: '', at: at(5), status: 'scheduled', attempt: 0, typeId: 3 },
      { ...step, attemptId: `a-${i}`, at: at(6), status: 'started', attempt: 1 },
      { ...step, attemptId: `a-${i}`, at: at(30), status: 'succeeded', attempt: 1, httpStatus: 200 },
    ],
  } as unknown as TraceDoc;
}

export async function traceSearchBench(): Promise<void> {
  const { ADMIN, portalApi, portalSignIn, startPortalPlatform } = await import('../http/portal/portal-harness.ts');
  const p = await startPortalPlatform({ services: ['identity', 'bridge', 'portal'] });
  try {
    const { readStore } = p.platform.stores;
    const generation = (await readCheckpoint(readStore, TRACE_PROJECTION))?.generation ?? 1;
    const name = physicalName(TRACE_PROJECTION, TRACE_COLLECTION, generation);
    const seeded = await timed(async () => {
      for (let from = 0; from < EVENTS; from += BATCH) {
        await readStore.transaction(async (tx) => {
          const traces = tx.collection<TraceDoc>(name);
          for (let i = from; i < Math.min(EVENTS, from + BATCH); i++) await traces.upsert(traceDoc(ADMIN.tenant, i));
        });
      }
    });
    const { jar } = await portalSignIn(p.base);
    const get = async (path: string) => {
      const r = await portalApi(p.base, jar, path);
      if (r.status !== 200) throw new Error(`${path} answered ${r.status}: ${await r.text()}`);
      return (await r.json()) as { items?: unknown[] };
    };
    // a window of an hour, anywhere in the seeded day: a full page of 20 on bus orders
    let n = 0;
    const spanMs = EVENTS * STEP_MS - HOUR_MS;
    const search = async () => {
      const from = START_MS + ((n++ * 7919 * STEP_MS) % Math.max(spanMs, STEP_MS));
      const q = new URLSearchParams({
        bus: 'orders',
        from: new Date(from).toISOString(),
        to: new Date(from + HOUR_MS).toISOString(),
        limit: '20',
      });
      const page = await get(`${TRACE}?${q}`);
      if ((page.items?.length ?? 0) !== 20) throw new Error(`a search found ${page.items?.length} traces, not 20`);
    };
    const lookup = async () => {
      await get(`${TRACE}/${keyOf((n++ * 7919) % EVENTS)}`);
    };
    // the two alternate, so that whatever else the machine does weighs on both alike
    await warmUp(async () => {
      await search();
      await lookup();
    });
    const searches: number[] = [];
    const lookups: number[] = [];
    for (let i = 0; i < SEARCHES; i++) {
      searches.push((await timed(search)).ms);
      lookups.push((await timed(lookup)).ms);
    }
    const p95 = (xs: number[]) =>
      quantile(
        xs.sort((a, b) => a - b),
        0.95,
      );
    const searchP95 = p95(searches);
    const lookupP95 = p95(lookups);
    const round = (x: number) => Math.round(x * 100) / 100;
    printRow({
      name: 'portal: p95 trace search over 100,000 events',
      figure: round(searchP95),
      unit: 'ms',
      baseline: { name: 'one trace by its event id, the same way', figure: round(lookupP95) },
      setup: `${EVENTS.toLocaleString('en-US')} traced events (one a second, 9 in 10 on the bus searched) written into the trace read model (SQLite, ${Math.round(seeded.ms / 1000)} s); GET …/trace/events?bus&from&to&limit=20 (a one-hour window, a full page) through the portal's proxy with a session, ${SEARCHES} of each alternating with the baseline's, ${warmUpText('of the same calls')}`,
    });
  } finally {
    await p.stop();
  }
}
