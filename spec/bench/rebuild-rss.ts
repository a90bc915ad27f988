// Rebuilds the ledger projection over an existing log and prints {events, ms, maxRssMb} as JSON:
// run as its own process so the peak RSS is the rebuild's alone.
import { systemClock } from '../../infra/core/clock.port.ts';
import { createSqliteEventStore } from '../../infra/sqlite/event-store.sqlite.ts';
import { createSqliteReadStore } from '../../infra/sqlite/read-store.sqlite.ts';
import { rebuildProjection } from '../../projections/core/rebuild.ts';
import { ledgerProjection } from '../core/fixtures/ledger.projection.ts';

const [eventsFile, readFile] = process.argv.slice(2);
const eventStore = createSqliteEventStore({ file: eventsFile! });
const readStore = createSqliteReadStore({ file: readFile! });
const started = performance.now();
const r = await rebuildProjection({ eventStore, readStore, projection: ledgerProjection(), clock: systemClock });
const ms = performance.now() - started;
await eventStore.close();
await readStore.close();
console.log(JSON.stringify({ events: r.events, ms, maxRssMb: process.resourceUsage().maxRSS / 1024 }));
