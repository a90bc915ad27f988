import type { RecordQuery } from '../../domain/audit/query.ts';
import { type ChainedRecord, seqKey } from '../../domain/audit/record.ts';
import type { Filter, ReadStore } from '../../infra/core/read-store.port.ts';
import { readModel } from '../core/read-model.ts';
import { liveCollection } from '../core/writable-model.ts';
import { type ChainDoc, type KeyDoc, keyDocId, RECORDS_PROJECTION, type RecordDoc } from './records.projection.ts';

/** A record as answered: every stored field (data decompressed) with id, module_name, tenant, time, sequence and hash. */
export type RecordView = ChainedRecord;

export const viewOf = (doc: RecordDoc): RecordView => {
  const { ts: _ts, seq: _seq, ...view } = doc;
  return view as RecordView;
};

/** a stored record as answered, in JSON text, and its `ts` (a walk's next cursor) */
export type RecordText = { json: string; ts: string };

// the projection writes the two index keys last (recordDoc), so the stored text ends with them; the keys
// of a record's fields are plain names and its data fields are JSON strings (quotes escaped), so the last
// `,"ts":"` of the text is the record's own
const TS_KEY = ',"ts":"';
const SEQ_KEY = '","seq":"';

/** no quote and no backslash in text[from, to): a plain JSON string's content */
function plain(text: string, from: number, to: number): boolean {
  for (let i = from; i < to; i++) {
    const c = text.charCodeAt(i);
    if (c === 34 || c === 92) return false;
  }
  return true;
}

/**
 * The answer's JSON text of a stored record: the stored text without its index keys, not parsed and
 * serialized again (a page of 20 records is most of a query's work and allocations otherwise). A text of
 * another shape (written by another version) goes the long way.
 */
export function recordTextOf(stored: string): RecordText {
  // the tail checked by hand, `,"ts":"<plain>","seq":"<plain>"}` (a regex's match arrays were a tenth of a
  // query's allocations)
  const at = stored.lastIndexOf(TS_KEY);
  const tsFrom = at + TS_KEY.length;
  const seqAt = at > 0 ? stored.indexOf(SEQ_KEY, tsFrom) : -1;
  const end = stored.length - 2;
  if (
    seqAt > 0 &&
    stored.endsWith('"}') &&
    seqAt + SEQ_KEY.length <= end &&
    plain(stored, tsFrom, seqAt) &&
    plain(stored, seqAt + SEQ_KEY.length, end)
  ) {
    return { json: `${stored.slice(0, at)}}`, ts: stored.slice(tsFrom, seqAt) };
  }
  const doc = JSON.parse(stored) as RecordDoc;
  return { json: JSON.stringify(viewOf(doc)), ts: doc.ts };
}

/** where a walk newest-first starts: before `cursor` (a `ts` key), and not after `snapshot` */
export type Bounds = { snapshot?: string; cursor?: string };

/** the read-store filter of a query: the index range first, the optional filters on its rows */
export function recordFilter(tenant: string, q: RecordQuery, bounds: Bounds = {}): Filter {
  const upper = bounds.cursor !== undefined && bounds.cursor < q.end ? bounds.cursor : q.end;
  const ts: Record<string, string> = { $gte: q.start, $lt: upper };
  if (bounds.snapshot !== undefined) ts.$lte = bounds.snapshot;
  return {
    tenant,
    module_name: q.module_name,
    transaction_name: q.transaction_name,
    ts,
    ...(q.business_code !== undefined && { business_code: q.business_code }),
    ...(q.warning_type !== undefined && { warning_type: q.warning_type }),
    ...(q.tags !== undefined && { tags: { $in: q.tags } }),
    ...(q.trace_id !== undefined && { trace_id: q.trace_id }),
    ...(q.client_ip !== undefined && { client_ip: q.client_ip }),
  };
}

const NEWEST_FIRST = { ts: -1 } as const;

export type RecordQueries = ReturnType<typeof createRecordQueries>;

/** The audit log's queries over the `audit.records` read model (live generation, resolved per call). */
export function createRecordQueries(readStore: ReadStore) {
  const records = readModel<RecordDoc>(readStore, RECORDS_PROJECTION, 'records');
  // one generation for a count and its page (a rebuild may switch between two calls), resolved once
  const recordsNow = liveCollection<RecordDoc>(readStore, RECORDS_PROJECTION, 'records');
  const chains = readModel<ChainDoc>(readStore, RECORDS_PROJECTION, 'chains');
  const keys = readModel<KeyDoc>(readStore, RECORDS_PROJECTION, 'keys');

  /** page mode: the page's records newest first (as answered, in JSON text), and how many match */
  async function pageText(
    tenant: string,
    q: RecordQuery,
    pageNum: number,
    size: number,
  ): Promise<{ total: number; records: RecordText[] }> {
    const filter = recordFilter(tenant, q);
    const generation = await recordsNow();
    const total = await generation.count(filter);
    const texts =
      total <= (pageNum - 1) * size
        ? []
        : await generation.findJson(filter, { sort: NEWEST_FIRST, skip: (pageNum - 1) * size, limit: size });
    return { total, records: texts.map(recordTextOf) };
  }

  return {
    pageText,

    count: (tenant: string, q: RecordQuery, bounds: Bounds = {}) => records.count(recordFilter(tenant, q, bounds)),

    /** the next `size` records newest first within the bounds (as answered, in JSON text); the last one's `ts` is the next cursor */
    async walkText(tenant: string, q: RecordQuery, bounds: Bounds, size: number): Promise<RecordText[]> {
      return (await records.findJson(recordFilter(tenant, q, bounds), { sort: NEWEST_FIRST, limit: size })).map(
        recordTextOf,
      );
    },

    /** every matching record newest first, page by page (exports): the records there were when it began */
    async *all(tenant: string, q: RecordQuery, pageSize = 1000): AsyncGenerator<RecordView[]> {
      const snapshot = (await chains.get(tenant))?.last_ts;
      if (snapshot === undefined) return;
      let cursor: string | undefined;
      for (;;) {
        const docs = await records.find(
          recordFilter(tenant, q, { snapshot, ...(cursor !== undefined && { cursor }) }),
          { sort: NEWEST_FIRST, limit: pageSize },
        );
        if (docs.length === 0) return;
        yield docs.map(viewOf);
        if (docs.length < pageSize) return;
        cursor = docs[docs.length - 1]!.ts;
        // the embedded store answers synchronously: let other requests in between two pages
        await new Promise<void>((resolve) => setImmediate(resolve));
      }
    },

    chain: (tenant: string) => chains.get(tenant),

    /** one record of the tenant by its id (null: none, or another tenant's) */
    async byId(tenant: string, id: string): Promise<RecordView | null> {
      const doc = await records.get(id);
      return doc === null || doc.tenant !== tenant ? null : viewOf(doc);
    },

    /** the record at `sequence` of the tenant's chain (null: none in this store) */
    async atSequence(tenant: string, sequence: number): Promise<RecordView | null> {
      const doc = await records.findOne({ tenant, seq: seqKey(sequence) });
      return doc === null ? null : viewOf(doc);
    },

    async key(tenant: string, key: string) {
      const doc = await keys.get(keyDocId(tenant, key));
      if (doc === null) return null;
      return {
        id: doc.record_id,
        sequence: doc.sequence,
        hash: doc.hash,
        time: doc.time,
        ...(doc.fingerprint !== undefined && { fingerprint: doc.fingerprint }),
      };
    },

    /** records from..to (sequences, inclusive) in chain order, at most `limit` */
    range: (tenant: string, from: number, to: number, limit: number) =>
      records.find({ tenant, seq: { $gte: seqKey(from), $lte: seqKey(to) } }, { sort: { seq: 1 }, limit }),

    /**
     * The last sequence whose time is before `cutoff` among the records in this store (0: none). Time never
     * goes back along a chain, so it is a binary search over the sequence: a few index lookups.
     */
    async lastSequenceBefore(tenant: string, cutoff: string): Promise<number> {
      const chain = await chains.get(tenant);
      if (chain === null) return 0;
      const at = (sequence: number) =>
        records.findOne({ tenant, seq: { $gte: seqKey(sequence) } }, { sort: { seq: 1 } });
      let lo = chain.retired_through; // known: everything up to it is before some earlier cutoff
      let hi = chain.last_sequence + 1; // known: nothing at or past it
      while (hi - lo > 1) {
        const mid = Math.floor((lo + hi) / 2);
        const doc = await at(mid);
        if (doc !== null && doc.time < cutoff) lo = doc.sequence;
        else hi = mid;
      }
      return lo;
    },
  };
}
