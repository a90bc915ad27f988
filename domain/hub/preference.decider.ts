import type { Decider } from '../core/decider.ts';
import { streamName } from '../core/stream-name.ts';
import { CHANNEL_CODE } from './config.model.ts';
import { hubError, type Violation } from './hub.errors.ts';

/**
 * Customer preferences (spec "Dispatch gate", "Events": "an explicit opt-out updates channel preference;
 * provider failure or bounce codes do not change consent"): one aggregate per tenant, recipient identity
 * (the send request's RecipientId, the explicit preference subject), channel and notification class
 * (the definition's NotificationClass, or `*` for every class of the channel), holding ALLOW or DENY.
 * Stream `hubPreference-<tenant>.<Channel>.<NotificationClass>.<RecipientId, URI-encoded>`.
 *
 * Only the preference API and explicit OPT_OUT / OPT_IN interactions write here; receipts never do.
 */
export const PREFERENCE_CATEGORY = 'hubPreference';
export const ANY_CLASS = '*';

export type PreferenceDecision = 'ALLOW' | 'DENY';
/** who set it: the API (admin or customer front end) or a recorded interaction */
export type PreferenceSource = 'API' | 'INTERACTION';
export type PreferenceKey = { RecipientId: string; Channel: string; NotificationClass: string };
export type Preference = PreferenceKey & {
  Decision: PreferenceDecision;
  Source: PreferenceSource;
  InteractionId?: string;
  UpdatedAt: string;
};

export const preferenceId = (k: PreferenceKey) =>
  `${k.Channel}.${k.NotificationClass}.${encodeURIComponent(k.RecipientId)}`;
export const preferenceStream = (tenant: string, k: PreferenceKey) =>
  streamName(PREFERENCE_CATEGORY, tenant, preferenceId(k));

export type PreferenceEvent =
  | { type: 'PreferenceSet'; data: Preference }
  | { type: 'PreferenceRemoved'; data: PreferenceKey & { At: string } };

export type PreferenceCommand =
  | {
      type: 'SetPreference';
      key: PreferenceKey;
      Decision: PreferenceDecision;
      Source: PreferenceSource;
      InteractionId?: string;
      now: string;
    }
  | { type: 'RemovePreference'; key: PreferenceKey; now: string };

export type PreferenceState = { preference: Preference | null };

export function checkPreferenceKey(k: PreferenceKey): Violation[] {
  const out: Violation[] = [];
  if (typeof k.RecipientId !== 'string' || k.RecipientId.trim() === '' || k.RecipientId.length > 200)
    out.push({ field: 'RecipientId', message: 'must be a nonblank string of at most 200 characters' });
  if (typeof k.Channel !== 'string' || !CHANNEL_CODE.test(k.Channel))
    out.push({ field: 'Channel', message: 'must be a channel code [A-Z][A-Z0-9_]{0,39}' });
  if (
    typeof k.NotificationClass !== 'string' ||
    (k.NotificationClass !== ANY_CLASS && !CHANNEL_CODE.test(k.NotificationClass))
  )
    out.push({
      field: 'NotificationClass',
      message: 'must be an uppercase class such as MARKETING, or * for every class',
    });
  return out;
}

export const preferenceDecider: Decider<PreferenceCommand, PreferenceEvent, PreferenceState> = {
  initialState: () => ({ preference: null }),
  evolve(_state, e) {
    switch (e.type) {
      case 'PreferenceSet':
        return { preference: e.data };
      case 'PreferenceRemoved':
        return { preference: null };
    }
  },
  decide(c, state) {
    const bad = checkPreferenceKey(c.key);
    if (bad.length > 0) throw hubError('PREFERENCE.INVALID', bad.map((v) => `${v.field} ${v.message}`).join('; '), bad);
    const p = state.preference;
    switch (c.type) {
      case 'SetPreference': {
        if (c.Decision !== 'ALLOW' && c.Decision !== 'DENY')
          throw hubError('PREFERENCE.INVALID', 'Decision must be ALLOW or DENY', [
            { field: 'Decision', message: 'must be ALLOW or DENY' },
          ]);
        // the same decision again from the same source changes nothing (a resent request, a repeated opt-out)
        if (p !== null && p.Decision === c.Decision && p.Source === c.Source && p.InteractionId === c.InteractionId)
          return [];
        return [
          {
            type: 'PreferenceSet',
            data: {
              ...c.key,
              Decision: c.Decision,
              Source: c.Source,
              ...(c.InteractionId !== undefined && { InteractionId: c.InteractionId }),
              UpdatedAt: c.now,
            },
          },
        ];
      }
      case 'RemovePreference':
        if (p === null)
          throw hubError('PREFERENCE.NOT_FOUND', 'no preference stored for this recipient, channel and class', {
            ...c.key,
          });
        return [{ type: 'PreferenceRemoved', data: { ...c.key, At: c.now } }];
    }
  },
};

export type PreferenceAnswer = {
  Allowed: boolean;
  /** EXACT: the class's own preference; CHANNEL: the channel's `*` preference; DEFAULT: `comm-hub.preference.default-allow` */
  Source: 'EXACT' | 'CHANNEL' | 'DEFAULT';
  Decision?: PreferenceDecision;
  Preference?: Preference;
};

/**
 * The effective preference for one message: of the class's own preference and the channel's `*` one, the
 * one set LAST wins (the customer's latest word: an opt-out of the whole channel overrides an older
 * class-level ALLOW, and a later class-level ALLOW re-allows that class); at the same instant the exact
 * one. Nothing stored: the default (`comm-hub.preference.default-allow`, false).
 */
export function effectivePreference(
  exact: Preference | null,
  channelWide: Preference | null,
  defaultAllow: boolean,
): PreferenceAnswer {
  const pick =
    exact !== null && (channelWide === null || exact.UpdatedAt >= channelWide.UpdatedAt) ? exact : channelWide;
  if (pick === null) return { Allowed: defaultAllow, Source: 'DEFAULT' };
  return {
    Allowed: pick.Decision === 'ALLOW',
    Source: pick === exact ? 'EXACT' : 'CHANNEL',
    Decision: pick.Decision,
    Preference: pick,
  };
}
