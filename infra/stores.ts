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

/**
 * The embedded default keeps the log and the read models in two SQLite files under DATA_DIR, so appends
 * and projection writes do not queue behind one writer lock. ESDB_URL / MONGODB_URL switch to production.
 * The production adapters are imported only when configured: their drivers (@eventstore/db-client, mongodb)
 * cost about 50 MB of resident memory in every process that loads them.
 */
export async function openStores(config: Pick<Config, 'dataDir' | 'esdbUrl' | 'mongodbUrl' | 'mongodbDatabase'> & Partial<Pick<Config, 'sqliteCheckpointMs'>>): Promise<Stores> {
  const eventStore = config.esdbUrl
    ? (await import('./esdb/event-store.esdb.ts')).createEsdbEventStore({ connectionString: config.esdbUrl })
    : createSqliteEventStore({ file: path.join(config.dataDir, 'events.sqlite'), checkpointIntervalMs: config.sqliteCheckpointMs });
  const readStore = config.mongodbUrl
    ? (await import('./mongo/read-store.mongo.ts')).createMongoReadStore({ url: config.mongodbUrl, database: config.mongodbDatabase })
    : createSqliteReadStore({ file: path.join(config.dataDir, 'read-models.sqlite'), checkpointIntervalMs: config.sqliteCheckpointMs });
  return {
    eventStore,
    readStore,
    kinds: { eventStore: config.esdbUrl ? 'eventstoredb' : 'sqlite', readStore: config.mongodbUrl ? 'mongodb' : 'sqlite' },
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
export const openCommandStores = (config: Parameters<typeof openStores>[0]): Promise<Stores> => openStores({ ...config, sqliteCheckpointMs: 0 });
