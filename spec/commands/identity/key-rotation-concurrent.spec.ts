// Two processes rotating the signing keys at the same moment (two key rings on one event log, as two
// API processes of a scaled-out deployment): each generates a key and retires what the new key replaces.
// Exactly one of the new keys must survive and sign once it activates, whatever order the steps
// interleave in; neither rotation may retire the other's newer key, or no key would sign at all.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createKeyRing } from '../../../commands/identity/signing-key.ring.ts';
import { manualClock } from '../../../infra/core/clock.port.ts';
import type { EventStore } from '../../../infra/core/event-store.port.ts';
import { createSqliteEventStore } from '../../../infra/sqlite/event-store.sqlite.ts';

const SECRET = 'concurrent-rotation-secret-0123456789';

for (const delaySeconds of [0, 300]) {
  test(`two rotations at once (${delaySeconds === 0 ? 'now' : 'after the publish delay'}): one new key survives and signs`, async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'key-rotation-'));
    const eventStore = createSqliteEventStore({ file: path.join(dir, 'events.sqlite') });
    try {
      const clock = manualClock(new Date('2026-05-01T00:00:00Z'));
      // the worst interleaving, forced: neither rotation goes on after generating its key until both have,
      // so each reads the other's new key before it retires what it replaces
      let generated = 0;
      let bothGenerated: () => void = () => undefined;
      const barrier = new Promise<void>((resolve) => {
        bothGenerated = resolve;
      });
      let rotating = false;
      const store: EventStore = Object.create(eventStore);
      store.append = async (stream, events, expected) => {
        const r = await eventStore.append(stream, events, expected);
        if (rotating && events.some((e) => e.type === 'KeyGenerated')) {
          if (++generated === 2) bothGenerated();
          await barrier;
        }
        return r;
      };
      const a = createKeyRing({ eventStore: store, clock, secret: SECRET });
      const b = createKeyRing({ eventStore: store, clock, secret: SECRET });
      await a.ensureKey();
      const first = (await a.signingKey()).kid;
      rotating = true;
      const [ra, rb] = await Promise.all([a.rotate({ delaySeconds }), b.rotate({ delaySeconds })]);
      assert.is(generated, 2, 'both rotations generated a key');
      assert.is.not(ra.kid, rb.kid);
      clock.advance(delaySeconds * 1000 + 1000);
      const keys = await a.keys();
      const fresh = keys.filter((k) => k.kid === ra.kid || k.kid === rb.kid);
      const surviving = fresh.filter((k) => k.retiresAt === undefined);
      assert.is(surviving.length, 1, JSON.stringify(keys, null, 2));
      assert.ok(
        keys.find((k) => k.kid === first)?.retiresAt !== undefined,
        'the key both rotations replaced is retired',
      );
      await a.reload();
      await b.reload();
      assert.is((await a.signingKey()).kid, surviving[0]!.kid);
      assert.is((await b.signingKey()).kid, surviving[0]!.kid, 'both processes sign with it');
    } finally {
      await eventStore.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
}

test.run();
