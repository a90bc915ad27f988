import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import type { EventEnvelope, RecordedEvent } from '../../domain/core/event.ts';
import { categoryOf } from '../../domain/core/stream-name.ts';
import { dependencyOf } from '../core/append-dependency.ts';
import type {
  AllFilter,
  AppendRequest,
  AppendResult,
  EventStore,
  ExpectedRevision,
  LogPage,
  ReadAllOptions,
  ReadStreamOptions,
  SubscribeAllOptions,
  SubscribePagesOptions,
} from '../core/event-store.port.ts';
import { positionValue, START, toPosition } from '../core/position.ts';
import { resilientPages } from '../core/resilient-pages.ts';
import { resilientSubscription } from '../core/resilient-subscription.ts';
import { StoreUnavailableError, WrongExpectedRevisionError } from '../core/store-errors.ts';
import { createChangeSignal } from './event-store.changes.ts';
import { createKnownHeads } from './event-store.known-heads.ts';
import { COLUMNS, type EventRow, openLogLayout } from './event-store.layout.ts';
import { createOwnCommits } from './event-store.own-commits.ts';
import { processStatements } from './process-statements.ts';
import { AUTOCHECKPOINT, backgroundCheckpoints } from './wal-checkpointer.ts';

export type SqliteEventStoreOptions = {
  /** database file; its folder is created when missing */
  file: string;
  /** the former name of probeIntervalMs (kept for callers that set it) */
  pollIntervalMs?: number;
  /**
   * how often the store probes for appends made by other processes while a page reader waits at the head
   * (`PRAGMA data_version`: one cheap call per store instance, whatever the number of readers); default 2 ms (idle, ~500 probes a second of a few µs each)
   */
  probeIntervalMs?: number;
  /**
   * > 0: a worker thread checkpoints the WAL every that many ms (wal-checkpointer.ts), so the appending thread
   * rarely has to; SQLite's own checkpoint at 10,000 pages stays. 0 or unset: SQLite's alone
   */
  checkpointIntervalMs?: number;
};

export type SqliteEventStore = EventStore & {
  /** EventStore.changes: this instance's appends and `PRAGMA data_version`'s probe */
  changes(): number;
  /** Test hook: live subscriptions' readers fail as if the connection dropped (they then resubscribe). */
  interruptSubscriptions(): void;
};

const STORE = 'sqlite';

/** a query's result, the statement counted after it ran (process-statements.ts: a probe taken before it does not cover it) */
const counted = <R>(result: R): R => {
  processStatements.ran();
  return result;
};
const DEFAULT_READ_ALL_LIMIT = 1000;
/** page size of a subscription's catch-up reads */
const SUBSCRIPTION_PAGE = 500;
const DEFAULT_PAGE = 500;
/** "no bound" for backwards reads; SQLite integers are 64-bit, positions stay far below 2^53 */
const NO_UPPER_BOUND = Number.MAX_SAFE_INTEGER;

export function createSqliteEventStore(options: SqliteEventStoreOptions): SqliteEventStore {
  const { file } = options;
  if (file !== ':memory:' && file !== '') mkdirSync(dirname(file), { recursive: true });

  // busy timeout: several processes share the file; a writer waits up to 5 s for the write lock.
  const db = new Database(file, { timeout: 5_000 });
  db.pragma('journal_mode = WAL');
  // In WAL mode NORMAL fsyncs at checkpoints, not at every commit: a committed append survives a crash
  // of the process (SIGKILL included: the WAL is in the OS page cache), only an OS crash or power loss
  // may lose the last transactions. That is the durability the SIGKILL tests exercise, at a fraction of
  // the cost of FULL.
  db.pragma('synchronous = NORMAL');
  // The id index takes random UUIDs: with SQLite's 2 MB default cache its pages miss constantly once the
  // log grows. 64 MB keeps the hot index pages in memory (a ceiling, not an allocation).
  db.pragma('cache_size = -65536');
  // Checkpoint the WAL every 10,000 pages (about 40 MB) rather than SQLite's 1,000: appends rewrite the same
  // hot index pages, so a rarer checkpoint copies each once for many commits (measured: about 8 % more appends
  // a second). The price: an OS crash or power loss may lose up to ten times as many commits (a process crash
  // loses none), one reason production runs on EventStoreDB and MongoDB. The worker thread's checkpoints
  // (checkpointIntervalMs, wal-checkpointer.ts) usually come first; this one stays as the bound on the log.
  db.pragma(AUTOCHECKPOINT);
  const layout = openLogLayout(db);
  const checkpointer = backgroundCheckpoints(file, options.checkpointIntervalMs);

  const eventById = db.prepare<[string], { stream: string; revision: number }>(
    'SELECT stream, revision FROM events WHERE id = ?',
  );
  const head = db.prepare<[], number | null>('SELECT max(position) FROM events').pluck();
  // changes by other connections (other processes) to the file; appends through `db` do not change it
  const dataVersion = db.prepare<[], number>('PRAGMA data_version').pluck();
  const probe = db.prepare<[], number>('SELECT 1').pluck();
  // one seek at the end of the category's range of the (category, position) index
  const categoryMax = db
    .prepare<[string], number | null>('SELECT max(position) FROM events WHERE category = ?')
    .pluck();
  const readAllStatements = new Map<string, Database.Statement<unknown[], EventRow>>();

  let closed = false;
  /** a second close() waits for the checkpoint thread as the first does */
  let closeDone: Promise<void> = Promise.resolve();
  const closing = new AbortController();
  let interruptEpoch = 0;

  // page readers (and the subscriptions built on them) wait on one signal: appends through this instance
  // fire it at once, one probe timer notices other processes' appends
  const changes = createChangeSignal({
    probe: () => dataVersion.get() as number,
    intervalMs: options.probeIntervalMs ?? options.pollIntervalMs ?? 2,
    localStatements: processStatements.count,
  });

  // this instance's own commits: a filtered reader at the head passes over those it does not want unread
  const own = createOwnCommits();
  // where streams end, from this instance's commits (own.commit() answers them) and its reads
  const heads = createKnownHeads();
  const commitOwn = (foreign: number) => {
    const committed = own.commit();
    // where categories end is of use only once other connections commit at all (known-heads.ts)
    if (foreign === 0) {
      for (const c of committed) heads.learn(c.stream, c.revision, foreign);
      return;
    }
    // committed under the write lock: this transaction's events end their categories
    const categories = committed.map((c) => categoryOf(c.stream));
    const ends = new Map<string, number>();
    committed.forEach((c, i) => {
      ends.set(categories[i]!, Math.max(ends.get(categories[i]!) ?? 0, c.last));
    });
    committed.forEach((c, i) => {
      heads.learn(c.stream, c.revision, foreign, ends.get(categories[i]!));
    });
  };
  /** other connections' commits seen so far, probing first (PRAGMA data_version: a few µs) */
  const foreignNow = () => {
    changes.version();
    return changes.foreign();
  };
  /**
   * where categories ended (known-heads.ts), looked up while the count of other connections' commits was
   * `at`: still their ends while that count stays, since this connection's own commits are known apart
   * (each read probes first, so a commit another process made before this one heard of it moves the count)
   */
  let categoryEnds = { at: -1, ends: new Map<string, number>() };
  const categoryEndNow = (category: string, foreign: number): number => {
    if (categoryEnds.at !== foreign) categoryEnds = { at: foreign, ends: new Map() };
    let end = categoryEnds.ends.get(category);
    if (end === undefined) {
      end = counted(categoryMax.get(category)) ?? 0;
      categoryEnds.ends.set(category, end);
    }
    return end;
  };

  const assertOpen = () => {
    if (closed) throw new StoreUnavailableError(STORE, 'the event store is closed');
  };

  /** Store-level failures (lock timeout, I/O, closed handle) become StoreUnavailableError; bugs stay as they are. */
  const mapError = (error: unknown): unknown => {
    if (error instanceof WrongExpectedRevisionError || error instanceof StoreUnavailableError) return error;
    const code = (error as { code?: unknown } | null)?.code;
    const message = error instanceof Error ? error.message : String(error);
    if (closed || !db.open) return new StoreUnavailableError(STORE, 'the event store is closed', { cause: error });
    if (typeof code === 'string' && /^SQLITE_(BUSY|LOCKED|IOERR|CANTOPEN|FULL|NOTADB|CORRUPT|PROTOCOL)/.test(code)) {
      return new StoreUnavailableError(STORE, message, { cause: error });
    }
    return error;
  };

  /**
   * The answer to an idempotent retry: the batch's ids are already stored, in order, in this stream.
   * null when the first id is unknown. An id stored elsewhere, or only part of the batch stored, is a
   * programming error (ids must be derived from the command), not a conflict to retry.
   */
  const storedBatch = (stream: string, events: EventEnvelope[]): AppendResult | null => {
    const first = events[0];
    if (!first) return null;
    const found = eventById.get(first.id);
    if (!found) return null;
    if (found.stream !== stream) {
      throw new Error(`event id ${first.id} is already stored in stream ${found.stream}, not ${stream}`);
    }
    const stored = layout.forwards(stream, found.revision, events.length);
    const last = stored[stored.length - 1];
    if (!last || stored.length !== events.length || stored.some((row, i) => row.id !== events[i]?.id)) {
      throw new Error(`stream ${stream}: the batch starting with event ${first.id} is only partly stored`);
    }
    return { revision: last.revision, position: toPosition(last.position) };
  };

  /** an append of no events: where the stream ends (-1 and START when it is missing) */
  const whereStreamIs = (stream: string): AppendResult => {
    const revision = layout.head(stream).revision;
    if (revision === undefined) return { revision: -1, position: START };
    return { revision, position: toPosition(layout.positionAt(stream, revision) ?? 0) };
  };

  /**
   * One stream's append, inside a transaction. It writes nothing before it knows the append can go ahead
   * (the revision checked, a stored batch answered again), so a conflict needs nothing undone; any other
   * failure fails the whole transaction.
   */
  const appendRows = (stream: string, events: EventEnvelope[], expected: ExpectedRevision): AppendResult => {
    const end = layout.head(stream);
    const current = end.revision;
    let sid = end.sid;
    if (!revisionMatches(expected, current)) {
      const stored = storedBatch(stream, events);
      if (stored) return stored;
      throw new WrongExpectedRevisionError(stream, expected, current ?? 'no_stream');
    }
    const category = categoryOf(stream);
    let revision = current ?? -1;
    let position = 0;
    for (let i = 0; i < events.length; i++) {
      const event = events[i]!;
      revision += 1;
      try {
        const inserted = layout.insert(sid, {
          id: event.id,
          stream,
          revision,
          category,
          type: event.type,
          data: JSON.stringify(event.data) ?? 'null',
          metadata: JSON.stringify(event.metadata),
        });
        position = inserted.position;
        sid = inserted.sid;
      } catch (error) {
        if (!isDuplicateId(error)) throw error;
        // Only a fully stored batch is a retry; throwing rolls back the rows inserted so far.
        if (i === 0) {
          const stored = storedBatch(stream, events);
          if (stored) return stored;
        }
        throw new Error(`stream ${stream}: event id ${event.id} is already stored`, { cause: error });
      }
    }
    // staged with where the stream now ends, learned once the transaction commits (never from a stored
    // batch answered again above: later appends may have followed it)
    own.stage(
      position - events.length + 1,
      position,
      stream,
      events.map((e) => e.type),
      revision,
    );
    return { revision, position: toPosition(position) };
  };
  const appendInTransaction = db.transaction(appendRows);

  /**
   * One transaction for the whole batch. An entry that conflicts has written nothing (appendRows), so the
   * entries need no savepoints of their own (better-sqlite3 would nest a transaction function as one: two
   * statements more per entry).
   */
  const appendManyInTransaction = db.transaction((batch: AppendRequest[]) => {
    const results: Array<AppendResult | WrongExpectedRevisionError> = [];
    for (const [index, entry] of batch.entries()) {
      const after = dependencyOf(entry, index);
      const stopped = after === undefined ? undefined : results[after];
      if (stopped instanceof WrongExpectedRevisionError) {
        results.push(stopped);
        continue;
      }
      if (entry.events.length === 0) {
        results.push(whereStreamIs(entry.stream));
        continue;
      }
      try {
        results.push(appendRows(entry.stream, entry.events, entry.expected));
      } catch (error) {
        if (error instanceof WrongExpectedRevisionError) results.push(error);
        else throw error;
      }
    }
    return results;
  });

  /**
   * The log in pages for a process's log reader. At the head it waits on the change signal; the head seen
   * just before a short read is a position the page covers (every matching event up to it is in the page),
   * so a filtered reader's position moves past events nobody asked for.
   */
  async function* pageReader(
    after: string,
    filter: AllFilter | undefined,
    pageSize: number,
    signal: AbortSignal,
  ): AsyncGenerator<LogPage> {
    const epoch = interruptEpoch;
    let cursor = after;
    // the cursor is the head a short read saw, and the other connections' commits counted before that read:
    // while that count stays, everything after the cursor is this instance's own commits
    let atHead: { cursor: string; foreign: number } | undefined;
    while (!signal.aborted && !closed) {
      if (epoch !== interruptEpoch) throw new Error('sqlite page reader interrupted');
      const seen = changes.version();
      const foreign = changes.foreign();
      if (atHead?.cursor === cursor && atHead.foreign === foreign) {
        const to = own.skipTo(positionValue(cursor), filter);
        if (to !== undefined) {
          if (toPosition(to) > cursor) {
            cursor = toPosition(to);
            atHead.cursor = cursor;
            yield { events: [], position: cursor };
          }
          await changes.wait(seen, signal);
          continue;
        }
      }
      let page: RecordedEvent[];
      let headBefore: number | null;
      try {
        headBefore = head.get() ?? null;
        page = readAllSync({ after: cursor, filter, limit: pageSize });
      } catch (error) {
        throw mapError(error);
      }
      const last = page[page.length - 1]?.position;
      const short = page.length < pageSize;
      const covered = short && headBefore !== null ? maxPositionOf(last, toPosition(headBefore)) : last;
      const moved = covered !== undefined && covered > cursor;
      if (moved) cursor = covered;
      atHead = short && headBefore !== null && cursor === toPosition(headBefore) ? { cursor, foreign } : undefined;
      // an empty page moves a filtered reader past events nobody asked for (once per idle transition)
      if (moved) yield { events: page, position: cursor };
      if (short) await changes.wait(seen, signal);
    }
  }

  const readAllStatement = (forwards: boolean, categories: number, types: number) => {
    const key = `${forwards ? 'f' : 'b'}:${categories}:${types}`;
    let statement = readAllStatements.get(key);
    if (!statement) {
      statement = db.prepare<unknown[], EventRow>(readAllSql(forwards, categories, types));
      readAllStatements.set(key, statement);
    }
    return statement;
  };

  const readAllSync = (options: ReadAllOptions): RecordedEvent[] => {
    const forwards = (options.direction ?? 'forwards') === 'forwards';
    const limit = options.limit ?? DEFAULT_READ_ALL_LIMIT;
    const after = options.after ?? START;
    // backwards, `after` is the exclusive upper bound in reading order; START (the default) means the end
    const bound = forwards || after !== START ? positionValue(after) : NO_UPPER_BOUND;
    const categories = distinct(options.filter?.categories);
    const types = distinct(options.filter?.eventTypes);
    // Near the head (a tail reader woken by a burst) the few rows after the cursor are scanned along the
    // primary key: one range read, where the per-category legs below would cost one probe per category.
    // Positions are gap-free, so the distance to the head is the number of rows the scan can touch.
    const scan = forwards && categories.length > 1 && (head.get() ?? 0) - bound <= SCAN_NEAR_HEAD;
    const statement = scan
      ? readAllStatement(forwards, -categories.length, types.length)
      : readAllStatement(forwards, categories.length, types.length);
    const params: unknown[] = [];
    if (categories.length <= 1 || scan) params.push(bound, ...categories, ...types, limit);
    else {
      for (const category of categories) params.push(category, bound, ...types, limit);
      params.push(limit);
    }
    return counted(statement.all(...params)).map(toRecorded);
  };

  return {
    async append(stream, events, expected) {
      assertOpen();
      try {
        // Nothing to write, nothing to check: answer where the stream is.
        if (events.length === 0) return whereStreamIs(stream);
        const foreign = foreignNow();
        const result = appendInTransaction.immediate(stream, events, expected);
        layout.committed();
        commitOwn(foreign);
        changes.fire();
        return result;
      } catch (error) {
        own.discard();
        layout.rolledBack();
        throw mapError(error);
      } finally {
        processStatements.ran();
      }
    },

    async appendMany(batch: AppendRequest[]) {
      assertOpen();
      if (batch.length === 0) return [];
      try {
        const foreign = foreignNow();
        const results = appendManyInTransaction.immediate(batch);
        layout.committed();
        commitOwn(foreign);
        changes.fire();
        return results;
      } catch (error) {
        own.discard();
        layout.rolledBack();
        throw mapError(error);
      } finally {
        processStatements.ran();
      }
    },

    subscribePages(options: SubscribePagesOptions = {}) {
      const { after, filter, signal } = options;
      const stop = signal ? AbortSignal.any([signal, closing.signal]) : closing.signal;
      return resilientPages(
        (from, readerSignal) => pageReader(from, filter, options.pageSize ?? DEFAULT_PAGE, readerSignal),
        { after: after ?? START, signal: stop },
      );
    },

    async readStream(stream, options: ReadStreamOptions = {}) {
      assertOpen();
      const limit = options.limit ?? -1; // a negative LIMIT is no limit in SQLite
      try {
        if ((options.direction ?? 'forwards') === 'backwards')
          return counted(layout.backwards(stream, options.fromRevision ?? NO_UPPER_BOUND, limit)).map(toRecorded);
        const from = options.fromRevision ?? 0;
        const whole = Number.isInteger(from);
        const foreign = foreignNow();
        // where the stream's category ends: what makes an answer last past other connections' commits (looked
        // up only once there are any: a process alone on its file never needs it)
        const categoryEnd = foreign > 0 ? () => categoryEndNow(categoryOf(stream), foreign) : undefined;
        const noneAfter = whole ? heads.noneAfter(stream, foreign, categoryEnd) : undefined;
        if (noneAfter !== undefined && from > noneAfter) return []; // known: nothing from there on
        // taken before the read: a later event of the category ends it further
        const mark = whole ? categoryEnd?.() : undefined;
        const rows = counted(layout.forwards(stream, from, limit));
        // a read that ran to the stream's end tells where it ends (an empty one: not at or after `from`)
        if (whole && (limit < 0 || rows.length < limit))
          heads.learn(stream, rows.length > 0 ? rows[rows.length - 1]!.revision : from - 1, foreign, mark);
        return rows.map(toRecorded);
      } catch (error) {
        throw mapError(error);
      }
    },

    async readAll(options: ReadAllOptions = {}) {
      assertOpen();
      try {
        return readAllSync(options);
      } catch (error) {
        throw mapError(error);
      }
    },

    subscribeAll(options: SubscribeAllOptions = {}) {
      const { after, filter, signal } = options;
      // close() ends every live subscription
      const stop = signal ? AbortSignal.any([signal, closing.signal]) : closing.signal;
      return resilientSubscription(
        (from, readerSignal) => eventsOf(pageReader(from, filter, SUBSCRIPTION_PAGE, readerSignal)),
        {
          after,
          signal: stop,
        },
      );
    },

    changes: () => changes.version(),

    async lastPositionIn(categories) {
      assertOpen();
      try {
        let last: number | null = null;
        for (const category of distinct(categories)) {
          const p = counted(categoryMax.get(category));
          if (p != null && (last === null || p > last)) last = p;
        }
        return last === null ? undefined : toPosition(last);
      } catch (error) {
        throw mapError(error);
      }
    },

    async headPosition() {
      assertOpen();
      try {
        const position = counted(head.get());
        return position == null ? START : toPosition(position);
      } catch (error) {
        throw mapError(error);
      }
    },

    async ping() {
      assertOpen();
      try {
        probe.get();
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        throw new StoreUnavailableError(STORE, message, { cause: error });
      }
    },

    close() {
      if (closed) return closeDone;
      closed = true;
      closeDone = (async () => {
        closing.abort();
        changes.close();
        try {
          db.close();
        } finally {
          await checkpointer?.stop();
        }
      })();
      return closeDone;
    },

    interruptSubscriptions() {
      interruptEpoch += 1;
      changes.fire();
    },
  };
}

function revisionMatches(expected: ExpectedRevision, current: number | undefined): boolean {
  switch (expected) {
    case 'any':
      return true;
    case 'no_stream':
      return current === undefined;
    case 'stream_exists':
      return current !== undefined;
    default:
      return (current ?? -1) === expected;
  }
}

/**
 * The statement for one shape of readAll (direction, number of categories, number of event types).
 * Several categories: one leg per category, each walking its own (category, position) index range with
 * the page limit, merged by position. A page then costs at most categories × limit rows, where a single
 * `category IN (...)` would sort every matching row after the cursor.
 */
/** rows after the cursor up to which a multi-category read scans the log instead of probing each category */
const SCAN_NEAR_HEAD = 2_000;

/** `categories` < 0: that many categories, read by a primary-key range scan (see readAllSync) */
function readAllSql(forwards: boolean, categories: number, types: number): string {
  const cmp = forwards ? '>' : '<';
  const order = forwards ? 'ASC' : 'DESC';
  const typeClause = types > 0 ? ` AND type IN (${placeholders(types)})` : '';
  if (categories < 0) {
    return (
      `SELECT ${COLUMNS} FROM events NOT INDEXED WHERE position ${cmp} ? AND category IN (${placeholders(-categories)})${typeClause}` +
      ` ORDER BY position ${order} LIMIT ?`
    );
  }
  if (categories <= 1) {
    const categoryClause = categories === 1 ? ' AND category = ?' : '';
    const from = categories === 1 ? BY_CATEGORY : 'events';
    return (
      `SELECT ${COLUMNS} FROM ${from} WHERE position ${cmp} ?${categoryClause}${typeClause}` +
      ` ORDER BY position ${order} LIMIT ?`
    );
  }
  const leg =
    `SELECT * FROM (SELECT ${COLUMNS} FROM ${BY_CATEGORY} WHERE category = ? AND position ${cmp} ?${typeClause}` +
    ` ORDER BY position ${order} LIMIT ?)`;
  return `${Array.from({ length: categories }, () => leg).join(' UNION ALL ')} ORDER BY position ${order} LIMIT ?`;
}

// Pinned: with statistics (ANALYZE, PRAGMA optimize) the planner may prefer a primary-key scan that
// filters by category, whose cost grows with the whole log instead of the page.
const BY_CATEGORY = 'events INDEXED BY events_category_position';

const placeholders = (n: number) => Array.from({ length: n }, () => '?').join(', ');

/** An empty list means "no filter", like an absent one. */
const distinct = (values: string[] | undefined): string[] => (values?.length ? [...new Set(values)] : []);

/** a subscription's events, one at a time: the next page is read when the consumer has taken this one's */
async function* eventsOf(pages: AsyncIterable<LogPage>): AsyncGenerator<RecordedEvent> {
  for await (const page of pages) yield* page.events;
}

const maxPositionOf = (a: string | undefined, b: string): string => (a !== undefined && a > b ? a : b);

const toRecorded = (row: EventRow): RecordedEvent => ({
  id: row.id,
  type: row.type,
  data: JSON.parse(row.data) as unknown,
  metadata: JSON.parse(row.metadata) as RecordedEvent['metadata'],
  stream: row.stream,
  revision: row.revision,
  position: toPosition(row.position),
});

const isDuplicateId = (error: unknown): boolean =>
  (error as { code?: unknown } | null)?.code === 'SQLITE_CONSTRAINT_UNIQUE' &&
  error instanceof Error &&
  error.message.includes('events.id');
