import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { eventIdFor } from '../../../commands/core/event-id.ts';
import type { EventEnvelope } from '../../../domain/core/event.ts';
import { systemClock } from '../../../infra/core/clock.port.ts';
import { positionValue } from '../../../infra/core/position.ts';
import { createSqliteEventStore } from '../../../infra/sqlite/event-store.sqlite.ts';
import { createSqliteReadStore } from '../../../infra/sqlite/read-store.sqlite.ts';
import { readCheckpoint } from '../../../projections/core/checkpoints.ts';
import { type Projection, physicalName } from '../../../projections/core/projection.ts';
import { rebuildProjections } from '../../../projections/core/rebuild.ts';
import { streamsProjection } from '../../../projections/core/streams.projection.ts';
import { ledgerProjection } from '../../core/fixtures/ledger.projection.ts';
import { ownersProjection } from '../../core/fixtures/owners.projection.ts';

// A process killed in the middle of a grouped page (several projections) leaves every read model equal
// to a from-scratch rebuild. The worker runs three projections as one group on its log reader while
// this process appends; it is SIGKILLed while applying live pages, restarted, and compared.
const TOTAL = 20_000;
const STREAMS = 400;
const worker = path.join(path.dirname(new URL(import.meta.url).pathname), 'fixtures', 'group-worker.ts');
const dir = mkdtempSync(path.join(tmpdir(), 'group-crash-'));
const projections: Projection[] = [ledgerProjection(), ownersProjection(), streamsProjection];

test.after(() => rmSync(dir, { recursive: true, force: true }));

function runWorker(mode?: string) {
  const child = spawn(process.execPath, ['--import', 'tsx', worker, dir, ...(mode ? [mode] : [])], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  const joined = new Promise<void>((resolve) =>
    child.stdout.on('data', (d) => ((out += d), out.includes('joined') && resolve())),
  );
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, joined, exited, output: () => out };
}

test(`SIGKILL while a group of ${projections.length} projections applies live pages: every read model equals a rebuild`, async () => {
  const eventStore = createSqliteEventStore({ file: path.join(dir, 'events.sqlite') });
  const readStore = createSqliteReadStore({ file: path.join(dir, 'read-models.sqlite') });
  const first = runWorker();
  await first.joined; // on the shared tail: from here on it applies pages as a group

  const perAppend = 5;
  let appended = 0;
  let killed = false;
  const cps = () => Promise.all(projections.map((p) => readCheckpoint(readStore, p.name)));
  for (let round = 0; round < TOTAL / STREAMS / perAppend; round++) {
    for (let s = 0; s < STREAMS; s++) {
      const events: EventEnvelope[] = [];
      for (let i = 0; i < perAppend; i++) {
        const rev = round * perAppend + i;
        const command = `g-${s}-${rev}`;
        events.push({
          id: eventIdFor(command, 0),
          type: rev === 0 ? 'AccountOpened' : rev % 7 === 0 ? 'MoneyWithdrawn' : 'MoneyDeposited',
          data: rev === 0 ? { owner: `owner${s % 23}` } : { amount: (rev % 13) + 1 },
          metadata: { tenant: 't1', occurredAt: '2026-01-01T00:00:00Z', schemaVersion: 1, commandId: command },
        });
      }
      await eventStore.append(`account-t1.a${s}`, events, round === 0 ? 'no_stream' : round * perAppend - 1);
      appended += perAppend;
      if (!killed && appended % 500 === 0) {
        const at = (await cps())[0];
        if (at && positionValue(at.position) >= TOTAL * 0.25) {
          first.child.kill('SIGKILL');
          killed = true;
          await first.exited;
          // the group commits its members together: after a kill their checkpoints agree
          const after = await cps();
          assert.ok(
            after.every((cp) => cp?.position === after[0]!.position),
            `checkpoints differ after the kill: ${after.map((c) => c?.position).join(' ')}`,
          );
        }
      }
    }
  }
  assert.ok(killed, 'the worker was killed while applying');
  const head = await eventStore.headPosition();
  assert.is(positionValue(head), TOTAL);

  const second = runWorker('--until-caught-up');
  assert.is(await second.exited, 0);
  assert.match(second.output(), /caught-up/);
  const live = await cps();
  for (const cp of live) assert.is(cp!.position, head);

  const rebuilt = await rebuildProjections({ eventStore, readStore, projections, clock: systemClock });
  for (const [i, projection] of projections.entries()) {
    const generation = live[i]!.generation;
    assert.is(rebuilt.generations[projection.name], generation + 1);
    for (const collection of Object.keys(projection.collections)) {
      const a = await readStore
        .collection(physicalName(projection.name, collection, generation))
        .find({}, { sort: { id: 1 } });
      const b = await readStore
        .collection(physicalName(projection.name, collection, generation + 1))
        .find({}, { sort: { id: 1 } });
      assert.ok(a.length > 0, `${projection.name}.${collection} is empty`);
      assert.equal(a, b, `${projection.name}.${collection} differs from the rebuild`);
    }
  }
  const balances = await readStore.collection(physicalName('test.ledger', 'balances', live[0]!.generation)).find({});
  assert.is(
    balances.reduce((n, d) => n + (d.events as number), 0),
    TOTAL,
    'every event counted exactly once',
  );
  await eventStore.close();
  await readStore.close();
});

test.run();
