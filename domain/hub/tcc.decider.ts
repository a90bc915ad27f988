import { assertNever, type Decider } from '../core/decider.ts';
import { streamName } from '../core/stream-name.ts';
import { hubError } from './hub.errors.ts';
import type { Acknowledgement, NotificationRecord, PlannedMessage } from './notification.model.ts';

/**
 * A TCC branch of a send (spec "Send request rules" 5 and "TCC command states"): its own aggregate, one
 * stream per (tenant, Xid, BranchId): `hubTcc-<tenant>.<CommandId>`.
 *
 * - Try persists the prepared command: the send request validated and prepared like a send (definition,
 *   snapshot captured or reused, every message planned, the acknowledgement it will answer), no provider
 *   call. State PREPARED.
 * - Confirm marks it READY; the command worker claims it and materializes it (the notification accepted
 *   with what Try prepared, hence with the snapshot retained at Try), then dispatches after that commit.
 * - Cancel prevents materialization. A Cancel before any Try (an "empty rollback") leaves a tombstone:
 *   the late Try that arrives after it is refused, so a suspended branch never materializes.
 * - Fences: a worker claims with a fence (its lease number on the due item, rising with every claim), and
 *   only the holder of the highest fence may complete; a worker whose lease was taken over, a completion
 *   after the command completed, a Confirm after Cancel and a Cancel after Confirm are refused.
 * - Repeats answer the original: the same Try, Confirm or Cancel again appends nothing.
 *
 * States (PREPARED, READY and the cancellation are the spec's; MATERIALIZED is ours: the command done):
 * none | TOMBSTONE | PREPARED | READY | CANCELLED | MATERIALIZED.
 */
export const TCC_CATEGORY = 'hubTcc';
export const tccStream = (tenant: string, commandId: string) => streamName(TCC_CATEGORY, tenant, commandId);

export type TccPrepared = {
  Notification: NotificationRecord;
  Messages: PlannedMessage[];
  Acknowledgement: Acknowledgement;
};
/** CREATED: first materialization (a send's 201); REPLAYED: the notification was there with the same content (200); CONFLICT: the RequestId was taken by other content (409) */
export type TccResult = 'CREATED' | 'REPLAYED' | 'CONFLICT';

export type TccEvent =
  | {
      type: 'TccTried';
      data: {
        CommandId: string;
        Xid: string;
        BranchId: string;
        RequestId: string;
        NotificationId: string;
        RequestHash: string;
        Prepared: TccPrepared;
        At: string;
      };
    }
  | { type: 'TccConfirmed'; data: { CommandId: string; At: string } }
  | { type: 'TccCancelled'; data: { CommandId: string; Xid: string; BranchId: string; Tombstone: boolean; At: string } }
  | { type: 'TccClaimed'; data: { CommandId: string; Fence: number; Owner: string; At: string } }
  | {
      type: 'TccMaterialized';
      data: {
        CommandId: string;
        Fence: number;
        Result: TccResult;
        Acknowledgement?: Acknowledgement;
        Error?: string;
        At: string;
      };
    };

export const TCC_EVENT_TYPES: ReadonlyArray<TccEvent['type']> = [
  'TccTried',
  'TccConfirmed',
  'TccCancelled',
  'TccClaimed',
  'TccMaterialized',
];

export type TccStatus = 'TOMBSTONE' | 'PREPARED' | 'READY' | 'CANCELLED' | 'MATERIALIZED';

export type TccState =
  | { status: 'none' }
  | {
      status: TccStatus;
      CommandId: string;
      Xid: string;
      BranchId: string;
      /** absent on a tombstone */
      tried?: Extract<TccEvent, { type: 'TccTried' }>['data'];
      ConfirmedAt?: string;
      CancelledAt?: string;
      /** the highest fence claimed so far (0: never claimed) */
      fence: number;
      materialized?: Extract<TccEvent, { type: 'TccMaterialized' }>['data'];
    };

export type TccCommand =
  | {
      type: 'Try';
      CommandId: string;
      Xid: string;
      BranchId: string;
      RequestId: string;
      NotificationId: string;
      RequestHash: string;
      Prepared: TccPrepared;
      now: string;
    }
  | { type: 'Confirm'; now: string }
  | { type: 'Cancel'; CommandId: string; Xid: string; BranchId: string; now: string }
  | { type: 'Claim'; Fence: number; Owner: string; now: string }
  | {
      type: 'Materialize';
      Fence: number;
      Result: TccResult;
      Acknowledgement?: Acknowledgement;
      Error?: string;
      now: string;
    };

type Known = Exclude<TccState, { status: 'none' }>;

function evolve(state: TccState, event: TccEvent): TccState {
  switch (event.type) {
    case 'TccTried':
      return {
        status: 'PREPARED',
        CommandId: event.data.CommandId,
        Xid: event.data.Xid,
        BranchId: event.data.BranchId,
        tried: event.data,
        fence: 0,
      };
    case 'TccConfirmed':
      return state.status === 'none' ? state : { ...state, status: 'READY', ConfirmedAt: event.data.At };
    case 'TccCancelled':
      if (state.status === 'none')
        return {
          status: 'TOMBSTONE',
          CommandId: event.data.CommandId,
          Xid: event.data.Xid,
          BranchId: event.data.BranchId,
          CancelledAt: event.data.At,
          fence: 0,
        };
      return { ...state, status: 'CANCELLED', CancelledAt: event.data.At };
    case 'TccClaimed':
      return state.status === 'none' ? state : { ...state, fence: Math.max(state.fence, event.data.Fence) };
    case 'TccMaterialized':
      return state.status === 'none' ? state : { ...state, status: 'MATERIALIZED', materialized: event.data };
    default:
      return assertNever(event);
  }
}

const cancelled = (s: Known) =>
  hubError(
    'TCC.CANCELLED',
    s.status === 'TOMBSTONE'
      ? `branch ${s.BranchId} of ${s.Xid} was rolled back before its Try: the late Try is refused`
      : `branch ${s.BranchId} of ${s.Xid} was cancelled`,
    { Xid: s.Xid, BranchId: s.BranchId, Status: s.status },
  );
/** a Try on this state is refused whatever it carries (a cancelled branch, or the tombstone of an empty rollback) */
export function lateTryRefusal(s: TccState): Error | null {
  return s.status === 'TOMBSTONE' || s.status === 'CANCELLED' ? cancelled(s) : null;
}

/** a Try again on a tried branch: null for the same content (the original answer), else 409 TCC.CONFLICT */
export function retriedTryConflict(s: Known, c: { RequestHash: string; RequestId: string }): Error | null {
  if (s.tried!.RequestHash === c.RequestHash && s.tried!.RequestId === c.RequestId) return null;
  return hubError('TCC.CONFLICT', `branch ${s.BranchId} of ${s.Xid} was tried with other content`, {
    Xid: s.Xid,
    BranchId: s.BranchId,
    RequestId: s.tried!.RequestId,
  });
}

const stale = (s: Known, fence: number, what: string) =>
  hubError('TCC.STALE_FENCE', `${what} with fence ${fence} is stale: the command is ${s.status}, fence ${s.fence}`, {
    Xid: s.Xid,
    BranchId: s.BranchId,
    Status: s.status,
    Fence: fence,
    CurrentFence: s.fence,
  });

function decide(c: TccCommand, s: TccState): TccEvent[] {
  switch (c.type) {
    case 'Try': {
      if (s.status === 'none') {
        const { type: _t, now, ...data } = c;
        return [{ type: 'TccTried', data: { ...data, At: now } }];
      }
      const refused = lateTryRefusal(s);
      if (refused !== null) throw refused;
      // the same Try again (a coordinator's retry): the original answer; other content under the branch: 409
      const conflict = retriedTryConflict(s, c);
      if (conflict !== null) throw conflict;
      return [];
    }
    case 'Confirm':
      if (s.status === 'none') throw hubError('TCC.NOT_FOUND', 'no Try prepared this branch: nothing to confirm');
      if (s.status === 'TOMBSTONE' || s.status === 'CANCELLED') throw cancelled(s);
      return s.status === 'PREPARED' ? [{ type: 'TccConfirmed', data: { CommandId: s.CommandId, At: c.now } }] : [];
    case 'Cancel':
      if (s.status === 'none')
        return [
          {
            type: 'TccCancelled',
            data: { CommandId: c.CommandId, Xid: c.Xid, BranchId: c.BranchId, Tombstone: true, At: c.now },
          },
        ];
      if (s.status === 'TOMBSTONE' || s.status === 'CANCELLED') return [];
      if (s.status === 'READY' || s.status === 'MATERIALIZED') {
        throw hubError(
          'TCC.ALREADY_CONFIRMED',
          `branch ${s.BranchId} of ${s.Xid} was confirmed: it can no longer be cancelled`,
          { Xid: s.Xid, BranchId: s.BranchId, Status: s.status },
        );
      }
      return [
        {
          type: 'TccCancelled',
          data: { CommandId: s.CommandId, Xid: s.Xid, BranchId: s.BranchId, Tombstone: false, At: c.now },
        },
      ];
    case 'Claim':
      if (s.status === 'none') throw hubError('TCC.NOT_FOUND', 'no such command');
      if (s.status !== 'READY' || c.Fence <= s.fence) throw stale(s, c.Fence, 'a claim');
      return [{ type: 'TccClaimed', data: { CommandId: s.CommandId, Fence: c.Fence, Owner: c.Owner, At: c.now } }];
    case 'Materialize':
      if (s.status === 'none') throw hubError('TCC.NOT_FOUND', 'no such command');
      // only the holder of the current fence completes, once
      if (s.status !== 'READY' || c.Fence !== s.fence) throw stale(s, c.Fence, 'a completion');
      return [
        {
          type: 'TccMaterialized',
          data: {
            CommandId: s.CommandId,
            Fence: c.Fence,
            Result: c.Result,
            ...(c.Acknowledgement !== undefined && { Acknowledgement: c.Acknowledgement }),
            ...(c.Error !== undefined && { Error: c.Error }),
            At: c.now,
          },
        },
      ];
    default:
      return assertNever(c);
  }
}

export const tccDecider: Decider<TccCommand, TccEvent, TccState> = {
  initialState: () => ({ status: 'none' }),
  evolve,
  decide,
};

/** the answer of every TCC operation and of getById: the branch as it stands */
export type TccView = {
  CommandId: string;
  Xid: string;
  BranchId: string;
  Status: TccStatus;
  RequestId?: string;
  NotificationId?: string;
  TriedAt?: string;
  ConfirmedAt?: string;
  CancelledAt?: string;
  /** MATERIALIZED: what materialization found (the send's idempotency result) */
  Result?: TccResult;
  Acknowledgement?: Acknowledgement;
  Error?: string;
};

export function tccView(s: Known): TccView {
  return {
    CommandId: s.CommandId,
    Xid: s.Xid,
    BranchId: s.BranchId,
    Status: s.status,
    ...(s.tried !== undefined && {
      RequestId: s.tried.RequestId,
      NotificationId: s.tried.NotificationId,
      TriedAt: s.tried.At,
    }),
    ...(s.ConfirmedAt !== undefined && { ConfirmedAt: s.ConfirmedAt }),
    ...(s.CancelledAt !== undefined && { CancelledAt: s.CancelledAt }),
    ...(s.materialized !== undefined && {
      Result: s.materialized.Result,
      ...(s.materialized.Acknowledgement !== undefined && { Acknowledgement: s.materialized.Acknowledgement }),
      ...(s.materialized.Error !== undefined && { Error: s.materialized.Error }),
    }),
  };
}
