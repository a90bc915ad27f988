import { GRANT_CATEGORY, type AccessTokenRef } from '../../domain/identity/grant.decider.ts';
import type { Clock } from '../../infra/core/clock.port.ts';
import type { EventStore } from '../../infra/core/event-store.port.ts';
import type { LogConsumer } from '../../infra/core/log-consumer.ts';
import { START } from '../../infra/core/position.ts';
import type { RevocationList } from './revocations.checker.ts';

/**
 * The revocation list in memory, in every process: a log consumer fed by the process's log reader
 * (GrantRevoked: every live access token of the grant; TokenRevoked: one), so a token revoked anywhere is
 * refused here as soon as this process has read the event (one page: milliseconds), with no read-store
 * query per request. Until it has caught up with the log as it was when it started, it answers through
 * `fallback` (the identity.revocations read model). Expired entries are dropped: the signature check
 * refuses those tokens anyway.
 */
export type RevocationMemory = LogConsumer & RevocationList;

const PRUNE_EVERY = 1_000;

export function createRevocationMemory(deps: { eventStore: EventStore; clock: Clock; fallback: RevocationList }): RevocationMemory {
  /** jti -> exp (unix seconds) */
  const revoked = new Map<string, number>();
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

  return {
    name: 'identity.revocations-memory',
    filter: { categories: [GRANT_CATEGORY], eventTypes: ['GrantRevoked', 'TokenRevoked'] },
    async start() {
      revoked.clear();
      position = START;
      caughtUpAt = await deps.eventStore.headPosition();
      return START;
    },
    async handle(page) {
      for (const e of page.events) {
        if (e.position <= position) continue;
        if (e.type === 'GrantRevoked') for (const t of (e.data as { accessTokens: AccessTokenRef[] }).accessTokens) add(t.jti, t.exp);
        else if (e.type === 'TokenRevoked') add((e.data as { jti: string }).jti, (e.data as { exp: number }).exp);
      }
      if (page.position > position) position = page.position;
      return position;
    },
    async isRevoked(jti) {
      if (revoked.has(jti)) return true;
      if (caughtUpAt !== undefined && position >= caughtUpAt) return false;
      return deps.fallback.isRevoked(jti);
    },
  };
}
