import type { AccessTokenRef } from '../../domain/identity/grant.decider.ts';
import { GRANT_CATEGORY } from '../../domain/identity/grant.decider.ts';
import {
  cutoffOf,
  latestCutoff,
  RULE_CATEGORIES,
  RULE_EVENT_TYPES,
  revokedByCutoff,
  ruleKeysOf,
  type TokenOwner,
  type TokenRef,
} from '../../domain/identity/revocation.rules.ts';
import type { ReadStore } from '../../infra/core/read-store.port.ts';
import type { Projection } from '../core/projection.ts';
import { readModel } from '../core/read-model.ts';

/**
 * The revocation list the bearer-token verifier consults (through the in-memory list until it has caught
 * up): one document per revoked access token (jti) that has not expired yet, fed by GrantRevoked (every
 * live access token of the grant) and TokenRevoked; and one per revocation rule (`cutoffs`: ClientDisabled,
 * UserDisabled: every token of the client or user issued at or before the second of the disabling,
 * commands/identity/revocation.rules.ts). Expired jtis are dropped (the signature check refuses those
 * anyway), measured by the time of the events applied, so a rebuild gives the same list.
 */
export type RevokedToken = {
  id: string;
  grantId: string;
  /** unix seconds: the token's own expiry */
  exp: number;
  revokedAt: string;
};

export type RevocationCutoff = { id: string; before: number };

export const REVOCATIONS_PROJECTION = 'identity.revocations';

export const revocationsProjection: Projection = {
  name: REVOCATIONS_PROJECTION,
  // 2: the revocation rules
  version: 2,
  categories: [GRANT_CATEGORY, ...RULE_CATEGORIES],
  eventTypes: ['GrantRevoked', 'TokenRevoked', ...RULE_EVENT_TYPES],
  collections: { revoked: { indexes: [{ name: 'by_exp', fields: { exp: 1 } }] }, cutoffs: {} },
  async apply(events, store) {
    const revoked = store.collection<RevokedToken>('revoked');
    const cutoffs = store.collection<RevocationCutoff>('cutoffs');
    let latest: string | undefined;
    for (const e of events) {
      latest = e.metadata.occurredAt;
      const rule = cutoffOf(e);
      if (rule !== null) {
        const before = (await cutoffs.get(rule.key))?.before;
        await cutoffs.upsert({ id: rule.key, before: Math.max(rule.before, before ?? rule.before) });
      } else if (e.type === 'GrantRevoked') {
        const d = e.data as { grantId: string; revokedAt: string; accessTokens: AccessTokenRef[] };
        for (const t of d.accessTokens)
          await revoked.upsert({ id: t.jti, grantId: d.grantId, exp: t.exp, revokedAt: d.revokedAt });
      } else if (e.type === 'TokenRevoked') {
        const d = e.data as { grantId: string; jti: string; exp: number; revokedAt: string };
        await revoked.upsert({ id: d.jti, grantId: d.grantId, exp: d.exp, revokedAt: d.revokedAt });
      }
    }
    // five minutes of slack for verifiers whose clocks run behind the writer's
    if (latest !== undefined) await revoked.deleteMany({ exp: { $lt: Math.floor(Date.parse(latest) / 1000) - 300 } });
  },
};

/** The lookup the token service takes as `revocations` (commands/identity/token.service.ts). */
export function createRevocationList(readStore: ReadStore): {
  isRevoked(token: TokenRef): Promise<boolean>;
  cutoff(owner: TokenOwner): Promise<number | undefined>;
} {
  const revoked = readModel<RevokedToken>(readStore, REVOCATIONS_PROJECTION, 'revoked');
  const cutoffs = readModel<RevocationCutoff>(readStore, REVOCATIONS_PROJECTION, 'cutoffs');
  const cutoff = async (owner: TokenOwner) => {
    const keys = ruleKeysOf(owner);
    const docs = keys.length === 0 ? [] : await cutoffs.find({ id: { $in: keys } });
    return latestCutoff(new Map(docs.map((d) => [d.id, d.before])), keys);
  };
  return {
    async isRevoked(token) {
      if ((await revoked.get(token.jti)) !== null) return true;
      return revokedByCutoff(
        token.iat,
        await cutoff({ clientId: token.clientId, tenant: token.tenant, subject: token.subject }),
      );
    },
    cutoff,
  };
}
