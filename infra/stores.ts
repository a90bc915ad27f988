import { existsSync } from 'node:fs';
import path from 'node:path';
import type { Config } from './core/config.ts';
import type { EventStore } from './core/event-store.port.ts';
import type { ReadStore } from './core/read-store.port.ts';
import { createSqliteEventStore } from './sqlite/event-store.sqlite.ts';
import { createSqliteReadStore } from './sqlite/read-store.sqlite.ts';

export type Stores = {
  eventStore: EventStore;
  readStore: ReadStore;
  /** which adapters are in use, for the start banner and /health/ready */
  kinds: { eventStore: 'sqlite' | 'eventstoredb'; readStore: 'sqlite' | 'mongodb' };
  close(): Promise<void>;
};

/** The embedded event log's file: the store a platform's first start creates in DATA_DIR. */
const eventLogFile = (dataDir: string) => path.join(dataDir, 'events.sqlite');

/**
 * The embedded default keeps the log and the read models in two SQLite files under DATA_DIR, so appends
 * and projection writes do not queue behind one writer lock. ESDB_URL / MONGODB_URL switch to production.
 * The production adapters are imported only when configured: their drivers (@eventstore/db-client, mongodb)
 * cost about 50 MB of resident memory in every process that loads them.
 */
export async function openStores(
  config: Pick<Config, 'dataDir' | 'esdbUrl' | 'mongodbUrl' | 'mongodbDatabase'> &
    Partial<Pick<Config, 'sqliteCheckpointMs'>>,
): Promise<Stores> {
  const eventStore = config.esdbUrl
    ? (await import('./esdb/event-store.esdb.ts')).createEsdbEventStore({ connectionString: config.esdbUrl })
    : createSqliteEventStore({ file: eventLogFile(config.dataDir), checkpointIntervalMs: config.sqliteCheckpointMs });
  const readStore = config.mongodbUrl
    ? (await import('./mongo/read-store.mongo.ts')).createMongoReadStore({
        url: config.mongodbUrl,
        database: config.mongodbDatabase,
      })
    : createSqliteReadStore({
        file: path.join(config.dataDir, 'read-models.sqlite'),
        checkpointIntervalMs: config.sqliteCheckpointMs,
      });
  return {
    eventStore,
    readStore,
    kinds: {
      eventStore: config.esdbUrl ? 'eventstoredb' : 'sqlite',
      readStore: config.mongodbUrl ? 'mongodb' : 'sqlite',
    },
    async close() {
      await Promise.allSettled([eventStore.close(), readStore.close()]);
    },
  };
}

/**
 * The stores of a one-shot command (`platform rebuild`, `projections`, `replay`, `keys`, `workflow`, hub
 * housekeeping): without the WAL checkpoint threads. The command's writes end with it, SQLite's own
 * checkpoint and the last close copy its log, and a thread is a V8 instance of its own (measured: two of
 * them add about 35 MB to a large rebuild's peak RSS).
 */
export async function openCommandStores(config: Parameters<typeof openStores>[0]): Promise<Stores> {
  // The log is the store (read models are derived: a rebuild creates read-models.sqlite anew). Without it,
  // opening would create an empty ./data and report "0 event(s)" for a mistyped DATA_DIR.
  if (!config.esdbUrl && !existsSync(eventLogFile(config.dataDir))) throw new NoStoreError(config.dataDir);
  return openStores({ ...config, sqliteCheckpointMs: 0 });
}

/**
 * A one-shot command found no event log in DATA_DIR (nor ESDB_URL): nothing was opened or created. The CLI
 * exits 2, as for bad configuration.
 */
export class NoStoreError extends Error {
  constructor(readonly dataDir: string) {
    super(
      `no store in DATA_DIR ${dataDir} (no events.sqlite there)\n` +
        'Start the platform first (platform start, or npm start, with this DATA_DIR): its first start creates the store. ' +
        'Or set DATA_DIR to the folder of a platform that has started (ESDB_URL: its EventStoreDB log).',
    );
    this.name = 'NoStoreError';
  }
}
