import type { DomainEvent } from '../core/event.ts';

/**
 * Revocation by rule: disabling a client revokes every token issued to it, disabling a
 * user every token issued for it, in one rule each instead of a list of tokens nobody kept (client
 * credentials tokens are issued without writing anything). The rules are the disabling events themselves
 * (ClientDisabled, UserDisabled, in the client's and the user's own streams: recorded atomically with the
 * disabling): "every token of client X issued at or before T", "every token of user (tenant, sub) issued at
 * or before T". A token is checked with its own claims (iat, client_id, tenant, sub); grants and login
 * sessions with the time they started.
 *
 * Token times are whole seconds, so the cutoff is the second of the disabling: a token issued in that second
 * is refused even if it came after a re-enabling in the same second (it is never the other way round).
 * Re-enabling does not lift a rule: what was revoked stays revoked; what is issued afterwards is valid.
 */
export const RULE_EVENT_TYPES = ['ClientDisabled', 'UserDisabled'] as const;
export const RULE_CATEGORIES = ['client', 'user'] as const;

/** The claims a rule looks at. */
export type TokenRef = { jti: string; iat: number; clientId: string; tenant: string; subject: string };

/** Whose tokens: a client's (clientId) and/or a user's (tenant, subject). */
export type TokenOwner = { clientId?: string; tenant: string; subject?: string };

export type Cutoff = { key: string; before: number };

export const clientRuleKey = (clientId: string): string => `client/${clientId}`;
export const userRuleKey = (tenant: string, userId: string): string => `user/${tenant}/${userId}`;

/** The rule keys that apply to an owner. */
export const ruleKeysOf = (o: TokenOwner): string[] => [
  ...(o.clientId !== undefined ? [clientRuleKey(o.clientId)] : []),
  ...(o.subject !== undefined ? [userRuleKey(o.tenant, o.subject)] : []),
];

const seconds = (iso: string): number => Math.floor(Date.parse(iso) / 1000);

/** The rule an event records, if it records one. */
export function cutoffOf(e: Pick<DomainEvent, 'type' | 'data'>): Cutoff | null {
  if (e.type === 'ClientDisabled') {
    const d = e.data as { clientId: string; disabledAt: string };
    return { key: clientRuleKey(d.clientId), before: seconds(d.disabledAt) };
  }
  if (e.type === 'UserDisabled') {
    const d = e.data as { tenant: string; userId: string; disabledAt: string };
    return { key: userRuleKey(d.tenant, d.userId), before: seconds(d.disabledAt) };
  }
  return null;
}

/** The latest cutoff among `keys` in a map of cutoffs (undefined: no rule applies). */
export function latestCutoff(cutoffs: ReadonlyMap<string, number>, keys: string[]): number | undefined {
  let latest: number | undefined;
  for (const k of keys) {
    const c = cutoffs.get(k);
    if (c !== undefined && (latest === undefined || c > latest)) latest = c;
  }
  return latest;
}

/** A token issued at or before the cutoff is revoked. */
export const revokedByCutoff = (iat: number, cutoff: number | undefined): boolean =>
  cutoff !== undefined && iat <= cutoff;
