import { assertNever, type Decider } from '../core/decider.ts';
import { type IdentityErrorCode, identityError } from './identity.errors.ts';
import { PLATFORM_TENANT } from './model.ts';

/**
 * A grant is a token family: what one authorization (a code redemption, a password sign-in) gave one
 * client for one subject. Stream `grant-platform.<grantId>`; the tenant is in the data.
 *
 * A client_credentials token is a family of one that nothing can continue (no refresh token, no code):
 * it is issued without any event, with a jti `<grantId>.<random>` whose grant stream stays empty. Revoking
 * it writes TokenRevoked (with the expiry from its verified claims) into that otherwise empty stream.
 *
 * The refresh token is opaque; only its id (a SHA-256 of the token, computed in commands/) reaches the
 * log. Refresh rotates it: the presented id is spent and a new one takes its place. Presenting a spent
 * id again is reuse (RFC 6749 10.4, OAuth 2.0 Security BCP 4.14): the whole grant is revoked, and every
 * access token it issued that has not expired goes into GrantRevoked so the revocation list names them.
 */
export const GRANT_CATEGORY = 'grant';
export const grantStream = (grantId: string): string => `${GRANT_CATEGORY}-${PLATFORM_TENANT}.${grantId}`;

export type AccessTokenRef = {
  jti: string;
  /** unix seconds */
  exp: number;
};

export type GrantStartedData = {
  grantId: string;
  tenant: string;
  clientId: string;
  subject: string;
  scopes: string[];
  /** the authorization code it came from: reusing the code revokes this grant */
  codeId?: string;
  accessJti: string;
  /** unix seconds */
  accessExp: number;
  /** SHA-256 id of the refresh token, when one was issued */
  refreshTokenId?: string;
  /** unix seconds */
  refreshExp?: number;
  /** ISO instant */
  startedAt: string;
};

export type GrantEvent =
  | { type: 'GrantStarted'; data: GrantStartedData }
  | { type: 'AccessTokenIssued'; data: { grantId: string; jti: string; exp: number; scopes: string[] } }
  | {
      type: 'RefreshTokenRotated';
      data: { grantId: string; spentId: string; newId: string; refreshExp: number; rotatedAt: string };
    }
  | { type: 'RefreshTokenReused'; data: { grantId: string; tokenId: string; detectedAt: string } }
  | {
      type: 'GrantRevoked';
      data: { grantId: string; reason: string; revokedAt: string; accessTokens: AccessTokenRef[] };
    }
  | { type: 'TokenRevoked'; data: { grantId: string; jti: string; exp: number; revokedAt: string } };

export type GrantCommand =
  | { type: 'StartGrant'; data: Omit<GrantStartedData, 'startedAt'> & { now: string } }
  | {
      type: 'RefreshGrant';
      data: {
        grantId: string;
        /** SHA-256 id of the presented refresh token */
        presentedId: string;
        clientId: string;
        /** narrower scopes asked for at refresh (RFC 6749 6); absent: the grant's */
        scopes?: string[];
        newRefreshId: string;
        refreshExp: number;
        accessJti: string;
        accessExp: number;
        now: string;
      };
    }
  | {
      type: 'RevokeGrant';
      data: {
        grantId: string;
        reason: string;
        now: string;
        /**
         * Revoke even if the grant has not started yet (a tombstone): a reused authorization code may be
         * detected before the first redemption's grant is written, and that grant must then never start.
         */
        evenIfNotStarted?: boolean;
      };
    }
  | {
      type: 'RevokeToken';
      data: {
        grantId: string;
        jti: string;
        now: string;
        /**
         * The token's own expiry (unix seconds), from its verified claims. A client_credentials token has no
         * GrantStarted (nothing to continue, so nothing is written when it is issued): its grant stream is
         * empty until it is revoked, and this is where the revocation list learns how long to keep it.
         */
        exp?: number;
      };
    };

export type GrantState = {
  status: 'none' | 'active' | 'revoked';
  grant: GrantStartedData | null;
  scopes: string[];
  accessTokens: AccessTokenRef[];
  revokedJtis: string[];
  refresh: { id: string; exp: number } | null;
  spentRefreshIds: string[];
  revokedReason?: string;
};

const seconds = (iso: string) => Math.floor(Date.parse(iso) / 1000);
/** Every refusal of a refresh is invalid_grant at the token endpoint; the codes name the reason. */
const refuse = (code: IdentityErrorCode, message: string) => identityError(code, message);

export const grantDecider: Decider<GrantCommand, GrantEvent, GrantState> = {
  initialState: () => ({
    status: 'none',
    grant: null,
    scopes: [],
    accessTokens: [],
    revokedJtis: [],
    refresh: null,
    spentRefreshIds: [],
  }),

  evolve(state, event) {
    switch (event.type) {
      case 'GrantStarted': {
        const d = event.data;
        return {
          ...state,
          status: 'active',
          grant: d,
          scopes: d.scopes,
          accessTokens: [{ jti: d.accessJti, exp: d.accessExp }],
          refresh: d.refreshTokenId !== undefined ? { id: d.refreshTokenId, exp: d.refreshExp ?? 0 } : null,
        };
      }
      case 'AccessTokenIssued':
        return { ...state, accessTokens: [...state.accessTokens, { jti: event.data.jti, exp: event.data.exp }] };
      case 'RefreshTokenRotated':
        return {
          ...state,
          refresh: { id: event.data.newId, exp: event.data.refreshExp },
          spentRefreshIds: [...state.spentRefreshIds, event.data.spentId],
        };
      case 'RefreshTokenReused':
        return state;
      case 'GrantRevoked':
        return { ...state, status: 'revoked', revokedReason: event.data.reason, refresh: null };
      case 'TokenRevoked':
        return { ...state, revokedJtis: [...state.revokedJtis, event.data.jti] };
      default:
        return assertNever(event);
    }
  },

  decide(command, state) {
    switch (command.type) {
      case 'StartGrant': {
        const { now, ...d } = command.data;
        if (state.status === 'revoked') throw refuse('GRANT.REVOKED', 'the grant was revoked before it started');
        if (state.status === 'active') throw identityError('GRANT.EXISTS', `grant ${d.grantId} exists already`);
        if ((d.refreshTokenId === undefined) !== (d.refreshExp === undefined)) {
          throw identityError('GRANT.INVALID', 'a refresh token needs an expiry and the other way round');
        }
        return [{ type: 'GrantStarted', data: { ...d, startedAt: now } }];
      }

      case 'RefreshGrant': {
        const d = command.data;
        const now = seconds(d.now);
        if (state.status === 'none' || state.grant === null) throw refuse('GRANT.NOT_FOUND', 'unknown refresh token');
        if (state.grant.clientId !== d.clientId)
          throw refuse('GRANT.CLIENT_MISMATCH', 'the refresh token was issued to another client');
        if (state.status === 'revoked') throw refuse('GRANT.REVOKED', 'the grant was revoked');
        if (state.spentRefreshIds.includes(d.presentedId)) {
          // a spent refresh token came back: someone holds a copy. Revoke the whole family.
          return [
            { type: 'RefreshTokenReused', data: { grantId: d.grantId, tokenId: d.presentedId, detectedAt: d.now } },
            revocation(state, d.grantId, 'refresh_token_reused', d.now),
          ];
        }
        if (state.refresh === null || state.refresh.id !== d.presentedId)
          throw refuse('GRANT.NOT_FOUND', 'unknown refresh token');
        if (now >= state.refresh.exp) throw refuse('GRANT.REFRESH_TOKEN_EXPIRED', 'the refresh token expired');
        const scopes = d.scopes ?? state.scopes;
        if (!scopes.every((s) => state.scopes.includes(s))) {
          throw refuse('GRANT.INVALID_SCOPE', 'a refresh cannot widen the scopes of the grant');
        }
        return [
          {
            type: 'RefreshTokenRotated',
            data: {
              grantId: d.grantId,
              spentId: d.presentedId,
              newId: d.newRefreshId,
              refreshExp: d.refreshExp,
              rotatedAt: d.now,
            },
          },
          { type: 'AccessTokenIssued', data: { grantId: d.grantId, jti: d.accessJti, exp: d.accessExp, scopes } },
        ];
      }

      case 'RevokeGrant': {
        const d = command.data;
        if (state.status === 'revoked') return [];
        if (state.status === 'none') {
          return d.evenIfNotStarted
            ? [
                {
                  type: 'GrantRevoked',
                  data: { grantId: d.grantId, reason: d.reason, revokedAt: d.now, accessTokens: [] },
                },
              ]
            : [];
        }
        return [revocation(state, d.grantId, d.reason, d.now)];
      }

      case 'RevokeToken': {
        const d = command.data;
        if (state.status === 'none') {
          // a token issued without a grant stream (client_credentials): its verified expiry is all there is
          if (d.exp === undefined || state.revokedJtis.includes(d.jti)) return [];
          return [{ type: 'TokenRevoked', data: { grantId: d.grantId, jti: d.jti, exp: d.exp, revokedAt: d.now } }];
        }
        if (state.status !== 'active') return []; // revoked as a whole already: nothing to add
        const token = state.accessTokens.find((t) => t.jti === d.jti);
        if (token === undefined || state.revokedJtis.includes(d.jti)) return [];
        return [{ type: 'TokenRevoked', data: { grantId: d.grantId, jti: d.jti, exp: token.exp, revokedAt: d.now } }];
      }

      default:
        return assertNever(command);
    }
  },
};

/** GrantRevoked names every access token of the grant still valid at `now`, for the revocation list. */
function revocation(state: GrantState, grantId: string, reason: string, now: string): GrantEvent {
  const t = seconds(now);
  const accessTokens = state.accessTokens.filter((a) => a.exp > t && !state.revokedJtis.includes(a.jti));
  return { type: 'GrantRevoked', data: { grantId, reason, revokedAt: now, accessTokens } };
}
