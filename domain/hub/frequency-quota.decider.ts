import type { Decider } from '../core/decider.ts';
import { streamName } from '../core/stream-name.ts';
import { ANY_CATEGORY, type FrequencyCap } from './frequency-cap.decider.ts';
import { hubError } from './hub.errors.ts';
import type { Message } from './notification.model.ts';

/**
 * A recipient's frequency quota (spec "Dispatch gate": "Frequency quota is per logical message, reserved at
 * claim for a tenant-local recipient and channel; retries of a message with a reservation do not consume
 * another slot; a definite rejection releases an uncommitted reservation, accepted or uncertain submission
 * keeps it"). One stream per tenant and recipient identity (`hubQuota-<tenant>.<RecipientId, URI-encoded>`),
 * across all channels ("usage counts across recipient and channel"): each reservation names its message,
 * channel and class. A reservation is appended with the revision the count was made on, so two claims
 * racing for the last slot cannot both take it: the loser re-reads and finds the cap reached. The count is
 * never over the limit, whatever the number of workers.
 *
 * A first claim reads the stream back only as far as the cap's window (at least a day), a message that
 * made attempts reads it whole (commands/hub/dispatch-gate.ts); see docs/hub.md#customer-policies.
 */
export const QUOTA_CATEGORY = 'hubQuota';
export const quotaStream = (tenant: string, recipientId: string) =>
  streamName(QUOTA_CATEGORY, tenant, encodeURIComponent(recipientId));

export type Reservation = {
  MessageId: string;
  Channel: string;
  NotificationClass: string;
  At: string;
  ReleasedAt?: string;
};

export type QuotaEvent =
  | {
      type: 'QuotaReserved';
      data: {
        RecipientId: string;
        MessageId: string;
        Channel: string;
        NotificationClass: string;
        Cap: FrequencyCap;
        Used: number;
        At: string;
      };
    }
  | { type: 'QuotaReleased'; data: { RecipientId: string; MessageId: string; Reason: string; At: string } };

export type QuotaCommand =
  | {
      type: 'ReserveQuota';
      RecipientId: string;
      MessageId: string;
      Channel: string;
      NotificationClass: string;
      Cap: FrequencyCap;
      now: string;
    }
  | { type: 'ReleaseQuota'; RecipientId: string; MessageId: string; Reason: string; now: string };

export type QuotaState = { reservations: Record<string, Reservation> };

/** the reservations that count against `cap` at `now`: unreleased, inside the window, of the cap's class (`*`: any) */
export function usage(state: QuotaState, cap: FrequencyCap, now: string): number {
  const from = new Date(Date.parse(now) - cap.WindowSeconds * 1000).toISOString();
  let n = 0;
  for (const r of Object.values(state.reservations)) {
    if (r.ReleasedAt !== undefined || r.At <= from) continue;
    if (cap.Category === ANY_CATEGORY || r.NotificationClass === cap.Category) n++;
  }
  return n;
}

export const holdsReservation = (state: QuotaState, messageId: string) => {
  const r = state.reservations[messageId];
  return r !== undefined && r.ReleasedAt === undefined;
};

export const quotaDecider: Decider<QuotaCommand, QuotaEvent, QuotaState> = {
  initialState: () => ({ reservations: {} }),
  evolve(state, e) {
    switch (e.type) {
      case 'QuotaReserved': {
        const d = e.data;
        return {
          reservations: {
            ...state.reservations,
            [d.MessageId]: {
              MessageId: d.MessageId,
              Channel: d.Channel,
              NotificationClass: d.NotificationClass,
              At: d.At,
            },
          },
        };
      }
      case 'QuotaReleased': {
        const r = state.reservations[e.data.MessageId];
        if (r === undefined) return state;
        return { reservations: { ...state.reservations, [r.MessageId]: { ...r, ReleasedAt: e.data.At } } };
      }
    }
  },
  decide(c, state) {
    switch (c.type) {
      case 'ReserveQuota': {
        // a message that holds its slot (a retry, a manual retry, a second worker) takes no other
        if (holdsReservation(state, c.MessageId)) return [];
        const used = usage(state, c.Cap, c.now);
        if (used >= c.Cap.Limit) {
          throw hubError(
            'QUOTA.EXCEEDED',
            `recipient reached the frequency cap ${c.Cap.Category}: ${used} of ${c.Cap.Limit} in ${c.Cap.WindowSeconds} s`,
            {
              Category: c.Cap.Category,
              Limit: c.Cap.Limit,
              WindowSeconds: c.Cap.WindowSeconds,
              Used: used,
            },
          );
        }
        return [
          {
            type: 'QuotaReserved',
            data: {
              RecipientId: c.RecipientId,
              MessageId: c.MessageId,
              Channel: c.Channel,
              NotificationClass: c.NotificationClass,
              Cap: c.Cap,
              Used: used + 1,
              At: c.now,
            },
          },
        ];
      }
      case 'ReleaseQuota':
        if (!holdsReservation(state, c.MessageId)) return [];
        return [
          {
            type: 'QuotaReleased',
            data: { RecipientId: c.RecipientId, MessageId: c.MessageId, Reason: c.Reason, At: c.now },
          },
        ];
    }
  },
};

/**
 * Is a message's reservation committed? An attempt was accepted (by its answer or a receipt), delivered,
 * or its outcome is uncertain or lost (the receiver may have it): then the slot stays used. Only a message
 * that ended (definite final failure, suppressed, expired, cancelled) without any such attempt releases it.
 */
export function quotaCommitted(m: Message): boolean {
  return (
    m.DeliveryUncertain ||
    m.Attempts.some(
      (a) =>
        a.Outcome === 'ACCEPTED' ||
        a.Outcome === 'UNCERTAIN' ||
        a.Outcome === 'LOST' ||
        a.Evidence === 'ACCEPTED' ||
        a.Evidence === 'DELIVERED',
    )
  );
}

/** has the message ended with nothing committed (its reservation may be released)? */
export function quotaReleasable(m: Message): boolean {
  if (quotaCommitted(m)) return false;
  if (m.State === 'FAILED') return m.FinalFailure;
  return m.State === 'SUPPRESSED' || m.State === 'EXPIRED' || m.State === 'CANCELLED';
}
