import {
  CATALOG_CATEGORY,
  type CatalogState,
  catalogDecider,
  catalogStream,
  type TransactionInfo,
  transactionsNamed,
} from '../../domain/audit/catalog.decider.ts';
import {
  BUILT_IN_LEVELS,
  LEVELS_CATEGORY,
  type LevelsState,
  levelsDecider,
  levelsStream,
} from '../../domain/audit/warning-levels.decider.ts';
import type { Decider } from '../../domain/core/decider.ts';
import type { DomainEvent, RecordedEvent } from '../../domain/core/event.ts';
import { categoryOf } from '../../domain/core/stream-name.ts';
import type { EventStore, LogPage } from '../../infra/core/event-store.port.ts';
import type { LogConsumer } from '../../infra/core/log-consumer.ts';
import { START } from '../../infra/core/position.ts';

/**
 * The audit metadata in memory: every tenant's catalog (modules and transactions) and the platform's
 * warning levels, folded with their deciders. A LogConsumer of the process's log reader (start() forgets
 * everything and answers START; handle() folds each event) and a read-through cache over the two kinds of
 * stream, as the identity directory is:
 *
 * - `recent` (the write path: is this transaction, this level known?) answers from memory once the
 *   consumer has caught up with the log; a miss is then checked against the stream (`verified`), so a
 *   transaction created a moment ago, in this process or another, is found;
 * - `verified` (the administration API) asks the store for the stream's current revision (its last event:
 *   one indexed read) and folds only what memory has not seen.
 *
 * Commands of this process hand their result in (`remember`), so a change is visible here at once.
 */
export const METADATA_CACHE = 'audit.metadata-cache';

export type Freshness = 'recent' | 'verified';
export type Cached<S> = { state: S; revision: number };

export type AuditMetadata = LogConsumer & {
  catalog(tenant: string, freshness: Freshness): Promise<Cached<CatalogState>>;
  levels(freshness: Freshness): Promise<Cached<LevelsState>>;
  /** the transactions named `name` in the tenant's modules (a write names only its transaction) */
  transactionsNamed(tenant: string, name: string): Promise<TransactionInfo[]>;
  /** whether the warning level exists */
  hasLevel(name: string): Promise<boolean>;
  /** a command's result: memory takes it when it is newer */
  remember(stream: string, entry: Cached<unknown>): void;
};

type Kind = 'catalog' | 'levels';
type Entry = { kind: Kind; revision: number; state: unknown };
type AnyDecider = Pick<Decider<unknown, DomainEvent, unknown>, 'initialState' | 'evolve'>;
const deciders: Record<Kind, AnyDecider> = {
  catalog: catalogDecider as unknown as AnyDecider,
  levels: levelsDecider as unknown as AnyDecider,
};
const kindOf = (category: string): Kind | undefined =>
  category === CATALOG_CATEGORY ? 'catalog' : category === LEVELS_CATEGORY ? 'levels' : undefined;

export function createAuditMetadata(deps: { eventStore: EventStore }): AuditMetadata {
  const { eventStore } = deps;
  const entries = new Map<string, Entry>();
  /** transaction name → its transactions, per catalog state (states are immutable: a new one is a new key) */
  const byName = new WeakMap<CatalogState, Map<string, TransactionInfo[]>>();
  let generation = 0;
  let position = START;
  let liveAt: string | undefined;
  let live = false;

  const fold = (kind: Kind, state: unknown, events: RecordedEvent[]) =>
    events.reduce((s, e) => deciders[kind].evolve(s, e as unknown as DomainEvent), state);

  const keep = (stream: string, entry: Entry, gen: number) => {
    if (gen !== generation || entry.revision < 0) return;
    const held = entries.get(stream);
    if (held === undefined || held.revision < entry.revision) entries.set(stream, entry);
  };

  async function load(kind: Kind, stream: string): Promise<Entry> {
    const events = await eventStore.readStream(stream);
    return { kind, state: fold(kind, deciders[kind].initialState(), events), revision: events.length - 1 };
  }

  async function verify(kind: Kind, stream: string, held: Entry | undefined): Promise<Entry> {
    if (held === undefined) return load(kind, stream);
    const last = await eventStore.readStream(stream, { direction: 'backwards', limit: 1 });
    const revision = last[0]?.revision ?? -1;
    if (revision === held.revision) return held;
    if (revision < held.revision) return load(kind, stream); // the store was replaced under us
    const newer = await eventStore.readStream(stream, { fromRevision: held.revision + 1 });
    if (newer[0]?.revision !== held.revision + 1) return load(kind, stream);
    return { kind, state: fold(kind, held.state, newer), revision: newer[newer.length - 1]!.revision };
  }

  async function lookup(kind: Kind, stream: string, freshness: Freshness): Promise<Cached<unknown>> {
    const gen = generation;
    const held = entries.get(stream);
    const entry = freshness === 'recent' && live && held !== undefined ? held : await verify(kind, stream, held);
    if (entry !== held) keep(stream, entry, gen);
    return { state: entry.state, revision: entry.revision };
  }

  const catalog = (tenant: string, freshness: Freshness) =>
    lookup('catalog', catalogStream(tenant), freshness) as Promise<Cached<CatalogState>>;
  const levels = (freshness: Freshness) => lookup('levels', levelsStream(), freshness) as Promise<Cached<LevelsState>>;

  const named = (state: CatalogState, name: string): TransactionInfo[] => {
    let index = byName.get(state);
    if (index === undefined) {
      index = new Map();
      byName.set(state, index);
    }
    let found = index.get(name);
    if (found === undefined) {
      found = transactionsNamed(state, name);
      index.set(name, found);
    }
    return found;
  };

  return {
    name: METADATA_CACHE,
    filter: { categories: [CATALOG_CATEGORY, LEVELS_CATEGORY] },

    async start() {
      generation += 1;
      entries.clear();
      live = false;
      position = START;
      liveAt = await eventStore.headPosition();
      if (liveAt === START) live = true;
      return START;
    },

    async handle(page: LogPage) {
      for (const e of page.events) {
        if (e.position <= position) continue;
        const kind = kindOf(categoryOf(e.stream));
        if (kind === undefined) continue;
        const held = entries.get(e.stream);
        if (held === undefined) {
          if (e.revision === 0)
            entries.set(e.stream, { kind, revision: 0, state: fold(kind, deciders[kind].initialState(), [e]) });
        } else if (e.revision === held.revision + 1) {
          entries.set(e.stream, { kind, revision: e.revision, state: fold(kind, held.state, [e]) });
        } else if (e.revision > held.revision + 1) entries.delete(e.stream); // a gap: lookups read the stream
      }
      if (page.position > position) position = page.position;
      if (!live && liveAt !== undefined && position >= liveAt) live = true;
      return position;
    },

    catalog,
    levels,

    async transactionsNamed(tenant, name) {
      const found = named((await catalog(tenant, 'recent')).state, name);
      return found.length > 0 ? found : named((await catalog(tenant, 'verified')).state, name);
    },

    async hasLevel(name) {
      // INFO and WARN exist without an event (and the levels stream may not exist at all)
      if ((BUILT_IN_LEVELS as readonly string[]).includes(name)) return true;
      if ((await levels('recent')).state.levels[name] !== undefined) return true;
      return (await levels('verified')).state.levels[name] !== undefined;
    },

    remember(stream, entry) {
      const kind = kindOf(categoryOf(stream));
      if (kind !== undefined) keep(stream, { kind, revision: entry.revision, state: entry.state }, generation);
    },
  };
}
