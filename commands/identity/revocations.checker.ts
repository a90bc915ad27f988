import type { DomainEvent } from '../../domain/core/event.ts';
import type { AccessTokenRef, GrantState } from '../../domain/identity/grant.decider.ts';
import type { Clock } from '../../infra/core/clock.port.ts';
import { grantIdOf } from './grants/grant.ids.ts';

/**
 * Is this access token revoked? The revocation list holds what was revoked, never what was issued (a
 * client_credentials token is issued without writing anything), so a token is valid unless it is listed:
 *
 * - every jti revoked by this process is remembered here at once, so the next request refuses it;
 * - the list of every process is the `identity.revocations` projection (`revocations`): a token revoked
 *   elsewhere is refused once the projection has applied the event;
 * - without the projection the grant stream itself is read (strongly consistent, one read): revoked when
 *   the grant was revoked as a whole or the jti was (a client_credentials token's grant stream is empty
 *   until then).
 */
export type RevocationList = { isRevoked(jti: string): Promise<boolean> };

export type RevocationsChecker = RevocationList & {
  /** the events a grant command appended here: their revocations count from now on */
  note(events: DomainEvent[]): void;
};

const PRUNE_AT = 10_000;

export function createRevocationsChecker(deps: {
  clock: Clock;
  revocations?: RevocationList;
  loadGrant(grantId: string): Promise<GrantState>;
}): RevocationsChecker {
  /** jti -> exp (unix seconds) of tokens revoked by this process; the revocation list catches up meanwhile */
  const revokedHere = new Map<string, number>();

  const remember = (tokens: AccessTokenRef[]) => {
    for (const t of tokens) revokedHere.set(t.jti, t.exp);
    if (revokedHere.size > PRUNE_AT) {
      const now = Math.floor(deps.clock.now().getTime() / 1000);
      for (const [jti, exp] of revokedHere) if (exp <= now) revokedHere.delete(jti);
    }
  };

  return {
    note(events) {
      for (const e of events) {
        if (e.type === 'GrantRevoked') remember((e.data as { accessTokens: AccessTokenRef[] }).accessTokens);
        if (e.type === 'TokenRevoked') {
          const d = e.data as { jti: string; exp: number };
          remember([{ jti: d.jti, exp: d.exp }]);
        }
      }
    },

    async isRevoked(jti) {
      if (revokedHere.has(jti)) return true;
      if (deps.revocations) return deps.revocations.isRevoked(jti);
      const grantId = grantIdOf(jti);
      if (grantId === undefined) return true;
      const grant = await deps.loadGrant(grantId);
      return grant.status === 'revoked' || grant.revokedJtis.includes(jti);
    },
  };
}
