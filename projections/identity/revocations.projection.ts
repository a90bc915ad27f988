import type { AccessTokenRef } from '../../domain/identity/grant.decider.ts';
import { GRANT_CATEGORY } from '../../domain/identity/grant.decider.ts';
import type { ReadStore } from '../../infra/core/read-store.port.ts';
import type { Projection } from '../core/projection.ts';
import { readModel } from '../core/read-model.ts';

/**
 * The revocation list the bearer-token verifier consults: one document per revoked access token (jti)
 * that has not expired yet. Fed by GrantRevoked (every live access token of the grant) and TokenRevoked.
 * Entries whose token has expired are dropped (the signature check refuses those anyway), measured by
 * the time of the events applied, so a rebuild gives the same list.
 */
export type RevokedToken = {
  id: string;
  grantId: string;
  /** unix seconds: the token's own expiry */
  exp: number;
  revokedAt: string;
};

export const REVOCATIONS_PROJECTION = 'identity.revocations';

export const revocationsProjection: Projection = {
  name: REVOCATIONS_PROJECTION,
  version: 1,
  categories: [GRANT_CATEGORY],
  eventTypes: ['GrantRevoked', 'TokenRevoked'],
  collections: { revoked: { indexes: [{ name: 'by_exp', fields: { exp: 1 } }] } },
  async apply(events, store) {
    const revoked = store.collection<RevokedToken>('revoked');
    let latest: string | undefined;
    for (const e of events) {
      latest = e.metadata.occurredAt;
      if (e.type === 'GrantRevoked') {
        const d = e.data as { grantId: string; revokedAt: string; accessTokens: AccessTokenRef[] };
        for (const t of d.accessTokens) await revoked.upsert({ id: t.jti, grantId: d.grantId, exp: t.exp, revokedAt: d.revokedAt });
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
export function createRevocationList(readStore: ReadStore): { isRevoked(jti: string): Promise<boolean> } {
  const revoked = readModel<RevokedToken>(readStore, REVOCATIONS_PROJECTION, 'revoked');
  return {
    async isRevoked(jti) {
      return (await revoked.get(jti)) !== null;
    },
  };
}
