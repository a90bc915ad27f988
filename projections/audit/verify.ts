import { auditError } from '../../domain/audit/audit.errors.ts';
import { type AuditRecordedData, ledgerStream, revisionOfSequence } from '../../domain/audit/ledger.decider.ts';
import { chainHash, GENESIS_HASH, recordOf, seqKey, tsKey } from '../../domain/audit/record.ts';
import type { EventStore } from '../../infra/core/event-store.port.ts';
import type { RecordDoc } from './records.projection.ts';
import type { RecordQueries } from './records.queries.ts';

/**
 * The tamper check (`verify?from_sequence=&to_sequence=`, beyond the spec, as CloudTrail's digest
 * validation and immudb's verified reads): a range of a tenant's chain recomputed from the log and from the
 * query store.
 *
 * - The log: each event of the chain must hold the sequence of its position, and its hash must be
 *   SHA-256(previous hash ‖ canonical record) (domain/audit/record.ts). The range is anchored on the hash
 *   stored with the record before it (the genesis hash for sequence 1).
 * - The query store: each record document must hash, on the log's previous hash, to the hash the log holds
 *   for its sequence (the log is the anchor: a store rewritten with a chain of its own still fails), carry
 *   that hash, and its sort keys must match its time and sequence. A sequence without a document is
 *   missing — except the prefix retention retired (reported as `retired`) and the tail the projection has
 *   not applied yet (`not_yet_projected`).
 *
 * Each side answers `valid`, `altered` (with the first bad sequence and why) or `missing` (with the first
 * missing sequence; the store also lists the missing ranges). Pages of PAGE records: memory stays flat.
 */
export type SideReport = {
  status: 'valid' | 'altered' | 'missing';
  checked: number;
  first_bad_sequence?: number;
  reason?: string;
};

export type Range = { from_sequence: number; to_sequence: number };

export type VerifyReport = {
  tenant: string;
  from_sequence: number;
  to_sequence: number;
  head_sequence: number;
  valid: boolean;
  log: SideReport;
  read_store: SideReport & { missing: Range[]; retired: Range | null; not_yet_projected: Range | null };
};

const PAGE = 5000;
const MAX_RANGES = 100;
/** the embedded stores answer synchronously: let other requests in between two pages */
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

type Problem = { sequence: number; reason: string };

export async function verifyChain(
  deps: { eventStore: EventStore; queries: RecordQueries },
  tenant: string,
  range: { from?: number; to?: number },
): Promise<VerifyReport> {
  const { eventStore, queries } = deps;
  const stream = ledgerStream(tenant);
  const last = await eventStore.readStream(stream, { direction: 'backwards', limit: 1 });
  const head = last.length === 0 ? 0 : last[0]!.revision + 1;
  const from = range.from ?? 1;
  const to = range.to ?? Math.max(head, from);
  if (to < from)
    throw auditError('VERIFY.RANGE_INVALID', 'to_sequence must not be below from_sequence', [
      { in: 'query', field: 'to_sequence', message: 'must be >= from_sequence' },
    ]);
  const chain = await queries.chain(tenant);
  const retired = chain?.retired_through ?? 0;
  const projected = chain?.last_sequence ?? 0;
  const lastInLog = Math.min(to, head);
  const storeFrom = Math.max(from, retired + 1);
  const storeTo = Math.min(lastInLog, projected);

  let logBad: Problem | undefined;
  let storeBad: Problem | undefined;
  let logChecked = 0;
  let storeChecked = 0;
  const missing: Range[] = [];
  let firstMissing: number | undefined;
  const noteMissing = (sequence: number) => {
    firstMissing ??= sequence;
    const tail = missing[missing.length - 1];
    if (tail !== undefined && tail.to_sequence === sequence - 1) tail.to_sequence = sequence;
    else if (missing.length < MAX_RANGES) missing.push({ from_sequence: sequence, to_sequence: sequence });
  };

  let previous = GENESIS_HASH;
  if (from > 1 && from <= head) {
    const before = await eventStore.readStream(stream, { fromRevision: revisionOfSequence(from - 1), limit: 1 });
    previous = (before[0]?.data as AuditRecordedData | undefined)?.hash ?? GENESIS_HASH;
  }

  for (let start = from; start <= lastInLog; start += PAGE) {
    if (start > from) await nextTurn();
    const end = Math.min(lastInLog, start + PAGE - 1);
    const events = await eventStore.readStream(stream, {
      fromRevision: revisionOfSequence(start),
      limit: end - start + 1,
    });
    const docs = new Map<number, RecordDoc>();
    const a = Math.max(start, storeFrom);
    const b = Math.min(end, storeTo);
    if (a <= b) for (const doc of await queries.range(tenant, a, b, b - a + 1)) docs.set(Number(doc.seq), doc);

    for (const event of events) {
      const sequence = event.revision + 1;
      const d = event.data as AuditRecordedData;
      logChecked += 1;
      if (logBad === undefined) {
        if (d.sequence !== sequence || d.tenant !== tenant)
          logBad = { sequence, reason: 'the record does not hold the sequence and tenant of its place in the chain' };
        else if (chainHash(previous, recordOf(d)) !== d.hash)
          logBad = { sequence, reason: 'the record does not hash to its stored hash on the previous one' };
      }
      if (sequence >= storeFrom && sequence <= storeTo) {
        const doc = docs.get(sequence);
        if (doc === undefined) noteMissing(sequence);
        else {
          storeChecked += 1;
          if (storeBad === undefined) {
            if (
              doc.tenant !== tenant ||
              doc.sequence !== sequence ||
              doc.ts !== tsKey(doc.time, doc.sequence) ||
              doc.seq !== seqKey(sequence)
            ) {
              storeBad = {
                sequence,
                reason: 'the document does not hold the sequence, tenant or sort keys of its record',
              };
            } else if (doc.hash !== d.hash || chainHash(previous, recordOf(doc)) !== d.hash) {
              storeBad = { sequence, reason: 'the document does not hash to the hash the log holds for this sequence' };
            }
          }
        }
      }
      previous = d.hash;
    }
  }

  const logReport: SideReport =
    logBad !== undefined
      ? { status: 'altered', checked: logChecked, first_bad_sequence: logBad.sequence, reason: logBad.reason }
      : to > head
        ? {
            status: 'missing',
            checked: logChecked,
            first_bad_sequence: Math.max(from, head + 1),
            reason: `the chain ends at sequence ${head}`,
          }
        : { status: 'valid', checked: logChecked };
  const storeReport: SideReport =
    storeBad !== undefined
      ? { status: 'altered', checked: storeChecked, first_bad_sequence: storeBad.sequence, reason: storeBad.reason }
      : firstMissing !== undefined
        ? {
            status: 'missing',
            checked: storeChecked,
            first_bad_sequence: firstMissing,
            reason: 'records of the log are not in the query store',
          }
        : { status: 'valid', checked: storeChecked };
  return {
    tenant,
    from_sequence: from,
    to_sequence: to,
    head_sequence: head,
    valid: logReport.status === 'valid' && storeReport.status === 'valid',
    log: logReport,
    read_store: {
      ...storeReport,
      missing,
      retired: retired > 0 ? { from_sequence: 1, to_sequence: retired } : null,
      not_yet_projected:
        projected < lastInLog ? { from_sequence: Math.max(from, projected + 1), to_sequence: lastInLog } : null,
    },
  };
}
