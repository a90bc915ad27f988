import type Database from 'better-sqlite3';
import { setBounded } from '../core/bounded.ts';

/**
 * The SQLite log's tables, and the statements that find a stream's events.
 *
 * `position` is the rowid, so the global log is a primary-key range scan. AUTOINCREMENT (not a plain rowid)
 * guarantees a position is never handed out twice, even after the newest rows were deleted. Writers hold
 * SQLite's single write lock for the whole append (BEGIN IMMEDIATE), so positions become visible in order: a
 * reader never sees position n+1 committed while n is still pending, which is what lets subscriptions resume
 * with a plain `position > ?`.
 *
 * A stream is numbered by the position of its first event (`sid`), and its events are indexed by (number,
 * revision); only a stream's first event (revision 0) is also indexed by name (a partial unique index), which
 * is how a name finds its number and how a second "first event" of a name is refused. Stream names are often
 * hashes (a notification's is derived from its RequestId), so an index on the name takes each insert on a
 * page of its own: indexed by (name, revision), every event of such a stream dirtied one more index page to
 * write at its commit and copy at the next checkpoint (the hub's three events per send in three commits:
 * docs/decisions/0004-numbered-stream-layout.md). By number, a stream's later events go where the newest
 * streams are. The price: a stream's first event takes two index entries where it took one.
 *
 * Files written before streams were numbered (`legacy`: events indexed by (stream, revision)) keep their
 * layout and are read and appended as they were.
 */
const SCHEMA = `
CREATE TABLE IF NOT EXISTS events (
  position INTEGER PRIMARY KEY AUTOINCREMENT,
  id       TEXT    NOT NULL UNIQUE,
  sid      INTEGER NOT NULL,
  stream   TEXT    NOT NULL,
  revision INTEGER NOT NULL,
  category TEXT    NOT NULL,
  type     TEXT    NOT NULL,
  data     TEXT    NOT NULL,
  metadata TEXT    NOT NULL,
  UNIQUE (sid, revision)
);
CREATE UNIQUE INDEX IF NOT EXISTS events_stream_start ON events (stream) WHERE revision = 0;
CREATE INDEX IF NOT EXISTS events_category_position ON events (category, position);
`;

export type EventRow = {
  position: number;
  id: string;
  stream: string;
  revision: number;
  type: string;
  data: string;
  metadata: string;
};

export const COLUMNS = 'position, id, stream, revision, type, data, metadata';

/** a stream's place in the log: its number (undefined in a legacy file, or before its first event) */
export type StreamKey = { sid: number | undefined; revision: number | undefined };

export type LogLayout = {
  /** the stream's number and last revision (both undefined: no such stream) */
  head(stream: string): StreamKey;
  /** appends one event; `sid` from head(), or undefined for a new stream, which gets its number here */
  insert(
    sid: number | undefined,
    row: {
      id: string;
      stream: string;
      revision: number;
      category: string;
      type: string;
      data: string;
      metadata: string;
    },
  ): { position: number; sid: number | undefined };
  positionAt(stream: string, revision: number): number | undefined;
  forwards(stream: string, from: number, limit: number): EventRow[];
  backwards(stream: string, to: number, limit: number): EventRow[];
  /** the transaction that inserted streams committed: their numbers can be remembered */
  committed(): void;
  /** it rolled back: the numbers it handed out may go to other streams */
  rolledBack(): void;
};

/** how many stream numbers are remembered (the least recently learned are forgotten first) */
const KNOWN_STREAMS = 10_000;

/** creates the tables of a new file, or finds the legacy layout of an old one */
export function openLogLayout(db: Database.Database): LogLayout {
  const eventsTable =
    db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'events'").get() !== undefined;
  const legacy =
    eventsTable &&
    !(db.prepare("SELECT name FROM pragma_table_info('events')").pluck().all() as string[]).includes('sid');
  if (!legacy) db.exec(SCHEMA);
  // The current revision is max() with an equality on the (key, revision) index's prefix: one seek to the
  // stream's last entry, constant time whatever the stream's length. Reads of a numbered file find the number
  // through the name index (a scalar subquery, evaluated once), then seek (number, revision).
  const where = legacy ? 'stream = ?' : 'sid = (SELECT sid FROM events WHERE stream = ? AND revision = 0)';
  const positionAt = db
    .prepare<[string, number], number>(`SELECT position FROM events WHERE ${where} AND revision = ?`)
    .pluck();
  const forwards = db.prepare<[string, number, number], EventRow>(
    `SELECT ${COLUMNS} FROM events WHERE ${where} AND revision >= ? ORDER BY revision LIMIT ?`,
  );
  const backwards = db.prepare<[string, number, number], EventRow>(
    `SELECT ${COLUMNS} FROM events WHERE ${where} AND revision <= ? ORDER BY revision DESC LIMIT ?`,
  );
  const common = {
    positionAt: (stream: string, revision: number) => positionAt.get(stream, revision),
    forwards: (stream: string, from: number, limit: number) => forwards.all(stream, from, limit),
    backwards: (stream: string, to: number, limit: number) => backwards.all(stream, to, limit),
  };

  if (legacy) {
    const current = db.prepare<[string], number | null>('SELECT max(revision) FROM events WHERE stream = ?').pluck();
    const insert = db.prepare<[string, string, number, string, string, string, string]>(
      'INSERT INTO events (id, stream, revision, category, type, data, metadata) VALUES (?, ?, ?, ?, ?, ?, ?)',
    );
    return {
      ...common,
      committed: () => undefined,
      rolledBack: () => undefined,
      head: (stream) => ({ sid: undefined, revision: current.get(stream) ?? undefined }),
      insert(_sid, r) {
        const result = insert.run(r.id, r.stream, r.revision, r.category, r.type, r.data, r.metadata);
        return { position: Number(result.lastInsertRowid), sid: undefined };
      },
    };
  }

  const sidOf = db.prepare<[string], number>('SELECT sid FROM events WHERE stream = ? AND revision = 0').pluck();
  const lastRevision = db.prepare<[number], number | null>('SELECT max(revision) FROM events WHERE sid = ?').pluck();
  const insert = db.prepare<[string, number, string, number, string, string, string, string]>(
    'INSERT INTO events (id, sid, stream, revision, category, type, data, metadata) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
  );
  // A new stream's first event: its number is the position it takes, computed as AUTOINCREMENT computes it (one
  // past the larger of the highest position ever handed out, sqlite_sequence, and the highest there is; both
  // one seek). One statement, its answer checked: the writer holds the write lock, nothing can take that
  // position in between.
  const insertFirst = db.prepare<[string, string, string, string, string, string], { position: number; sid: number }>(
    `INSERT INTO events (id, sid, stream, revision, category, type, data, metadata)
     VALUES (?, max(coalesce((SELECT seq FROM sqlite_sequence WHERE name = 'events'), 0), coalesce((SELECT max(position) FROM events), 0)) + 1,
             ?, 0, ?, ?, ?, ?) RETURNING position, sid`,
  );
  // A stream's number never changes once its row is committed (streams are never deleted), so the numbers
  // found are remembered (the first learned forgotten first) and an append does not ask the name index again;
  // a number handed out by a transaction that has not committed is kept aside until it does (a rollback gives
  // it back to the next new stream), and comes first: read through the name index inside the transaction,
  // the uncommitted row would be remembered as if it were committed.
  const known = new Map<string, number>();
  const pending = new Map<string, number>();
  const remember = (stream: string, sid: number) => setBounded(known, stream, sid, KNOWN_STREAMS);
  return {
    ...common,
    head(stream) {
      let sid = pending.get(stream) ?? known.get(stream);
      if (sid === undefined) {
        // a number read from the file that this connection did not hand out uncommitted is committed
        sid = sidOf.get(stream);
        if (sid !== undefined) remember(stream, sid);
      }
      return sid === undefined
        ? { sid: undefined, revision: undefined }
        : { sid, revision: lastRevision.get(sid) ?? undefined };
    },
    insert(sid, r) {
      if (sid !== undefined) {
        const result = insert.run(r.id, sid, r.stream, r.revision, r.category, r.type, r.data, r.metadata);
        return { position: Number(result.lastInsertRowid), sid };
      }
      if (r.revision !== 0)
        throw new Error(`event store: stream ${r.stream} has no number, yet its event is at revision ${r.revision}`);
      const first = insertFirst.get(r.id, r.stream, r.category, r.type, r.data, r.metadata)!;
      if (first.position !== first.sid)
        throw new Error(`event store: a new stream's first event took position ${first.position}, not ${first.sid}`);
      pending.set(r.stream, first.sid);
      return { position: first.position, sid: first.sid };
    },
    committed() {
      for (const [stream, sid] of pending) remember(stream, sid);
      pending.clear();
    },
    rolledBack() {
      pending.clear();
    },
  };
}
