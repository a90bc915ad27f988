import { createHash, randomBytes } from 'node:crypto';
import { fold } from '../../domain/core/decider.ts';
import type { DomainEvent } from '../../domain/core/event.ts';
import {
  activeSession,
  type SessionEvent,
  type SessionStartedData,
  sessionDecider,
  sessionStream,
} from '../../domain/identity/session.decider.ts';
import type { Clock } from '../../infra/core/clock.port.ts';
import type { EventStore } from '../../infra/core/event-store.port.ts';
import { type CommandContext, commandHandler, forTenant } from '../core/command-handler.ts';
import { newCommandId } from '../core/event-id.ts';

/** The session id in the log is the SHA-256 of the cookie value: reading the log does not sign anyone in. */
export const sessionIdOf = (cookieValue: string): string =>
  createHash('sha256').update(cookieValue, 'utf8').digest('hex');

const COOKIE_VALUE = /^[A-Za-z0-9_-]{43}$/;

export type Sessions = ReturnType<typeof createSessions>;

export function createSessions(deps: {
  eventStore: EventStore;
  clock: Clock;
  ttlSeconds: number;
  /** the revocation rules: a session of a user disabled since it started is over (revocation.rules.ts) */
  revocations?: { cutoff(owner: { tenant: string; subject: string }): Promise<number | undefined> };
}) {
  const handle = commandHandler(deps.eventStore, sessionDecider);

  return {
    /**
     * Starts a session of `userId` in the context's tenant; the returned `cookieValue` (256 random bits)
     * goes into the session cookie only.
     */
    async start(input: { userId: string; authTime: number }, ctx: CommandContext) {
      const cookieValue = randomBytes(32).toString('base64url');
      const sessionId = sessionIdOf(cookieValue);
      const now = deps.clock.now();
      const data: SessionStartedData = {
        sessionId,
        tenant: ctx.tenant,
        userId: input.userId,
        authTime: input.authTime,
        expiresAt: new Date(now.getTime() + deps.ttlSeconds * 1000).toISOString(),
      };
      await handle({
        stream: sessionStream(sessionId),
        command: { type: 'StartSession', data },
        commandId: newCommandId(),
        now: now.toISOString(),
        context: ctx,
      });
      return { cookieValue, session: data };
    },

    /**
     * The valid session a cookie names, or null (unknown, ended, expired, a malformed value, or its user was
     * disabled since it started: disabling a user ends its sessions, even if the user is enabled again).
     */
    async get(cookieValue: string | undefined): Promise<SessionStartedData | null> {
      if (cookieValue === undefined || !COOKIE_VALUE.test(cookieValue)) return null;
      const events = await deps.eventStore.readStream(sessionStream(sessionIdOf(cookieValue)));
      const state = fold(sessionDecider, events as DomainEvent[] as SessionEvent[]);
      const session = activeSession(state, deps.clock.now().toISOString());
      if (session === null || deps.revocations === undefined) return session;
      const cutoff = await deps.revocations.cutoff({ tenant: session.tenant, subject: session.userId });
      return cutoff !== undefined && session.authTime <= cutoff ? null : session;
    },

    /**
     * Ends the session (SessionEnded); a no-op for an unknown or already ended one. The events are the
     * session's tenant's, its user the actor, whatever session the caller thought it ended.
     */
    async end(cookieValue: string | undefined, ctx: CommandContext): Promise<void> {
      if (cookieValue === undefined || !COOKIE_VALUE.test(cookieValue)) return;
      const sessionId = sessionIdOf(cookieValue);
      const stream = sessionStream(sessionId);
      const events = await deps.eventStore.readStream(stream);
      if (events.length === 0) return;
      const now = deps.clock.now().toISOString();
      const started = events[0]?.data as SessionStartedData | undefined;
      await handle({
        stream,
        command: { type: 'EndSession', data: { sessionId, now } },
        commandId: newCommandId(),
        now,
        context: { ...forTenant(ctx, started?.tenant ?? 'platform'), ...(started && { actor: started.userId }) },
      });
    },
  };
}
