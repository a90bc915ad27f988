// `platform rebuild`'s progress bar ends at 100 % when the rebuild completes, also when the projection's
// last event lies before the log's head (the events after it are of other categories).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { eventIdFor } from '../../../commands/core/event-id.ts';
import { rebuildWithProgress } from '../../../infra/cli/rebuild.ts';
import { systemClock } from '../../../infra/core/clock.port.ts';
import type { EventStore } from '../../../infra/core/event-store.port.ts';
import { positionValue } from '../../../infra/core/position.ts';
import type { ReadStore } from '../../../infra/core/read-store.port.ts';
import { createSqliteEventStore } from '../../../infra/sqlite/event-store.sqlite.ts';
import { createSqliteReadStore } from '../../../infra/sqlite/read-store.sqlite.ts';
import { type RebuildProgress, rebuildProjections } from '../../../projections/core/rebuild.ts';
import { ledgerProjection } from '../../core/fixtures/ledger.projection.ts';

type Ctx = { dir: string; eventStore: EventStore; readStore: ReadStore };
const test = suite<Ctx>('platform rebuild: progress', {} as Ctx);

test.before.each((ctx) => {
  ctx.dir = mkdtempSync(path.join(tmpdir(), 'rebuild-progress-'));
  ctx.eventStore = createSqliteEventStore({ file: path.join(ctx.dir, 'events.sqlite') });
  ctx.readStore = createSqliteReadStore({ file: path.join(ctx.dir, 'read-models.sqlite') });
});
test.after.each(async (ctx) => {
  await ctx.eventStore.close();
  await ctx.readStore.close();
  rmSync(ctx.dir, { recursive: true, force: true });
});

const metadata = { tenant: 't', occurredAt: '2026-01-01T00:00:00.000Z', schemaVersion: 1 };
let seq = 0;
const deposit = (store: EventStore, account: string) =>
  store.append(
    `account-t.${account}`,
    [{ id: eventIdFor(`d${++seq}`, 0), type: 'MoneyDeposited', data: { amount: 1 }, metadata }],
    'any',
  );
const noise = (store: EventStore, n: number) =>
  store.append(
    `other-t.n${++seq}`,
    Array.from({ length: n }, (_, i) => ({ id: eventIdFor(`n${seq}`, i), type: 'Noise', data: {}, metadata })),
    'no_stream',
  );

/** 60 account events, each followed by other categories' events, and 5 of those after the last one */
async function interleavedLog(store: EventStore) {
  for (let i = 0; i < 60; i++) {
    await deposit(store, `a${i % 7}`);
    if (i % 3 === 0) await noise(store, 1);
  }
  await noise(store, 5);
}

/** what the bar wrote (not a TTY: one line per render) */
const capture = () => {
  let text = '';
  const stream = new Writable({
    write(chunk, _encoding, done) {
      text += String(chunk);
      done();
    },
  });
  return {
    stream,
    lines: () =>
      text
        .split('\n')
        .map((l) => l.trim())
        .filter((l) => l !== ''),
  };
};

test('the last report of a rebuild covers the log up to its head', async ({ eventStore, readStore }) => {
  await interleavedLog(eventStore);
  const head = await eventStore.headPosition();
  const reports: RebuildProgress[] = [];
  const r = await rebuildProjections({
    eventStore,
    readStore,
    clock: systemClock,
    projections: [ledgerProjection()],
    pageSize: 8,
    onProgress: (p) => reports.push(p),
  });
  assert.is(r.events, 60);
  assert.ok(positionValue(r.position) < positionValue(head), "the projection's last event lies before the head");
  assert.ok(reports.length > 2, 'several pages');
  const last = reports[reports.length - 1]!;
  assert.is(last.position, head);
  assert.is(last.head, head);
  assert.is(last.events, 60);
});

test('the progress bar ends at its total, 100 %', async ({ eventStore, readStore }) => {
  await interleavedLog(eventStore);
  const head = positionValue(await eventStore.headPosition());
  const out = capture();
  const r = await rebuildWithProgress(
    { eventStore, readStore, clock: systemClock, projection: ledgerProjection(), pageSize: 8 },
    out.stream,
  );
  assert.is(r.events, 60);
  const last = out.lines().at(-1) ?? '';
  assert.match(last, /^test\.ledger \[[^\]]*\] 100% \| (\d+)\/(\d+) positions/);
  const [, value, total] = /(\d+)\/(\d+) positions/.exec(last)!;
  assert.is(Number(value), head);
  assert.is(Number(total), head);
});

test('an empty log: the bar ends at 100 % too', async ({ eventStore, readStore }) => {
  const out = capture();
  const r = await rebuildWithProgress(
    { eventStore, readStore, clock: systemClock, projection: ledgerProjection() },
    out.stream,
  );
  assert.is(r.events, 0);
  assert.match(out.lines().at(-1) ?? '', / 100% \| 1\/1 positions/);
});

test.run();
