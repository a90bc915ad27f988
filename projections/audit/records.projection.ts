import { type AuditRecordedData, LEDGER_CATEGORY, type LedgerEvent } from '../../domain/audit/ledger.decider.ts';
import { type ChainedRecord, seqKey, tsKey } from '../../domain/audit/record.ts';
import { RETENTION_CATEGORY, type RetentionEvent } from '../../domain/audit/retention.decider.ts';
import type { RecordedEvent } from '../../domain/core/event.ts';
import type { Doc } from '../../infra/core/read-store.port.ts';
import type { Projection, ProjectionStore } from '../core/projection.ts';

/**
 * `audit.records`: the query side of the audit log, from the tenants' chains (and their retention runs).
 *
 * - `records`: one document per record: every stored field, its hash, and two sortable keys — `ts`
 *   (`<time>|<sequence>`: newest first is `ts` descending) and `seq` (the sequence as 12 digits). Indexes fit
 *   the query shapes: `by_query` (tenant, module, transaction, ts) answers a query-many page or scroll as
 *   one index range walked in order (string conditions on index paths are exact SQL on the embedded store;
 *   the optional filters are checked on the rows of that range); `by_seq` (tenant, seq) answers verify and
 *   retention, which go along the chain.
 * - `chains`: per tenant the last record applied (sequence, hash, time) and the retired prefix
 *   (`retired_through`, `retired_before`): what verify, retention, the writer's key check and scrolls read.
 * - `keys`: per (tenant, Idempotency-Key) the first answer of a keyed write (the writer's memory covers
 *   only what came after the projection's position).
 *
 * `RetentionApplied` removes the records (and keys) up to its sequence; the log keeps them.
 */
export const RECORDS_PROJECTION = 'audit.records';

export type RecordDoc = Doc & ChainedRecord & { ts: string; seq: string };
export type ChainDoc = Doc & {
  tenant: string;
  last_sequence: number;
  last_hash: string;
  last_time: string;
  last_ts: string;
  /** records 1..retired_through are retired from this store (0: none) */
  retired_through: number;
  retired_before?: string;
};
export type KeyDoc = Doc & {
  tenant: string;
  key: string;
  record_id: string;
  sequence: number;
  hash: string;
  time: string;
  fingerprint?: string;
  seq: string;
};

/** tenants have no `/`: the first one separates the tenant from the key */
export const keyDocId = (tenant: string, key: string) => `${tenant}/${key}`;

/** the indexes of `records`; a new one is a version bump (a rebuild beside the live generation) */
export const RECORD_INDEXES = [
  { name: 'by_query', fields: { tenant: 1, module_name: 1, transaction_name: 1, ts: 1 } },
  { name: 'by_seq', fields: { tenant: 1, seq: 1 } },
] as const;

export function recordDocOf(d: ChainedRecord): RecordDoc {
  return {
    id: d.id,
    tenant: d.tenant,
    sequence: d.sequence,
    time: d.time,
    module_name: d.module_name,
    transaction_name: d.transaction_name,
    transaction_vendor: d.transaction_vendor,
    business_code: d.business_code,
    client_ip: d.client_ip,
    new_data: d.new_data,
    old_data: d.old_data,
    warning_type: d.warning_type,
    trace_id: d.trace_id,
    tags: d.tags,
    compress_type: d.compress_type,
    hash: d.hash,
    ts: tsKey(d.time, d.sequence),
    seq: seqKey(d.sequence),
  };
}

export function recordsProjection(
  o: { version?: number; extraIndexes?: Array<{ name: string; fields: Record<string, 1 | -1> }> } = {},
): Projection {
  return {
    name: RECORDS_PROJECTION,
    version: o.version ?? 1,
    categories: [LEDGER_CATEGORY, RETENTION_CATEGORY],
    eventTypes: ['AuditRecorded', 'RetentionApplied'],
    collections: {
      records: {
        indexes: [...RECORD_INDEXES.map((i) => ({ ...i, fields: { ...i.fields } })), ...(o.extraIndexes ?? [])],
      },
      chains: {},
      keys: { indexes: [{ name: 'by_seq', fields: { tenant: 1, seq: 1 } }] },
    },
    apply: applyRecords,
  };
}

async function applyRecords(events: RecordedEvent[], store: ProjectionStore): Promise<void> {
  const records = store.collection<RecordDoc>('records');
  const keys = store.collection<KeyDoc>('keys');
  const chains = store.collection<ChainDoc>('chains');
  // the page's chain documents, written once at the end
  const touched = new Map<string, ChainDoc>();
  const chainOf = async (tenant: string): Promise<ChainDoc> => {
    let doc = touched.get(tenant);
    if (doc === undefined) {
      doc = (await chains.get(tenant)) ?? {
        id: tenant,
        tenant,
        last_sequence: 0,
        last_hash: '',
        last_time: '',
        last_ts: '',
        retired_through: 0,
      };
      touched.set(tenant, doc);
    }
    return doc;
  };

  for (const recorded of events) {
    const event = recorded as unknown as LedgerEvent | RetentionEvent;
    switch (event.type) {
      case 'AuditRecorded': {
        const d: AuditRecordedData = event.data;
        const chain = await chainOf(d.tenant);
        if (d.sequence <= chain.retired_through) continue; // a rebuild replaying what retention removed
        const doc = recordDocOf(d);
        await records.upsert(doc);
        if (d.idempotency_key !== undefined) {
          await keys.upsert({
            id: keyDocId(d.tenant, d.idempotency_key),
            tenant: d.tenant,
            key: d.idempotency_key,
            record_id: d.id,
            sequence: d.sequence,
            hash: d.hash,
            time: d.time,
            ...(d.fingerprint !== undefined && { fingerprint: d.fingerprint }),
            seq: doc.seq,
          });
        }
        if (d.sequence > chain.last_sequence)
          Object.assign(chain, { last_sequence: d.sequence, last_hash: d.hash, last_time: d.time, last_ts: doc.ts });
        break;
      }
      case 'RetentionApplied': {
        const tenant = recorded.metadata.tenant;
        const chain = await chainOf(tenant);
        const through = Math.min(event.data.through_sequence, chain.last_sequence);
        if (through > chain.retired_through) {
          const upTo = { tenant, seq: { $lte: seqKey(through) } };
          await records.deleteMany(upTo);
          await keys.deleteMany(upTo);
          chain.retired_through = through;
        }
        chain.retired_before = event.data.cutoff;
        break;
      }
      case 'RetentionSet':
        break;
      default:
        event satisfies never;
    }
  }
  for (const doc of touched.values()) await chains.upsert(doc);
}
