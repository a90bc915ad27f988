import { assertNever, type Decider } from '../core/decider.ts';
import type { DomainEvent } from '../core/event.ts';
import { streamName } from '../core/stream-name.ts';
import { type ChainedRecord, chainHash, GENESIS_HASH, type RecordFields } from './record.ts';

/**
 * A tenant's audit ledger: the chain of its records, one aggregate per tenant, stream
 * `auditLedger-<tenant>.chain`. A record's sequence is its revision + 1, so the sequence is gapless and
 * unique by construction (the stream's expected revision serializes concurrent writers); each record's hash
 * links it to the one before (record.ts chainHash). Records are appended, never changed.
 *
 * Several records may be decided in one command batch (the writer's group commit): each is its own
 * `AuditRecorded` event with its own sequence and hash, decided on the state the previous one left.
 */
export const LEDGER_CATEGORY = 'auditLedger';
export const ledgerStream = (tenant: string): string => streamName(LEDGER_CATEGORY, tenant, 'chain');
export const sequenceOfRevision = (revision: number): number => revision + 1;
export const revisionOfSequence = (sequence: number): number => sequence - 1;

/** the chain's head: the last record's sequence (0: none yet), hash and time */
export type LedgerState = { sequence: number; hash: string; time: string };

export type RecordAudit = {
  type: 'RecordAudit';
  /** the record's id (from the command: a UUID, or derived from the Idempotency-Key) */
  id: string;
  tenant: string;
  fields: RecordFields;
  /** the clock's instant; the record's time is this, or the previous record's time if the clock went back */
  now: string;
  /** the write's Idempotency-Key and content fingerprint: a retry answers this record */
  idempotency_key?: string;
  fingerprint?: string;
};
export type LedgerCommand = RecordAudit;

export type AuditRecordedData = ChainedRecord & { idempotency_key?: string; fingerprint?: string };
export type AuditRecorded = DomainEvent<'AuditRecorded', AuditRecordedData>;
export type LedgerEvent = AuditRecorded;
export const LEDGER_EVENT_TYPES: ReadonlyArray<LedgerEvent['type']> = ['AuditRecorded'];

export const ledgerDecider: Decider<LedgerCommand, LedgerEvent, LedgerState> = {
  initialState: () => ({ sequence: 0, hash: GENESIS_HASH, time: '' }),

  evolve(_state, event) {
    switch (event.type) {
      case 'AuditRecorded':
        return { sequence: event.data.sequence, hash: event.data.hash, time: event.data.time };
      default:
        return assertNever(event.type);
    }
  },

  decide(command, state) {
    switch (command.type) {
      case 'RecordAudit': {
        const time = command.now > state.time ? command.now : state.time;
        const record = {
          ...command.fields,
          id: command.id,
          tenant: command.tenant,
          sequence: state.sequence + 1,
          time,
        };
        const data: AuditRecordedData = {
          ...record,
          hash: chainHash(state.hash, record),
          ...(command.idempotency_key !== undefined && { idempotency_key: command.idempotency_key }),
          ...(command.fingerprint !== undefined && { fingerprint: command.fingerprint }),
        };
        return [{ type: 'AuditRecorded', data }];
      }
      default:
        return assertNever(command.type);
    }
  },
};
