import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { commandHandler } from '../../commands/core/command-handler.ts';
import { eventIdFor } from '../../commands/core/event-id.ts';
import type { EventEnvelope } from '../../domain/core/event.ts';
import { systemClock } from '../../infra/core/clock.port.ts';
import { START } from '../../infra/core/position.ts';
import { createSqliteEventStore } from '../../infra/sqlite/event-store.sqlite.ts';
import { registerReadStoreFunctions } from '../../infra/sqlite/read-store.functions.ts';
import { createSqliteReadStore } from '../../infra/sqlite/read-store.sqlite.ts';
import { AUTOCHECKPOINT } from '../../infra/sqlite/wal-checkpointer.ts';
import { rebuildProjection } from '../../projections/core/rebuild.ts';
import { accountDecider } from '../core/fixtures/account.decider.ts';
import { ledgerProjection } from '../core/fixtures/ledger.projection.ts';
import { perSecond, printRow, printSection, timed } from './report.ts';

const COMMANDS = Number(process.env.BENCH_COMMANDS ?? 20_000);
const BATCHED = Number(process.env.BENCH_BATCHED ?? 200_000);
const REBUILD_EVENTS = Number(process.env.BENCH_REBUILD_EVENTS ?? 1_000_000);

const meta = { tenant: 't', occurredAt: '2026-11-22T00:00:00.000Z', schemaVersion: 1 };
const event = (command: string, i: number, type: string, data: unknown): EventEnvelope => ({
  id: eventIdFor(command, i),
  type,
  data,
  metadata: { ...meta, commandId: command },
});

/**
 * The storage floor of the ledger rebuild: its writes alone. Copies the DDL of the rebuilt collections' tables
 * and indexes into a fresh file and writes what the rebuild's unit of work writes (read-store.unit-of-work.ts:
 * each document once per transaction, in the order first touched): per transaction of 5,000 events, the
 * balance of every account the events touch (its final document: the same size), then every entry, with
 * one prepared statement each.
 */
function storageFloor(rebuiltFile: string, floorFile: string): { events: number; ms: number } {
  const src = new Database(rebuiltFile, { readonly: true });
  const tables = src
    .prepare(
      `SELECT name, sql FROM sqlite_master WHERE type = 'table' AND (name LIKE '%ledger%entries%' OR name LIKE '%ledger%balances%')`,
    )
    .all() as Array<{ name: string; sql: string }>;
  // the rebuilt generation: the fuller of the collection's tables (a rebuild leaves the empty old one beside it)
  const count = (name: string) => src.prepare(`SELECT count(*) FROM "${name}"`).pluck().get() as number;
  const fullest = (part: string) =>
    tables.filter((t) => t.name.includes(part)).sort((a, b) => count(b.name) - count(a.name))[0]!;
  const entriesTable = fullest('entries');
  const balancesTable = fullest('balances');
  const indexes = src
    .prepare(`SELECT sql FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL AND tbl_name IN (?, ?)`)
    .pluck()
    .all(entriesTable.name, balancesTable.name) as string[];
  const entries = src.prepare(`SELECT id, doc FROM "${entriesTable.name}" ORDER BY rowid`).all() as Array<{
    id: string;
    doc: string;
  }>;
  const balances = new Map(
    (src.prepare(`SELECT id, doc FROM "${balancesTable.name}"`).all() as Array<{ id: string; doc: string }>).map(
      (r) => [r.id, r.doc],
    ),
  );
  src.close();
  const db = new Database(floorFile);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma(AUTOCHECKPOINT); // as the read store sets it
  registerReadStoreFunctions(db);
  for (const t of [entriesTable, balancesTable]) db.exec(t.sql);
  for (const sql of indexes) db.exec(sql);
  const upsert = (table: string) =>
    db.prepare(`INSERT INTO "${table}" (id, doc) VALUES (?, ?) ON CONFLICT (id) DO UPDATE SET doc = excluded.doc`);
  const putEntry = upsert(entriesTable.name);
  const putBalance = upsert(balancesTable.name);
  const streamOf = (doc: string) => (JSON.parse(doc) as { stream: string }).stream;
  const work = entries.map((e) => ({ ...e, stream: streamOf(e.doc) }));
  const t0 = performance.now();
  for (let i = 0; i < work.length; i += 5000) {
    const page = work.slice(i, i + 5000);
    db.exec('BEGIN IMMEDIATE');
    for (const stream of new Set(page.map((e) => e.stream))) putBalance.run(stream, balances.get(stream)!);
    for (const e of page) putEntry.run(e.id, e.doc);
    db.exec('COMMIT');
  }
  const ms = performance.now() - t0;
  db.close();
  return { events: work.length, ms };
}

/** Appends `total` account events, `perAppend` at a time, round-robin over `streams` accounts. */
export async function seedAccounts(file: string, total: number, perAppend = 100, streams = 1000) {
  const store = createSqliteEventStore({ file });
  const rounds = Math.ceil(total / perAppend);
  const revisions = new Map<number, number>();
  for (let r = 0; r < rounds; r++) {
    const s = r % streams;
    const rev = revisions.get(s) ?? -1;
    const events = Array.from({ length: perAppend }, (_, i) =>
      rev + i + 1 === 0
        ? event(`seed-${r}`, i, 'AccountOpened', { owner: `owner-${s}`, openedAt: meta.occurredAt })
        : event(`seed-${r}`, i, 'MoneyDeposited', {
            amount: (i % 13) + 1,
            note: 'a deposit with a little text to give it a realistic size',
          }),
    );
    await store.append(`account-t.a${s}`, events, rev < 0 ? 'no_stream' : rev);
    revisions.set(s, rev + perAppend);
  }
  await store.close();
}

export async function coreBench(): Promise<void> {
  printSection('core');
  const dir = mkdtempSync(path.join(tmpdir(), 'bench-core-'));
  try {
    // 1. one event per command through the command handler, against a raw insert with the same settings
    const raw = new Database(path.join(dir, 'raw.sqlite'));
    raw.pragma('journal_mode = WAL');
    raw.pragma('synchronous = NORMAL');
    // the store's layout (infra/sqlite/event-store.layout.ts): a stream is numbered by its first event's
    // position (here known in advance: the file is new) and its first event is also indexed by name
    raw.exec(`CREATE TABLE events (position INTEGER PRIMARY KEY AUTOINCREMENT, id TEXT NOT NULL UNIQUE, sid INTEGER NOT NULL, stream TEXT NOT NULL,
      revision INTEGER NOT NULL, category TEXT NOT NULL, type TEXT NOT NULL, data TEXT NOT NULL, metadata TEXT NOT NULL,
      UNIQUE (sid, revision)); CREATE UNIQUE INDEX events_stream_start ON events (stream) WHERE revision = 0;
      CREATE INDEX events_category_position ON events (category, position);`);
    const insert = raw.prepare(
      'INSERT INTO events (id, sid, stream, revision, category, type, data, metadata) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
    );
    const rawRun = await timed(() => {
      for (let i = 0; i < COMMANDS; i++) {
        const e = event(`raw-${i}`, 0, 'AccountOpened', { owner: 'o', openedAt: meta.occurredAt });
        insert.run(
          e.id,
          i + 1,
          `account-t.r${i}`,
          0,
          'account',
          e.type,
          JSON.stringify(e.data),
          JSON.stringify(e.metadata),
        );
      }
    });
    raw.close();

    const store = createSqliteEventStore({ file: path.join(dir, 'commands.sqlite') });
    const handle = commandHandler(store, accountDecider);
    const handled = await timed(async () => {
      for (let i = 0; i < COMMANDS; i++) {
        await handle({
          stream: `account-t.c${i}`,
          command: { type: 'OpenAccount', owner: 'o', at: meta.occurredAt },
          commandId: `cmd-${i}`,
          now: meta.occurredAt,
          context: { tenant: 't' },
        });
      }
    });
    printRow({
      name: 'command handler, 1 event per command',
      figure: perSecond(COMMANDS, handled.ms),
      unit: 'events/s',
      baseline: { name: 'raw better-sqlite3 insert, one per transaction', figure: perSecond(COMMANDS, rawRun.ms) },
      setup: `${COMMANDS} commands on new streams (read stream, decide, append no_stream); WAL, synchronous=NORMAL on both`,
    });

    // 2. batched appends
    await store.close();
    const batchedFile = path.join(dir, 'batched.sqlite');
    const batched = await timed(() => seedAccounts(batchedFile, BATCHED, 100, 1000));
    printRow({
      name: 'batched appends',
      figure: perSecond(BATCHED, batched.ms),
      unit: 'events/s',
      baseline: { name: 'command handler, 1 event per command', figure: perSecond(COMMANDS, handled.ms) },
      setup: `${BATCHED} events, 100 per append with an exact expected revision, 1000 streams`,
    });

    // 3. readAll, and 4. a projection rebuild against it
    const reader = createSqliteEventStore({ file: batchedFile });
    const readAll = await timed(async () => {
      let after = START;
      let n = 0;
      while (true) {
        const page = await reader.readAll({ after, limit: 2000 });
        if (page.length === 0) return n;
        n += page.length;
        after = page[page.length - 1]!.position;
      }
    });
    printRow({
      name: 'readAll',
      figure: perSecond(readAll.result, readAll.ms),
      unit: 'events/s',
      setup: `${readAll.result} events in pages of 2000, JSON parsed`,
    });
    const readStore = createSqliteReadStore({ file: path.join(dir, 'read.sqlite') });
    const rebuilt = await timed(() =>
      rebuildProjection({ eventStore: reader, readStore, projection: ledgerProjection(), clock: systemClock }),
    );
    printRow({
      name: 'projection rebuild into the embedded read store',
      figure: perSecond(rebuilt.result.events, rebuilt.ms),
      unit: 'events/s',
      baseline: { name: 'raw readAll', figure: perSecond(readAll.result, readAll.ms) },
      setup: `${rebuilt.result.events} events, test ledger projection (per event: get + upsert of a balance, upsert of an entry), pages of 5,000, one transaction per page`,
      goal: { of: 'ratio', op: '>=', value: 0.3 },
    });
    const floor = storageFloor(path.join(dir, 'read.sqlite'), path.join(dir, 'floor.sqlite'));
    printRow({
      name: 'projection rebuild, beside the storage floor of its writes',
      figure: perSecond(rebuilt.result.events, rebuilt.ms),
      unit: 'events/s',
      baseline: {
        name: 'raw better-sqlite3: the same documents written with the same tables and indexes, nothing read or computed',
        figure: perSecond(floor.events, floor.ms),
      },
      setup: `the floor replays the rebuild's writes as its unit of work issues them (per transaction of 5,000 events: each touched balance once, every entry; pre-serialized) into a fresh file with the DDL the read store created (id TEXT PRIMARY KEY per collection, one json_extract expression index each) and the read store's pragmas (WAL, synchronous=NORMAL, checkpoint every 10,000 pages); its ratio shows what is left for the rebuild's own work (the projection's code, the unit of work, serializing) to gain`,
    });
    // A rebuild on one thread reads a page, then writes it: reading the log and writing the floor one after
    // the other is the most it can reach, whatever its own work costs.
    const readRate = perSecond(readAll.result, readAll.ms);
    const floorRate = perSecond(floor.events, floor.ms);
    printRow({
      name: 'projection rebuild ceiling on one thread: raw readAll, then the storage floor, one after the other',
      figure: 1 / (1 / readRate + 1 / floorRate),
      unit: 'events/s',
      baseline: { name: 'raw readAll', figure: readRate },
      setup: `computed from the two figures above (1 / (1/readAll + 1/floor)): a rebuild with no cost of its own beyond reading the log and writing its documents, both on the one thread better-sqlite3 runs on (the rebuild reads with the projection's category filter; every event of this log is in that category)`,
    });
    await reader.close();
    await readStore.close();

    // 5. a rebuild of a large log in its own process, to read that process's peak RSS
    const bigFile = path.join(dir, 'big.sqlite');
    const seeded = await timed(() => seedAccounts(bigFile, REBUILD_EVENTS, 500, 5000));
    const child = spawnSync(
      process.execPath,
      ['--import', 'tsx', path.join(import.meta.dirname, 'rebuild-rss.ts'), bigFile, path.join(dir, 'big-read.sqlite')],
      {
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    );
    const out = JSON.parse(child.stdout.trim().split('\n').pop() ?? '{}') as {
      events: number;
      ms: number;
      maxRssMb: number;
    };
    const rebuiltBig = `${REBUILD_EVENTS.toLocaleString('en-US')} events`;
    printRow({
      name: `rebuild of ${rebuiltBig}`,
      figure: perSecond(out.events, out.ms),
      unit: 'events/s',
      setup: `seeded in ${(seeded.ms / 1000).toFixed(1)} s; rebuilt in a separate process (its stores opened as 'platform rebuild' opens them: no WAL checkpoint threads) in ${(out.ms / 1000).toFixed(1)} s`,
    });
    printRow({
      name: `rebuild of ${rebuiltBig}: peak RSS of its process`,
      figure: out.maxRssMb,
      unit: 'MB',
      setup: 'the maximum resident set size of the rebuild process above (process.resourceUsage().maxRSS)',
      goal: { of: 'figure', op: '<', value: 300 },
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
