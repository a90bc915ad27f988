import type { DomainEvent } from '../../domain/core/event.ts';
import type { AccessTokenRef, GrantState } from '../../domain/identity/grant.decider.ts';
import {
  cutoffOf,
  latestCutoff,
  revokedByCutoff,
  ruleKeysOf,
  type TokenOwner,
  type TokenRef,
} from '../../domain/identity/revocation.rules.ts';
import type { Clock } from '../../infra/core/clock.port.ts';
import { grantIdOf } from './grants/grant.ids.ts';

export type { TokenOwner, TokenRef } from '../../domain/identity/revocation.rules.ts';

/**
 * Is this access token revoked? The revocation list holds what was revoked, never what was issued (a
 * client_credentials token is issued without writing anything), so a token is valid unless it is listed
 * or a rule covers it (revocation.rules.ts: its client or its user was disabled after it was issued):
 *
 * - every jti and rule recorded by this process is remembered here at once, so the next request refuses it;
 * - the list of every process is the in-memory revocation list (revocations.memory.ts, fed by the log
 *   reader; the `identity.revocations` read model until it has caught up), passed in as `revocations`;
 * - without it the grant stream itself is read (strongly consistent, one read): revoked when the grant was
 *   revoked as a whole or the jti was (a client_credentials token's grant stream is empty until then).
 */
export type RevocationList = {
  isRevoked(token: TokenRef): Promise<boolean>;
  /** unix seconds: whatever the owner (a client, a user) had issued at or before it is revoked; undefined: no rule */
  cutoff(owner: TokenOwner): Promise<number | undefined>;
};

export type RevocationsChecker = RevocationList & {
  /** the events a command appended here (grant revocations, disablings): they count from now on */
  note(events: Array<Pick<DomainEvent, 'type' | 'data'>>): void;
};

const PRUNE_AT = 10_000;

export function createRevocationsChecker(deps: {
  clock: Clock;
  revocations?: RevocationList;
  loadGrant(grantId: string): Promise<GrantState>;
}): RevocationsChecker {
  /** jti -> exp (unix seconds) of tokens revoked by this process; the revocation list catches up meanwhile */
  const revokedHere = new Map<string, number>();
  /** rule key -> cutoff, recorded by this process */
  const cutoffsHere = new Map<string, number>();

  const remember = (tokens: AccessTokenRef[]) => {
    for (const t of tokens) revokedHere.set(t.jti, t.exp);
    if (revokedHere.size > PRUNE_AT) {
      const now = Math.floor(deps.clock.now().getTime() / 1000);
      for (const [jti, exp] of revokedHere) if (exp <= now) revokedHere.delete(jti);
    }
  };

  const cutoff = async (owner: TokenOwner): Promise<number | undefined> => {
    const here = latestCutoff(cutoffsHere, ruleKeysOf(owner));
    const there = deps.revocations ? await deps.revocations.cutoff(owner) : undefined;
    return here === undefined ? there : there === undefined ? here : Math.max(here, there);
  };

  return {
    note(events) {
      for (const e of events) {
        if (e.type === 'GrantRevoked') remember((e.data as { accessTokens: AccessTokenRef[] }).accessTokens);
        if (e.type === 'TokenRevoked') {
          const d = e.data as { jti: string; exp: number };
          remember([{ jti: d.jti, exp: d.exp }]);
        }
        const rule = cutoffOf(e);
        if (rule !== null) cutoffsHere.set(rule.key, Math.max(rule.before, cutoffsHere.get(rule.key) ?? rule.before));
      }
    },

    cutoff,

    async isRevoked(token) {
      if (revokedHere.has(token.jti)) return true;
      if (
        revokedByCutoff(
          token.iat,
          latestCutoff(
            cutoffsHere,
            ruleKeysOf({ clientId: token.clientId, tenant: token.tenant, subject: token.subject }),
          ),
        )
      )
        return true;
      if (deps.revocations) return deps.revocations.isRevoked(token);
      const grantId = grantIdOf(token.jti);
      if (grantId === undefined) return true;
      const grant = await deps.loadGrant(grantId);
      return grant.status === 'revoked' || grant.revokedJtis.includes(token.jti);
    },
  };
}
