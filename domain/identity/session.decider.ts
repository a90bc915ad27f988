import { assertNever, type Decider } from '../core/decider.ts';
import { identityError } from './identity.errors.ts';
import { PLATFORM_TENANT } from './model.ts';

/**
 * Login sessions at the provider: `session-platform.<sid>`, where sid is the SHA-256 of the cookie value
 * (the cookie itself never enters the log). A session lets the authorization endpoint issue codes without
 * asking for the password again (until it expires, prompt=login, or max_age says otherwise).
 */
export const SESSION_CATEGORY = 'session';
export const sessionStream = (sessionId: string): string => `${SESSION_CATEGORY}-${PLATFORM_TENANT}.${sessionId}`;

export type SessionStartedData = {
  sessionId: string;
  tenant: string;
  userId: string;
  /** unix seconds */
  authTime: number;
  /** ISO instant */
  expiresAt: string;
};

export type SessionEvent =
  | { type: 'SessionStarted'; data: SessionStartedData }
  | { type: 'SessionEnded'; data: { sessionId: string; endedAt: string; reason: 'logout' } };

export type SessionCommand =
  | { type: 'StartSession'; data: SessionStartedData }
  | { type: 'EndSession'; data: { sessionId: string; now: string } };

export type SessionState =
  | { status: 'none' }
  | { status: 'active'; session: SessionStartedData }
  | { status: 'ended'; session: SessionStartedData; endedAt: string };

export const sessionDecider: Decider<SessionCommand, SessionEvent, SessionState> = {
  initialState: () => ({ status: 'none' }),

  evolve(state, event) {
    switch (event.type) {
      case 'SessionStarted':
        return { status: 'active', session: event.data };
      case 'SessionEnded':
        return state.status === 'none'
          ? state
          : { status: 'ended', session: state.session, endedAt: event.data.endedAt };
      default:
        return assertNever(event);
    }
  },

  decide(command, state) {
    switch (command.type) {
      case 'StartSession':
        if (state.status !== 'none') throw identityError('SESSION.ALREADY_STARTED', 'this session id is taken');
        return [{ type: 'SessionStarted', data: command.data }];
      case 'EndSession':
        // Logging out twice, or out of an unknown or expired session, is not an error: nothing to record.
        if (state.status !== 'active') return [];
        return [
          {
            type: 'SessionEnded',
            data: { sessionId: command.data.sessionId, endedAt: command.data.now, reason: 'logout' },
          },
        ];
      default:
        return assertNever(command);
    }
  },
};

/** The session a cookie names, if it is still valid at `now`. */
export function activeSession(state: SessionState, now: string): SessionStartedData | null {
  if (state.status !== 'active') return null;
  return Date.parse(now) < Date.parse(state.session.expiresAt) ? state.session : null;
}
