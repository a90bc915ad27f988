import { assertNever, type Decider } from '../core/decider.ts';
import type { DomainEvent } from '../core/event.ts';
import { streamName } from '../core/stream-name.ts';
import { auditError } from './audit.errors.ts';
import { MAX_RETENTION_DAYS } from './audit.limits.ts';

/**
 * A tenant's retention of audit records, stream `auditRetention-<tenant>.policy`. `days` null (the default)
 * keeps every record. A daily job (the work engine's due item of the `audit.retention` projection) retires
 * the records older than `days` from the query store: it appends `RetentionApplied` with the last sequence
 * retired (records are in time order along the chain, so the retired ones are a prefix 1..through), and the
 * records projection removes them. The log keeps every record: `verify` still checks the whole chain and
 * reports the retired range.
 */
export const RETENTION_CATEGORY = 'auditRetention';
export const retentionStream = (tenant: string): string => streamName(RETENTION_CATEGORY, tenant, 'policy');
export const DAY_MS = 86_400_000;

export type RetentionState = {
  days: number | null;
  /** last sequence retired from the query store (0: none) */
  retired_through: number;
  /** the cutoff of the last run (records before it are retired) */
  retired_before?: string;
  last_run_at?: string;
  updated_at?: string;
};

export type RetentionCommand =
  | { type: 'SetRetention'; days: number | null; now: string }
  | { type: 'ApplyRetention'; cutoff: string; through_sequence: number; now: string };

export type RetentionSet = DomainEvent<'RetentionSet', { days: number | null; at: string }>;
export type RetentionApplied = DomainEvent<
  'RetentionApplied',
  { cutoff: string; through_sequence: number; at: string }
>;
export type RetentionEvent = RetentionSet | RetentionApplied;
export const RETENTION_EVENT_TYPES: ReadonlyArray<RetentionEvent['type']> = ['RetentionSet', 'RetentionApplied'];

export const retentionDecider: Decider<RetentionCommand, RetentionEvent, RetentionState> = {
  initialState: () => ({ days: null, retired_through: 0 }),

  evolve(state, event) {
    switch (event.type) {
      case 'RetentionSet':
        return { ...state, days: event.data.days, updated_at: event.data.at };
      case 'RetentionApplied':
        return {
          ...state,
          retired_through: Math.max(state.retired_through, event.data.through_sequence),
          retired_before: event.data.cutoff,
          last_run_at: event.data.at,
        };
      default:
        return assertNever(event);
    }
  },

  decide(command, state) {
    switch (command.type) {
      case 'SetRetention': {
        const { days } = command;
        if (days !== null && (!Number.isInteger(days) || days < 1 || days > MAX_RETENTION_DAYS)) {
          throw auditError(
            'RETENTION.INVALID',
            `days must be an integer from 1 to ${MAX_RETENTION_DAYS}, or null to keep every record`,
            [{ in: 'body', field: 'days', message: `must be 1-${MAX_RETENTION_DAYS} or null` }],
          );
        }
        if (days === state.days && state.updated_at !== undefined) return [];
        return [{ type: 'RetentionSet', data: { days, at: command.now } }];
      }
      case 'ApplyRetention': {
        // the policy was cleared meanwhile: nothing to retire, and no next run
        if (state.days === null) return [];
        const through = Math.max(state.retired_through, command.through_sequence);
        return [
          { type: 'RetentionApplied', data: { cutoff: command.cutoff, through_sequence: through, at: command.now } },
        ];
      }
      default:
        return assertNever(command);
    }
  },
};

/** the instant before which records are retired, for a run at `now` */
export const retentionCutoff = (now: Date, days: number): string =>
  new Date(now.getTime() - days * DAY_MS).toISOString();
