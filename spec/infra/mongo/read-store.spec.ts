import { randomUUID } from 'node:crypto';
import { createMongoReadStore } from '../../../infra/mongo/read-store.mongo.ts';
import { readStoreContract } from '../../core/read-store.contract.ts';

/*
 * Needs a MongoDB replica set (transactions), e.g.
 *   docker run -d -p 27017:27017 mongo:8 --replSet rs0 && docker exec <id> mongosh --eval 'rs.initiate()'
 *   MONGODB_URL='mongodb://127.0.0.1:27017/?directConnection=true' npm test
 * Every test gets a database of its own, dropped afterwards.
 */
const url = process.env.MONGODB_URL;

if (!url) {
  console.log('SKIPPED: read store contract on MongoDB (set MONGODB_URL to run)');
} else {
  readStoreContract(
    'mongodb',
    async () => {
      const store = createMongoReadStore({ url, database: `read_store_spec_${randomUUID().slice(0, 8)}` });
      return {
        store,
        async cleanup() {
          for (const name of await store.listCollections()) await store.dropCollection(name);
          await store.close();
        },
      };
    },
    // MongoDB cannot undo a part of a transaction: a failed savepoint fails the whole transaction
    { partialRollback: false },
  );
}
