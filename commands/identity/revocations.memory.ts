import { type AccessTokenRef, GRANT_CATEGORY } from '../../domain/identity/grant.decider.ts';
import {
  cutoffOf,
  latestCutoff,
  RULE_CATEGORIES,
  RULE_EVENT_TYPES,
  revokedByCutoff,
  ruleKeysOf,
} from '../../domain/identity/revocation.rules.ts';
import type { Clock } from '../../infra/core/clock.port.ts';
import type { EventStore } from '../../infra/core/event-store.port.ts';
import type { LogConsumer } from '../../infra/core/log-consumer.ts';
import { START } from '../../infra/core/position.ts';
import type { RevocationList } from './revocations.checker.ts';

/**
 * The revocation list in memory, in every process: a log consumer fed by the process's log reader
 * (GrantRevoked: every live access token of the grant; TokenRevoked: one; ClientDisabled and UserDisabled:
 * the rules "every token of this client / user issued until now", revocation.rules.ts), so a token revoked
 * anywhere is refused here as soon as this process has read the event (one page: milliseconds), with no
 * read-store query per request. Until it has caught up with the log as it was when it started, it answers
 * through `fallback` (the identity.revocations read model). Expired jtis are dropped: the signature check
 * refuses those tokens anyway. Rules are one entry per disabling and are kept.
 */
export type RevocationMemory = LogConsumer & RevocationList;

const PRUNE_EVERY = 1_000;

export function createRevocationMemory(deps: {
  eventStore: EventStore;
  clock: Clock;
  fallback: RevocationList;
}): RevocationMemory {
  /** jti -> exp (unix seconds) */
  const revoked = new Map<string, number>();
  /** rule key -> cutoff (unix seconds) */
  const cutoffs = new Map<string, number>();
  let caughtUpAt: string | undefined;
  let position = START;
  let added = 0;

  const add = (jti: string, exp: number) => {
    revoked.set(jti, exp);
    if (++added % PRUNE_EVERY === 0) {
      const now = Math.floor(deps.clock.now().getTime() / 1000);
      for (const [k, e] of revoked) if (e < now - 300) revoked.delete(k);
    }
  };
  const caughtUp = () => caughtUpAt !== undefined && position >= caughtUpAt;

  return {
    name: 'identity.revocations-memory',
    filter: {
      categories: [GRANT_CATEGORY, ...RULE_CATEGORIES],
      eventTypes: ['GrantRevoked', 'TokenRevoked', ...RULE_EVENT_TYPES],
    },
    async start() {
      revoked.clear();
      cutoffs.clear();
      position = START;
      caughtUpAt = await deps.eventStore.headPosition();
      return START;
    },
    async handle(page) {
      for (const e of page.events) {
        if (e.position <= position) continue;
        if (e.type === 'GrantRevoked')
          for (const t of (e.data as { accessTokens: AccessTokenRef[] }).accessTokens) add(t.jti, t.exp);
        else if (e.type === 'TokenRevoked') add((e.data as { jti: string }).jti, (e.data as { exp: number }).exp);
        else {
          const rule = cutoffOf(e);
          if (rule !== null) cutoffs.set(rule.key, Math.max(rule.before, cutoffs.get(rule.key) ?? rule.before));
        }
      }
      if (page.position > position) position = page.position;
      return position;
    },
    async isRevoked(token) {
      if (revoked.has(token.jti)) return true;
      if (
        revokedByCutoff(
          token.iat,
          latestCutoff(cutoffs, ruleKeysOf({ clientId: token.clientId, tenant: token.tenant, subject: token.subject })),
        )
      )
        return true;
      if (caughtUp()) return false;
      return deps.fallback.isRevoked(token);
    },
    async cutoff(owner) {
      const here = latestCutoff(cutoffs, ruleKeysOf(owner));
      if (caughtUp()) return here;
      const there = await deps.fallback.cutoff(owner);
      return here === undefined ? there : there === undefined ? here : Math.max(here, there);
    },
  };
}
