// Helper process of rebuild.spec.ts (not a spec): `platform rebuild` of the audit records projection with a
// new index (version 2), as a deployment runs it beside the serving processes, on the stores of DATA_DIR
// (argv[2]). It prints `PAGE` after the first page and then waits for a line `GO` on stdin before applying
// the rest, so the spec can query the live generation while the rebuild is provably under way (holding a
// read-store write transaction, even). Prints `DONE <json>` at the end.
import { createInterface } from 'node:readline';
import { PassThrough } from 'node:stream';
import { rebuildWithProgress } from '../../../infra/cli/rebuild.ts';
import { systemClock } from '../../../infra/core/clock.port.ts';
import { openStores } from '../../../infra/stores.ts';
import { recordsProjection } from '../../../projections/audit/records.projection.ts';

const dataDir = process.argv[2]!;
const stores = await openStores({ dataDir, esdbUrl: undefined, mongodbUrl: undefined, mongodbDatabase: 'platform' });
const v2 = recordsProjection({
  version: 2,
  extraIndexes: [{ name: 'by_business_code', fields: { tenant: 1, business_code: 1, ts: 1 } }],
});
let go!: () => void;
const released = new Promise<void>((resolve) => (go = resolve));
createInterface({ input: process.stdin }).on('line', (line) => {
  if (line.trim() === 'GO') go();
});
let applied = 0;
const gated = {
  ...v2,
  async apply(...args: Parameters<typeof v2.apply>) {
    applied += 1;
    if (applied === 2) {
      console.log('PAGE');
      await released;
    }
    return v2.apply(...args);
  },
};
const sink = new PassThrough();
sink.resume();
const result = await rebuildWithProgress(
  { eventStore: stores.eventStore, readStore: stores.readStore, projection: gated, clock: systemClock, pageSize: 20 },
  sink,
);
await stores.close();
console.log(`DONE ${JSON.stringify({ generation: result.generation, events: result.events })}`);
process.exit(0);
