import { createEsdbEventStore } from '../../../infra/esdb/event-store.esdb.ts';
import { eventStoreContract } from '../../core/event-store.contract.ts';

// Needs a running server, e.g. ESDB_URL=esdb://localhost:2113?tls=false. The server keeps its data, so the
// contract names every category and stream with a random per-run suffix and reads $all from the head
// position taken at the start of each test.
const url = process.env.ESDB_URL;

if (!url) {
  console.log('SKIPPED: event store contract on EventStoreDB (set ESDB_URL to run)');
} else {
  eventStoreContract('event store contract on EventStoreDB', async () => {
    const store = createEsdbEventStore({ connectionString: url });
    return {
      store,
      // fails the subscriptions' gRPC streams on the client side, as a dropped connection does
      interrupt: () => store.interruptSubscriptions(),
      cleanup: () => store.close(),
    };
  });
}
