import type { Decider } from '../../domain/core/decider.ts';
import type { DomainEvent, RecordedEvent } from '../../domain/core/event.ts';
import { categoryOf } from '../../domain/core/stream-name.ts';
import { type ClientState, clientDecider } from '../../domain/identity/client.decider.ts';
import { type TenantState, tenantDecider } from '../../domain/identity/tenant.decider.ts';
import { type UserState, userDecider } from '../../domain/identity/user.decider.ts';
import { type UsernameState, usernameDecider } from '../../domain/identity/username.decider.ts';
import type { EventStore, LogPage } from '../../infra/core/event-store.port.ts';
import type { LogConsumer } from '../../infra/core/log-consumer.ts';
import { START } from '../../infra/core/position.ts';

/**
 * The identity directory in memory: the folded state of every tenant, client, user and username stream,
 * kept fresh by their events. It is a LogConsumer of the process's one log reader (start() forgets
 * everything and answers START; handle() folds each event with its aggregate's own decider), and a
 * read-through cache over the streams, so it is right even before the reader feeds it:
 *
 * - a stream not in memory is read from the store (the stream is the truth: a client registered a moment
 *   ago by another process is found) and kept;
 * - `verified` lookups (every security decision: client authentication, whether a user is active) make
 *   sure memory is not behind the stream first. When memory has handled the whole log (the log's head,
 *   one O(1) query, is not past the position memory has reached) it answers as it is. Otherwise the
 *   store is asked for the stream's current revision (its last event: one indexed read): the same as in
 *   memory, memory answers; a newer one, only the events after the one in memory are read and folded. So
 *   a disabled client, a rotated secret or a disabled user is never served stale, not even for the
 *   reader's latency;
 * - `recent` lookups (a tenant's token lifetime) trust memory once the consumer has caught up with the
 *   log as it was when it started: from then on memory lags the log by the reader's own latency (in this
 *   process: the next page; another process's append: its next probe). Before that, or without a reader,
 *   they are verified like the others.
 *
 * Memory holds what the log holds for these four categories (password and secret hashes included; never
 * written anywhere else). Lookups of streams that do not exist are not remembered, so probing random ids
 * cannot grow it.
 */
export const DIRECTORY_CACHE = 'identity.directory-cache';

const deciders = {
  tenant: tenantDecider,
  client: clientDecider,
  user: userDecider,
  username: usernameDecider,
} as const;

export type DirectoryKind = keyof typeof deciders;
type States = { tenant: TenantState; client: ClientState; user: UserState; username: UsernameState };
export const DIRECTORY_CATEGORIES: DirectoryKind[] = Object.keys(deciders) as DirectoryKind[];

/** verified: confirmed against the stream's current revision; recent: memory when it follows the log */
export type Freshness = 'verified' | 'recent';

export type Cached<S> = {
  state: S;
  /** revision of the stream's last event folded in; -1: no stream */
  revision: number;
};

export type DirectoryCacheStats = {
  /** answered from memory without asking the store */
  memory: number;
  /** answered from memory after the log's head showed memory had seen everything */
  atHead: number;
  /** revision checks that confirmed the memory */
  confirmed: number;
  /** revision checks that found newer events (read and folded) */
  caughtUp: number;
  /** whole streams read (not in memory) */
  loaded: number;
  /** events folded from the log reader's pages (not those a lookup had read already) */
  folded: number;
};

export type DirectoryCache = LogConsumer & {
  lookup<K extends DirectoryKind>(kind: K, stream: string, freshness: Freshness): Promise<Cached<States[K]>>;
  /** true once start() has caught up with the head of the log it saw */
  live(): boolean;
  stats(): DirectoryCacheStats;
};

type Entry = { kind: DirectoryKind; revision: number; state: unknown };
type AnyDecider = Decider<unknown, DomainEvent, unknown>;
const deciderOf = (kind: DirectoryKind) => deciders[kind] as unknown as AnyDecider;
const isKind = (c: string): c is DirectoryKind => c in deciders;

export function createDirectoryCache(deps: { eventStore: EventStore }): DirectoryCache {
  const { eventStore } = deps;
  const entries = new Map<string, Entry>();
  /** bumped by start(): a lookup that began before it does not write into the new generation */
  let generation = 0;
  let position = START;
  /** the head when start() ran; live once a page reaches it */
  let liveAt: string | undefined;
  let isLive = false;
  const stats: DirectoryCacheStats = { memory: 0, atHead: 0, confirmed: 0, caughtUp: 0, loaded: 0, folded: 0 };

  const fold = (kind: DirectoryKind, state: unknown, events: RecordedEvent[]) => {
    const d = deciderOf(kind);
    let s = state;
    for (const e of events) s = d.evolve(s, e as unknown as DomainEvent);
    return s;
  };

  /** newer wins: memory never goes back to an older revision, whoever writes (reader or lookup) */
  const keep = (stream: string, entry: Entry, gen: number) => {
    if (gen !== generation || entry.revision < 0) return;
    const held = entries.get(stream);
    if (held === undefined || held.revision < entry.revision) entries.set(stream, entry);
  };

  async function load(kind: DirectoryKind, stream: string): Promise<Entry> {
    stats.loaded += 1;
    const events = await eventStore.readStream(stream);
    const state = fold(kind, deciderOf(kind).initialState(), events);
    return { kind, state, revision: events.length === 0 ? -1 : events[events.length - 1]!.revision };
  }

  async function verify(held: Entry, stream: string): Promise<Entry> {
    const last = await eventStore.readStream(stream, { direction: 'backwards', limit: 1 });
    const revision = last[0]?.revision ?? -1;
    if (revision === held.revision) {
      stats.confirmed += 1;
      return held;
    }
    if (revision < held.revision) return load(held.kind, stream); // the store was replaced under us
    stats.caughtUp += 1;
    const newer = await eventStore.readStream(stream, { fromRevision: held.revision + 1 });
    const next = newer[0]?.revision === held.revision + 1 ? fold(held.kind, held.state, newer) : undefined;
    if (next === undefined) return load(held.kind, stream);
    return { kind: held.kind, state: next, revision: newer[newer.length - 1]!.revision };
  }

  return {
    name: DIRECTORY_CACHE,
    filter: { categories: [...DIRECTORY_CATEGORIES] },

    async start() {
      generation += 1;
      entries.clear();
      isLive = false;
      position = START;
      liveAt = await eventStore.headPosition();
      if (liveAt === START) isLive = true;
      return START;
    },

    async handle(page: LogPage) {
      for (const e of page.events) {
        if (e.position <= position) continue;
        const category = categoryOf(e.stream);
        if (!isKind(category)) continue;
        const held = entries.get(e.stream);
        if (held === undefined) {
          // a stream's first event starts it; a later one means memory lost track (a gap): lookups read it
          if (e.revision !== 0) continue;
          entries.set(e.stream, {
            kind: category,
            revision: 0,
            state: fold(category, deciderOf(category).initialState(), [e]),
          });
        } else if (e.revision === held.revision + 1) {
          entries.set(e.stream, { kind: held.kind, revision: e.revision, state: fold(held.kind, held.state, [e]) });
        } else if (e.revision > held.revision + 1) {
          entries.delete(e.stream);
          continue;
        } else continue; // already folded by a lookup that read the stream
        stats.folded += 1;
      }
      if (page.position > position) position = page.position;
      if (!isLive && liveAt !== undefined && position >= liveAt) isLive = true;
      return position;
    },

    async lookup<K extends DirectoryKind>(kind: K, stream: string, freshness: Freshness): Promise<Cached<States[K]>> {
      const gen = generation;
      const held = entries.get(stream);
      let entry: Entry;
      if (held === undefined) entry = await load(kind, stream);
      else if (freshness === 'recent' && isLive) {
        stats.memory += 1;
        entry = held;
      } else if (isLive && (await eventStore.headPosition()) <= position && gen === generation && entries.has(stream)) {
        // memory has handled every event up to the head: nothing newer can exist for this stream
        stats.atHead += 1;
        entry = entries.get(stream)!;
      } else entry = await verify(held, stream);
      if (entry !== held) keep(stream, entry, gen);
      return { state: entry.state as States[K], revision: entry.revision };
    },

    live: () => isLive,
    stats: () => ({ ...stats }),
  };
}
