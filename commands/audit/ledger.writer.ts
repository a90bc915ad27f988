import { v7 as uuidv7 } from 'uuid';
import {
  type AuditRecordedData,
  type LedgerState,
  ledgerDecider,
  ledgerStream,
} from '../../domain/audit/ledger.decider.ts';
import { fingerprintOf, type RecordFields } from '../../domain/audit/record.ts';
import { coreError } from '../../domain/core/core.errors.ts';
import type { EventEnvelope, RecordedEvent } from '../../domain/core/event.ts';
import type { Clock } from '../../infra/core/clock.port.ts';
import type { EventStore } from '../../infra/core/event-store.port.ts';
import { isWrongExpectedRevision } from '../../infra/core/store-errors.ts';
import { type CommandContext, envelopesFor } from '../core/envelopes.ts';

/**
 * The audit log's writer: per tenant one chain (domain/audit/ledger.decider.ts), appended with the
 * expected revision, so concurrent writers of a tenant (requests of this process, other processes) are
 * serialized by the store and the sequence stays gapless.
 *
 * Group commit: a tenant's writes queue while its append is in flight; the next append takes everything
 * queued (up to `maxBatch` records or `maxBatchBytes` of data), each record its own `AuditRecorded` event
 * decided on the state the previous one left, in ONE append. Throughput stays with the store's commit rate
 * times the batch, not with one record per commit. On a conflict (another process appended) the writer
 * reads the events after its head, and decides the batch again on top of them.
 *
 * Idempotency-Key: a retried write answers the first record (id, sequence, hash, time) and appends
 * nothing. The key is in the record's event. The writer knows the keys of every record after the records
 * projection's position (it read them: its own appends, the events it caught up with), and asks the
 * projection's key index for older ones; the expected revision makes the check exact — a write of the same
 * key by another process lands before ours, our append conflicts, and catching up shows us the key. A key
 * is remembered as long as its record is in the query store (retention forgets it with the record).
 */
/** A record for the chain of the context's tenant. */
export type WriteRequest = {
  fields: RecordFields;
  idempotencyKey?: string;
  context: CommandContext;
};

export type WriteResult = { id: string; sequence: number; hash: string; time: string; replayed: boolean };

/** a remembered key: the first answer, and the content it was given for */
export type KeyEntry = { id: string; sequence: number; hash: string; time: string; fingerprint?: string };

export type LedgerWriterDeps = {
  eventStore: EventStore;
  clock: Clock;
  /** the records projection's key index: a key of a record the projection has applied, or null */
  projectedKey(tenant: string, key: string): Promise<KeyEntry | null>;
  /** the last sequence the records projection has applied for the tenant (0: none) */
  projectedSequence(tenant: string): Promise<number>;
  newId?: () => string;
  /** records per append (default 500) */
  maxBatch?: number;
  /** bytes of new_data + old_data per append (default 8 MiB) */
  maxBatchBytes?: number;
  /** conflicts in a row before a batch answers 409 (default 10) */
  maxAttempts?: number;
};

export type LedgerWriter = {
  write(request: WriteRequest): Promise<WriteResult>;
  /** the chain's head as this process knows it after reading the stream's tail */
  head(tenant: string): Promise<LedgerState>;
  stats(): { appends: number; records: number; conflicts: number };
};

type Pending = {
  request: WriteRequest;
  /** the content's fingerprint, for a write with an Idempotency-Key */
  fingerprint?: string;
  id: string;
  resolve(r: WriteResult): void;
  reject(e: unknown): void;
};

type Chain = {
  tenant: string;
  stream: string;
  /** the head after the last event this process knows; undefined: read it before the next append */
  head?: LedgerState & { revision: number };
  queue: Pending[];
  running: boolean;
  /** keys of records after the projection's position when this chain was (re)loaded, in sequence order */
  keys: Map<string, KeyEntry>;
  /** keys being written now: a second write of one waits for the first */
  inflight: Map<string, { fingerprint: string | undefined; result: Promise<WriteResult> }>;
};

const PAGE = 5000;
const PRUNE_AT = 50_000;
const dataBytes = (f: RecordFields) => f.new_data.length + f.old_data.length + 512;

export function createLedgerWriter(deps: LedgerWriterDeps): LedgerWriter {
  const { eventStore, clock } = deps;
  // time-ordered ids (UUID v7): new records land at the end of the id indexes, not all over them
  const newId = deps.newId ?? (() => uuidv7());
  const maxBatch = deps.maxBatch ?? 500;
  const maxBatchBytes = deps.maxBatchBytes ?? 8 * 1024 * 1024;
  const maxAttempts = deps.maxAttempts ?? 10;
  const chains = new Map<string, Chain>();
  const stats = { appends: 0, records: 0, conflicts: 0 };

  const chainOf = (tenant: string): Chain => {
    let chain = chains.get(tenant);
    if (chain === undefined) {
      chain = { tenant, stream: ledgerStream(tenant), queue: [], running: false, keys: new Map(), inflight: new Map() };
      chains.set(tenant, chain);
    }
    return chain;
  };

  const entryOf = (d: AuditRecordedData): KeyEntry => ({
    id: d.id,
    sequence: d.sequence,
    hash: d.hash,
    time: d.time,
    ...(d.fingerprint !== undefined && { fingerprint: d.fingerprint }),
  });

  /** folds events read from the stream (after the head) into the head and the known keys */
  function absorb(chain: Chain, events: RecordedEvent[]): void {
    for (const e of events) {
      const data = e.data as AuditRecordedData;
      if (data.idempotency_key !== undefined) chain.keys.set(data.idempotency_key, entryOf(data));
      chain.head = { sequence: data.sequence, hash: data.hash, time: data.time, revision: e.revision };
    }
  }

  async function readAfter(chain: Chain, fromRevision: number): Promise<void> {
    for (let from = fromRevision; ; from += PAGE) {
      const events = await eventStore.readStream(chain.stream, { fromRevision: from, limit: PAGE });
      absorb(chain, events);
      if (events.length < PAGE) return;
    }
  }

  /** the head, and the keys of the records the projection has not applied yet */
  async function load(chain: Chain): Promise<void> {
    const projected = await deps.projectedSequence(chain.tenant);
    const last = await eventStore.readStream(chain.stream, { direction: 'backwards', limit: 1 });
    chain.head = { ...ledgerDecider.initialState(), revision: -1 };
    if (last.length === 0) return;
    // the record at sequence `projected` (revision projected - 1) starts the unprojected tail's chain
    const from = Math.max(0, Math.min(projected, last[0]!.revision + 1) - 1);
    await readAfter(chain, from);
  }

  async function prune(chain: Chain): Promise<void> {
    if (chain.keys.size < PRUNE_AT) return;
    const projected = await deps.projectedSequence(chain.tenant);
    for (const [key, entry] of chain.keys) {
      if (entry.sequence > projected) break;
      chain.keys.delete(key);
    }
  }

  const replayOf = (p: Pending, entry: KeyEntry): WriteResult => {
    if (entry.fingerprint !== undefined && entry.fingerprint !== p.fingerprint) {
      throw coreError(
        'REQUEST.IDEMPOTENCY_KEY_REUSED',
        `the Idempotency-Key ${p.request.idempotencyKey} was used for another record`,
        {
          idempotencyKey: p.request.idempotencyKey,
          sequence: entry.sequence,
        },
      );
    }
    return { id: entry.id, sequence: entry.sequence, hash: entry.hash, time: entry.time, replayed: true };
  };

  /** answers the batch's writes whose key is known; answers the others */
  async function withoutKnownKeys(chain: Chain, batch: Pending[], askProjection: boolean): Promise<Pending[]> {
    const fresh: Pending[] = [];
    await Promise.all(
      batch.map(async (p) => {
        const key = p.request.idempotencyKey;
        let known = key === undefined ? undefined : chain.keys.get(key);
        if (known === undefined && key !== undefined && askProjection)
          known = (await deps.projectedKey(chain.tenant, key)) ?? undefined;
        if (known === undefined) return void fresh.push(p);
        try {
          p.resolve(replayOf(p, known));
        } catch (err) {
          p.reject(err);
        }
      }),
    );
    // Promise.all may have pushed out of order: keep the queue's order
    return batch.filter((p) => fresh.includes(p));
  }

  function decide(chain: Chain, batch: Pending[]): { envelopes: EventEnvelope[]; data: AuditRecordedData[] } {
    let state: LedgerState = chain.head!;
    const now = clock.now().toISOString();
    const envelopes: EventEnvelope[] = [];
    const data: AuditRecordedData[] = [];
    for (const p of batch) {
      const key = p.request.idempotencyKey;
      const [event] = ledgerDecider.decide(
        {
          type: 'RecordAudit',
          id: p.id,
          tenant: chain.tenant,
          fields: p.request.fields,
          now,
          ...(key !== undefined && { idempotency_key: key, fingerprint: p.fingerprint }),
        },
        state,
      );
      state = ledgerDecider.evolve(state, event!);
      data.push(event!.data);
      envelopes.push(
        ...envelopesFor([event!], { stream: chain.stream, commandId: p.id, now, context: p.request.context }),
      );
    }
    return { envelopes, data };
  }

  async function appendBatch(chain: Chain, batch: Pending[]): Promise<void> {
    let pending = await withoutKnownKeys(chain, batch, true);
    for (let attempt = 1; pending.length > 0; attempt++) {
      const head = chain.head!;
      const { envelopes, data } = decide(chain, pending);
      try {
        await eventStore.append(chain.stream, envelopes, head.revision < 0 ? 'no_stream' : head.revision);
      } catch (err) {
        if (!isWrongExpectedRevision(err)) throw err;
        stats.conflicts += 1;
        if (attempt >= maxAttempts) {
          throw coreError(
            'CONCURRENCY.CONFLICT',
            `the audit chain of tenant ${chain.tenant} kept changing; retry the write`,
            { stream: chain.stream },
          );
        }
        await readAfter(chain, head.revision + 1);
        pending = await withoutKnownKeys(chain, pending, false);
        continue;
      }
      stats.appends += 1;
      stats.records += data.length;
      const last = data[data.length - 1]!;
      chain.head = { sequence: last.sequence, hash: last.hash, time: last.time, revision: head.revision + data.length };
      data.forEach((d, i) => {
        if (d.idempotency_key !== undefined) chain.keys.set(d.idempotency_key, entryOf(d));
        pending[i]!.resolve({ id: d.id, sequence: d.sequence, hash: d.hash, time: d.time, replayed: false });
      });
      return;
    }
  }

  function takeBatch(chain: Chain): Pending[] {
    let bytes = 0;
    let n = 0;
    while (n < chain.queue.length && n < maxBatch) {
      bytes += dataBytes(chain.queue[n]!.request.fields);
      if (n > 0 && bytes > maxBatchBytes) break;
      n++;
    }
    return chain.queue.splice(0, n);
  }

  async function drain(chain: Chain): Promise<void> {
    chain.running = true;
    try {
      while (chain.queue.length > 0) {
        const batch = takeBatch(chain);
        try {
          if (chain.head === undefined) await load(chain);
          await appendBatch(chain, batch);
          await prune(chain);
        } catch (err) {
          chain.head = undefined; // unknown after a failure: read again before the next append
          for (const p of batch) p.reject(err);
        }
      }
    } finally {
      chain.running = false;
    }
  }

  return {
    write(request) {
      const chain = chainOf(request.context.tenant);
      const key = request.idempotencyKey;
      // only a keyed write can be retried into a conflict: the others carry no fingerprint
      const fingerprint = key === undefined ? undefined : fingerprintOf(request.fields);
      if (key !== undefined) {
        const inflight = chain.inflight.get(key);
        if (inflight !== undefined) {
          return inflight.result.then((r) => {
            if (inflight.fingerprint !== fingerprint) {
              throw coreError(
                'REQUEST.IDEMPOTENCY_KEY_REUSED',
                `the Idempotency-Key ${key} was used for another record`,
                { idempotencyKey: key, sequence: r.sequence },
              );
            }
            return { ...r, replayed: true };
          });
        }
      }
      const result = new Promise<WriteResult>((resolve, reject) => {
        chain.queue.push({ request, fingerprint, id: newId(), resolve, reject });
      });
      if (key !== undefined) {
        chain.inflight.set(key, { fingerprint, result });
        const forget = () => void chain.inflight.delete(key);
        result.then(forget, forget);
      }
      if (!chain.running) void drain(chain);
      return result;
    },

    async head(tenant) {
      const chain = chainOf(tenant);
      const last = await eventStore.readStream(chain.stream, { direction: 'backwards', limit: 1 });
      const d = last[0]?.data as AuditRecordedData | undefined;
      return d === undefined ? ledgerDecider.initialState() : { sequence: d.sequence, hash: d.hash, time: d.time };
    },

    stats: () => ({ ...stats }),
  };
}
