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
import { physicalName } from '../../../projections/core/projection.ts';
import { rebuildProjection } from '../../../projections/core/rebuild.ts';
import { eventually } from '../../core/eventually.ts';
import { ledgerProjection } from '../../core/fixtures/ledger.projection.ts';

const TOTAL = 50_000;
const STREAMS = 1_000;
const worker = path.join(path.dirname(new URL(import.meta.url).pathname), 'fixtures', 'ledger-worker.ts');
const dir = mkdtempSync(path.join(tmpdir(), 'crash-'));

test.after(() => rmSync(dir, { recursive: true, force: true }));

function runWorker(mode?: string) {
  const child = spawn(process.execPath, ['--import', 'tsx', worker, dir, ...(mode ? [mode] : [])], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  child.stdout.on('data', (d) => (out += d));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, exited, output: () => out };
}

test(`SIGKILL while projecting ${TOTAL} events, restart: identical to a rebuild from scratch`, async () => {
  const eventStore = createSqliteEventStore({ file: path.join(dir, 'events.sqlite') });
  const readStore = createSqliteReadStore({ file: path.join(dir, 'read-models.sqlite') });
  // 50 events per account, appended round-robin 10 at a time so streams interleave in the log
  const perAppend = 10;
  for (let round = 0; round < TOTAL / STREAMS / perAppend; round++) {
    for (let s = 0; s < STREAMS; s++) {
      const stream = `account-t1.a${s}`;
      const events: EventEnvelope[] = [];
      for (let i = 0; i < perAppend; i++) {
        const rev = round * perAppend + i;
        const command = `seed-${s}-${rev}`;
        events.push({
          id: eventIdFor(command, 0),
          type: rev === 0 ? 'AccountOpened' : rev % 7 === 0 ? 'MoneyWithdrawn' : 'MoneyDeposited',
          data: rev === 0 ? { owner: `owner${s % 37}`, openedAt: '2026-01-01T00:00:00Z' } : { amount: (rev % 13) + 1 },
          metadata: { tenant: 't1', occurredAt: '2026-01-01T00:00:00Z', schemaVersion: 1, commandId: command },
        });
      }
      await eventStore.append(stream, events, round === 0 ? 'no_stream' : round * perAppend - 1);
    }
  }
  const head = await eventStore.headPosition();
  assert.is(positionValue(head), TOTAL);

  // first run: kill it hard somewhere in the middle
  const first = runWorker();
  const killedAt = await eventually(
    async () => {
      const cp = await readCheckpoint(readStore, 'test.ledger').catch(() => null);
      const at = cp ? positionValue(cp.position) : 0;
      return at >= TOTAL * 0.2 ? at : undefined;
    },
    { what: 'the first run past a fifth of the log', timeoutMs: 120_000 },
  );
  first.child.kill('SIGKILL');
  await first.exited;
  const afterKill = await readCheckpoint(readStore, 'test.ledger');
  assert.ok(afterKill && positionValue(afterKill.position) < TOTAL, `killed too late: ${afterKill?.position}`);
  assert.ok(killedAt > 0);

  // second run: resume from the checkpoint to the end
  const second = runWorker('--until-caught-up');
  assert.is(await second.exited, 0);
  assert.match(second.output(), /caught-up/);
  const live = await readCheckpoint(readStore, 'test.ledger');
  assert.is(live!.position, head);

  // compare with a from-scratch rebuild (a new generation beside the live one)
  const projection = ledgerProjection();
  const rebuilt = await rebuildProjection({ eventStore, readStore, projection, clock: systemClock });
  assert.is(rebuilt.generation, live!.generation + 1);
  for (const collection of ['balances', 'entries']) {
    const a = await readStore
      .collection(physicalName('test.ledger', collection, live!.generation))
      .find({}, { sort: { id: 1 } });
    const b = await readStore
      .collection(physicalName('test.ledger', collection, rebuilt.generation))
      .find({}, { sort: { id: 1 } });
    assert.is(a.length, collection === 'entries' ? TOTAL : STREAMS, `${collection} count`);
    assert.equal(a, b, `${collection} differs from the rebuild`);
  }
  const totalEvents = (
    await readStore.collection(physicalName('test.ledger', 'balances', live!.generation)).find({})
  ).reduce((n, d) => n + (d.events as number), 0);
  assert.is(totalEvents, TOTAL, 'every event counted exactly once');
  await eventStore.close();
  await readStore.close();
});

test.run();
