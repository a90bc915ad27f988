import { createHash } from 'node:crypto';

/**
 * An audit record as stored (spec "Audit service: log record"; the stored fields beyond the request's are
 * ours): the request's fields with their defaults, the module its transaction belongs to, and what the
 * ledger adds: `id`, `tenant`, `sequence` (per tenant, gapless, from 1) and `time` (the server's clock,
 * never going back within a tenant's chain). new_data and old_data are stored as JSON text, decompressed;
 * `compress_type` records how they came.
 */
export const COMPRESS_TYPES = ['none', 'gzip', 'deflate'] as const;
export type CompressType = (typeof COMPRESS_TYPES)[number];

export type RecordFields = {
  module_name: string;
  transaction_name: string;
  transaction_vendor: string;
  business_code: string;
  client_ip: string;
  new_data: string;
  old_data: string;
  warning_type: string;
  trace_id: string;
  tags: string[];
  compress_type: CompressType;
};

export type AuditRecord = RecordFields & { id: string; tenant: string; sequence: number; time: string };

/** a record with its link in the chain: what the log's event and the read model's document both carry */
export type ChainedRecord = AuditRecord & { hash: string };

/** the hash before a tenant's first record */
export const GENESIS_HASH = '0'.repeat(64);

/**
 * The canonical text of a record: a JSON object with exactly the stored fields, keys in code-point order, no
 * whitespace (JSON.stringify of the values; every value is a string, a number or an array of strings, so
 * the text is the same on every platform). Anything else on the object (`hash`, read-model keys) is left out.
 */
export function canonicalRecord(r: AuditRecord): string {
  return JSON.stringify({
    business_code: r.business_code,
    client_ip: r.client_ip,
    compress_type: r.compress_type,
    id: r.id,
    module_name: r.module_name,
    new_data: r.new_data,
    old_data: r.old_data,
    sequence: r.sequence,
    tags: r.tags,
    tenant: r.tenant,
    time: r.time,
    trace_id: r.trace_id,
    transaction_name: r.transaction_name,
    transaction_vendor: r.transaction_vendor,
    warning_type: r.warning_type,
  });
}

/**
 * hash_n = SHA-256(hash_{n-1} ‖ canonical(record_n)): the 32 bytes of the previous hash, then the UTF-8
 * bytes of the canonical text; hex. The first record links to GENESIS_HASH (32 zero bytes).
 */
export function chainHash(previous: string, r: AuditRecord): string {
  return createHash('sha256').update(Buffer.from(previous, 'hex')).update(canonicalRecord(r), 'utf8').digest('hex');
}

/** the record's fields out of anything carrying them (a recorded event's data, a read-model document) */
export function recordOf(x: Record<string, unknown>): AuditRecord {
  return {
    id: x.id,
    tenant: x.tenant,
    sequence: x.sequence,
    time: x.time,
    module_name: x.module_name,
    transaction_name: x.transaction_name,
    transaction_vendor: x.transaction_vendor,
    business_code: x.business_code,
    client_ip: x.client_ip,
    new_data: x.new_data,
    old_data: x.old_data,
    warning_type: x.warning_type,
    trace_id: x.trace_id,
    tags: x.tags,
    compress_type: x.compress_type,
  } as AuditRecord;
}

/** sequences as sortable text (12 digits: up to 10^12 records per tenant) */
export const seqKey = (sequence: number): string => String(sequence).padStart(12, '0');
/**
 * The order of records: time, then sequence, as one sortable string (`<ISO time>|<seqKey>`). Times are
 * 24-character ISO instants (`toISOString`), so text order is time order; a query bound `start_time` (an
 * ISO instant) sorts before every key of that millisecond and `end_time` before them too (start inclusive,
 * end exclusive, with plain string comparisons that the read store's index answers).
 */
export const tsKey = (time: string, sequence: number): string => `${time}|${seqKey(sequence)}`;

/** SHA-256 of a write's content: the same Idempotency-Key with other content is refused (422) */
export function fingerprintOf(fields: RecordFields): string {
  return createHash('sha256')
    .update(
      JSON.stringify([
        fields.module_name,
        fields.transaction_name,
        fields.transaction_vendor,
        fields.business_code,
        fields.client_ip,
        fields.new_data,
        fields.old_data,
        fields.warning_type,
        fields.trace_id,
        fields.tags,
        fields.compress_type,
      ]),
    )
    .digest('hex');
}
