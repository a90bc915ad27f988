import type { Decider } from '../core/decider.ts';
import { streamName } from '../core/stream-name.ts';
import { CHANNEL_CODE } from './config.model.ts';
import { hubError, type Violation } from './hub.errors.ts';

/**
 * Frequency caps (spec "Dispatch gate": "The category-specific cap (or `*` fallback) sets limit and window;
 * usage counts across recipient and channel"): the tenant's caps, one aggregate per tenant
 * (`hubFrequencyCaps-<tenant>.caps`), a cap per category (a NotificationClass, or `*`): Limit messages per
 * WindowSeconds (a sliding window).
 *
 * The usage of a recipient is counted in its quota stream (frequency-quota.decider.ts), across all its
 * channels: a message of class C counts against C's cap when one exists, else against `*`. The `*` cap
 * counts every reservation of the recipient (of any class): it is the fallback for classes without a cap
 * of their own and also bounds the recipient's total; a class with its own cap is bounded by that cap only.
 */
export const FREQUENCY_CAPS_CATEGORY = 'hubFrequencyCaps';
export const frequencyCapsStream = (tenant: string) => streamName(FREQUENCY_CAPS_CATEGORY, tenant, 'caps');
export const ANY_CATEGORY = '*';

export type FrequencyCap = { Category: string; Limit: number; WindowSeconds: number };

export type FrequencyCapEvent =
  | { type: 'FrequencyCapSaved'; data: FrequencyCap & { At: string } }
  | { type: 'FrequencyCapRemoved'; data: { Category: string; At: string } };
export type FrequencyCapCommand =
  | { type: 'SaveFrequencyCap'; cap: FrequencyCap; now: string }
  | { type: 'RemoveFrequencyCap'; Category: string; now: string };
export type FrequencyCapState = { caps: Record<string, FrequencyCap & { UpdatedAt: string }> };

export const MAX_CAP_WINDOW_SECONDS = 366 * 86_400;

export function checkFrequencyCap(c: FrequencyCap): Violation[] {
  const out: Violation[] = [];
  if (typeof c.Category !== 'string' || (c.Category !== ANY_CATEGORY && !CHANNEL_CODE.test(c.Category)))
    out.push({ field: 'Category', message: 'must be a NotificationClass such as MARKETING, or *' });
  if (!Number.isInteger(c.Limit) || c.Limit < 0 || c.Limit > 100_000)
    out.push({ field: 'Limit', message: 'must be an integer from 0 to 100000' });
  if (!Number.isInteger(c.WindowSeconds) || c.WindowSeconds < 1 || c.WindowSeconds > MAX_CAP_WINDOW_SECONDS)
    out.push({ field: 'WindowSeconds', message: `must be an integer from 1 to ${MAX_CAP_WINDOW_SECONDS}` });
  return out;
}

export const frequencyCapDecider: Decider<FrequencyCapCommand, FrequencyCapEvent, FrequencyCapState> = {
  initialState: () => ({ caps: {} }),
  evolve(state, e) {
    switch (e.type) {
      case 'FrequencyCapSaved': {
        const { At, ...cap } = e.data;
        return { caps: { ...state.caps, [cap.Category]: { ...cap, UpdatedAt: At } } };
      }
      case 'FrequencyCapRemoved': {
        const { [e.data.Category]: _gone, ...rest } = state.caps;
        return { caps: rest };
      }
    }
  },
  decide(c, state) {
    switch (c.type) {
      case 'SaveFrequencyCap': {
        const bad = checkFrequencyCap(c.cap);
        if (bad.length > 0)
          throw hubError('FREQUENCY_CAP.INVALID', bad.map((v) => `${v.field} ${v.message}`).join('; '), bad);
        const old = state.caps[c.cap.Category];
        if (old !== undefined && old.Limit === c.cap.Limit && old.WindowSeconds === c.cap.WindowSeconds) return [];
        return [
          {
            type: 'FrequencyCapSaved',
            data: { Category: c.cap.Category, Limit: c.cap.Limit, WindowSeconds: c.cap.WindowSeconds, At: c.now },
          },
        ];
      }
      case 'RemoveFrequencyCap':
        if (state.caps[c.Category] === undefined)
          throw hubError('FREQUENCY_CAP.NOT_FOUND', `no frequency cap for ${c.Category}`, { Category: c.Category });
        return [{ type: 'FrequencyCapRemoved', data: { Category: c.Category, At: c.now } }];
    }
  },
};

/** the cap a message of `notificationClass` counts against: the class's own, else `*`, else none */
export function capFor(state: FrequencyCapState, notificationClass: string): FrequencyCap | null {
  const c = state.caps[notificationClass] ?? state.caps[ANY_CATEGORY];
  return c === undefined ? null : { Category: c.Category, Limit: c.Limit, WindowSeconds: c.WindowSeconds };
}
