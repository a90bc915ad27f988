import type { FrequencyCap } from './frequency-cap.decider.ts';
import { expiredAt, mayStartAutomatic } from './notification.decider.ts';
import type { SuppressionReason } from './notification.gate.decide.ts';
import type { AttemptKind, Message, NotificationState } from './notification.model.ts';
import { effectivePreference, type Preference } from './preference.decider.ts';
import { type QuietWindow, quietHoursRelease } from './quiet-hours.ts';

/**
 * The dispatch gate (spec "Dispatch gate": "rechecked before every new physical attempt: state, turn, due
 * time and expiry; then current preference, quiet hours and quota, each only when its policy is RESPECT"),
 * as one pure function over the notification's state and the live facts the caller read
 * (commands/hub/dispatch-gate.ts reads them; it reads only what a RESPECT policy needs).
 *
 * The steps, in order, each a small named check (the first that does not pass decides):
 *   1. state, turn, due time (AUTO only: a MANUAL attempt is an operator action with its own state guards)
 *   2. expiry: ExpiresAt reached → EXPIRE (no attempt)
 *   3. preference (RESPECT): a DENY that applies → SUPPRESS PREFERENCE_OPTED_OUT; nothing that allows and
 *      `comm-hub.preference.default-allow` false → SUPPRESS PREFERENCE_NOT_ALLOWED
 *   4. quiet hours (RESPECT): inside a window of the channel → DEFER to the window's end (at most ExpiresAt:
 *      a release at or after ExpiresAt expires the message at ExpiresAt)
 *   5. frequency cap (RESPECT, a cap for the class or `*` exists): no RecipientId → SUPPRESS
 *      FREQUENCY_IDENTITY_MISSING; else PASS with the quota request the caller reserves before the attempt
 *      (a full quota then answers FREQUENCY_CAP_EXCEEDED). Preference BYPASS does not bypass this step.
 *
 * Policies are the message's effective ones, frozen at acceptance (rule override, else definition default,
 * else RESPECT: domain/hub/plan.ts); the facts (preferences, windows, caps, usage) are live.
 */
export type GateKind = AttemptKind;

export type AcceptedNotification = Extract<NotificationState, { status: 'accepted' }>;

export type QuotaRequest = {
  RecipientId: string;
  MessageId: string;
  Channel: string;
  NotificationClass: string;
  Cap: FrequencyCap;
};

export type GateDecision =
  | { verdict: 'PASS'; reserve: QuotaRequest | null }
  | { verdict: 'NOT_DUE'; reason: string }
  | { verdict: 'EXPIRE' }
  | { verdict: 'SUPPRESS'; reason: SuppressionReason; detail?: string }
  | { verdict: 'DEFER'; until: string; reason: 'QUIET_HOURS' };

/** the live facts, present for each policy that is RESPECT (absent: not read, the policy is BYPASS) */
export type GateFacts = {
  preference?: { exact: Preference | null; channelWide: Preference | null; defaultAllow: boolean };
  quietHours?: { windows: readonly QuietWindow[]; timeZone: string };
  frequency?: { cap: FrequencyCap | null };
};

export type GateInput = {
  state: AcceptedNotification;
  message: Message;
  now: string;
  kind: GateKind;
  facts: GateFacts;
};

/** which facts the gate needs for this message (its RESPECT policies) */
export function factsNeeded(m: Message): { preference: boolean; quietHours: boolean; frequency: boolean } {
  return {
    preference: m.Policies.PreferencePolicy === 'RESPECT',
    quietHours: m.Policies.QuietHoursPolicy === 'RESPECT',
    frequency: m.Policies.FrequencyCapPolicy === 'RESPECT',
  };
}

type Step = (i: GateInput) => GateDecision | null;

const checkStateTurnDue: Step = (i) => {
  if (i.kind !== 'AUTO') return null;
  if (expiredAt(i.state, i.message, i.now)) return { verdict: 'EXPIRE' };
  return mayStartAutomatic(i.state, i.message, i.now)
    ? null
    : { verdict: 'NOT_DUE', reason: `message is ${i.message.State}: no automatic attempt is due` };
};

const checkExpiry: Step = (i) => {
  const expires = i.state.notification.ExpiresAt;
  return expires !== undefined && i.now >= expires ? { verdict: 'EXPIRE' } : null;
};

const checkPreference: Step = (i) => {
  if (i.message.Policies.PreferencePolicy !== 'RESPECT') return null;
  // acceptance refuses a RESPECT message without RecipientId (RECIPIENT_ID_REQUIRED): nothing to look up
  if (i.message.Recipient?.RecipientId === undefined)
    return {
      verdict: 'SUPPRESS',
      reason: 'PREFERENCE_NOT_ALLOWED',
      detail: 'no RecipientId to look the preference up',
    };
  const p = i.facts.preference;
  if (p === undefined) throw new Error('dispatch gate: the preference facts were not read');
  const a = effectivePreference(p.exact, p.channelWide, p.defaultAllow);
  if (a.Allowed) return null;
  return a.Decision === 'DENY'
    ? {
        verdict: 'SUPPRESS',
        reason: 'PREFERENCE_OPTED_OUT',
        detail: `${a.Source === 'EXACT' ? i.state.notification.NotificationClass : '*'} on ${i.message.Channel} is DENY`,
      }
    : {
        verdict: 'SUPPRESS',
        reason: 'PREFERENCE_NOT_ALLOWED',
        detail: 'no preference allows it and comm-hub.preference.default-allow is false',
      };
};

const checkQuietHours: Step = (i) => {
  if (i.message.Policies.QuietHoursPolicy !== 'RESPECT') return null;
  const q = i.facts.quietHours;
  if (q === undefined) throw new Error('dispatch gate: the quiet hours were not read');
  const release = quietHoursRelease(q.windows, i.now, q.timeZone);
  if (release === null) return null;
  const expires = i.state.notification.ExpiresAt;
  return {
    verdict: 'DEFER',
    until: expires !== undefined && release >= expires ? expires : release,
    reason: 'QUIET_HOURS',
  };
};

const checkFrequency: Step = (i) => {
  if (i.message.Policies.FrequencyCapPolicy !== 'RESPECT') return { verdict: 'PASS', reserve: null };
  const f = i.facts.frequency;
  if (f === undefined) throw new Error('dispatch gate: the frequency cap was not read');
  if (f.cap === null) return { verdict: 'PASS', reserve: null };
  const recipientId = i.message.Recipient?.RecipientId;
  if (recipientId === undefined)
    return {
      verdict: 'SUPPRESS',
      reason: 'FREQUENCY_IDENTITY_MISSING',
      detail: `cap ${f.cap.Category} applies and the message has no RecipientId`,
    };
  return {
    verdict: 'PASS',
    reserve: {
      RecipientId: recipientId,
      MessageId: i.message.MessageId,
      Channel: i.message.Channel,
      NotificationClass: i.state.notification.NotificationClass,
      Cap: f.cap,
    },
  };
};

const GATE_STEPS: ReadonlyArray<[string, Step]> = [
  ['state-turn-due', checkStateTurnDue],
  ['expiry', checkExpiry],
  ['preference', checkPreference],
  ['quiet-hours', checkQuietHours],
  ['frequency', checkFrequency],
];

export function evaluateDispatchGate(input: GateInput): GateDecision {
  for (const [, step] of GATE_STEPS) {
    const d = step(input);
    if (d !== null) return d;
  }
  /* c8 ignore next */
  return { verdict: 'PASS', reserve: null };
}
