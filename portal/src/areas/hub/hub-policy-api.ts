/**
 * The hub's customer-policy answers as the portal reads them (its OpenAPI document leaves the answers
 * open; the shapes are docs/hub.md "Customer policies"), and the readable forms the pages show.
 */
export type Decision = 'ALLOW' | 'DENY';

export type Preference = {
  RecipientId: string;
  Channel: string;
  NotificationClass: string;
  Decision: Decision;
  /** who set it: the API or a recorded interaction */
  Source: 'API' | 'INTERACTION';
  InteractionId?: string;
  UpdatedAt: string;
};

export type EffectivePreference = {
  Allowed: boolean;
  Source: 'EXACT' | 'CHANNEL' | 'DEFAULT';
  Decision?: Decision;
  Preference?: Preference;
};

export type FrequencyCap = { Category: string; Limit: number; WindowSeconds: number; UpdatedAt: string };

export type CapUsage = {
  RecipientId: string;
  Caps: Array<{ Category: string; Limit: number; WindowSeconds: number; Used: number }>;
  Reservations: Array<{
    MessageId: string;
    Channel: string;
    NotificationClass: string;
    At: string;
    ReleasedAt?: string;
  }>;
};

export type QuietWindow = { Start: string; End: string };
export type ChannelQuietHours = { Channel: string; Windows: QuietWindow[]; UpdatedAt: string };
export type QuietHoursList = { TimeZone: string; Items: ChannelQuietHours[] };

export type InteractionStatus = 'RECEIVED' | 'HANDLED' | 'DISMISSED';
export type Interaction = {
  InteractionId: string;
  Type: 'REPLY' | 'OPT_OUT' | 'OPT_IN';
  RecipientId: string;
  Channel: string;
  NotificationClass?: string;
  MessageId?: string;
  Text?: string;
  ReceivedAt: string;
  Status: InteractionStatus;
  RecordedAt: string;
  HandledAt?: string;
  HandledBy?: string;
  Note?: string;
};
export type InteractionPage = { Items: Interaction[]; Total: number; PageNo: number; PageSize: number };

/** the channel and class codes the API takes (a class may also be `*`, every class of the channel) */
export const CODE_HINT = 'Upper case letters, digits and _ (EMAIL, MARKETING)';
export const ANY_CLASS = '*';

const UNITS: ReadonlyArray<[number, string]> = [
  [86_400 * 7, 'week'],
  [86_400, 'day'],
  [3_600, 'hour'],
  [60, 'minute'],
  [1, 'second'],
];

/** a window in the largest unit that divides it: 86400 → "1 day", 5400 → "90 minutes" */
export function readableSeconds(seconds: number): string {
  for (const [size, unit] of UNITS) {
    if (seconds >= size && seconds % size === 0) {
      const n = seconds / size;
      return `${n} ${unit}${n === 1 ? '' : 's'}`;
    }
  }
  return `${seconds} seconds`;
}

/** a cap as a sentence fragment: "3 per 1 day" */
export const readableCap = (c: { Limit: number; WindowSeconds: number }) =>
  `${c.Limit} per ${readableSeconds(c.WindowSeconds)}`;

/** a class as the page says it: `*` is every class of the channel */
export const classLabel = (c: string) => (c === ANY_CLASS ? '* (every class)' : c);

/** a time as the platform stores it, shortened to the minute and marked UTC */
export const at = (iso: string | undefined) => (iso === undefined ? '' : `${iso.slice(0, 16).replace('T', ' ')} UTC`);
