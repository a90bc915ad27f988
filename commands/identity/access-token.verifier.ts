import { compactVerify, type JWTHeaderParameters, type JWTPayload, errors as joseErrors, jwtVerify } from 'jose';
import type { AccessContext } from '../../domain/identity/model.ts';
import { setBounded } from '../../infra/core/bounded.ts';
import type { Clock } from '../../infra/core/clock.port.ts';
import { OAuthError } from './oauth.error.ts';
import type { RevocationList, TokenRef } from './revocations.checker.ts';
import type { KeyRing } from './signing-key.ring.ts';

/**
 * Verifies what access-token.issuer.ts signed: access tokens (signature by kid, exp, iss, aud, typ, the
 * access claims, then the revocation list) and ID tokens given back as id_token_hint (signature only).
 */
export type AccessTokenClaims = JWTPayload & {
  iss: string;
  sub: string;
  aud: string | string[];
  exp: number;
  iat: number;
  scope: string;
  client_id: string;
  tenant: string;
  jti: string;
};

export type TokenVerifier = {
  verifyAccessTokenClaims(token: string): Promise<{ context: AccessContext; claims: AccessTokenClaims }>;
  /** signature, iss, aud and expiry only (no typ, no revocation): what revocation needs to trust a jti */
  verifySigned(token: string): Promise<Partial<AccessTokenClaims>>;
  verifyIdTokenHint(idToken: string): Promise<{ sub: string; aud: string[]; tenant: string; sid?: string }>;
};

export const MAX_TOKEN_LENGTH = 8192;
/** how many verified tokens are remembered (the oldest is forgotten first) */
const VERIFIED_TOKENS = 10_000;

export function createTokenVerifier(deps: {
  clock: Clock;
  keyRing: Pick<KeyRing, 'verificationKey'>;
  issuer: string;
  revocations: RevocationList;
}): TokenVerifier {
  const { clock, keyRing, issuer } = deps;

  const getKey = async (header: JWTHeaderParameters) => {
    if (
      header.alg !== 'RS256' ||
      typeof header.kid !== 'string' ||
      header.kid.length === 0 ||
      header.kid.length > 128
    ) {
      throw new TokenRejected('the token is not signed by this issuer');
    }
    const key = await keyRing.verificationKey(header.kid);
    if (key === null) throw new TokenRejected('the token is signed by an unknown key');
    return key;
  };

  // Verified tokens, by their text, until they expire: a client sends the same token with many requests,
  // and what its signature and claims say cannot change. Expiry and the revocation list are checked on
  // every request all the same.
  const verified = new Map<string, { context: AccessContext; claims: AccessTokenClaims }>();
  const remember = (token: string, result: { context: AccessContext; claims: AccessTokenClaims }) => {
    setBounded(verified, token, result, VERIFIED_TOKENS);
  };

  return {
    async verifyAccessTokenClaims(token) {
      if (typeof token !== 'string' || token.length === 0 || token.length > MAX_TOKEN_LENGTH)
        throw invalidToken('malformed token');
      const known = verified.get(token);
      if (known !== undefined) {
        if (known.claims.exp * 1000 > clock.now().getTime()) {
          // the revocation list and its rules (a disabled client or user), on every use of a remembered token
          if (await deps.revocations.isRevoked(tokenRef(known.claims)))
            throw invalidToken('the access token was revoked');
          return known;
        }
        verified.delete(token); // expired: the full check below says so
      }
      let payload: JWTPayload;
      try {
        ({ payload } = await jwtVerify(token, getKey, {
          issuer,
          audience: issuer,
          algorithms: ['RS256'],
          typ: 'JWT',
          currentDate: clock.now(),
          requiredClaims: ['exp', 'iat', 'sub', 'jti'],
        }));
      } catch (err) {
        throw invalidToken(describeJoseError(err));
      }
      const c = payload as Partial<AccessTokenClaims>;
      if (
        typeof c.scope !== 'string' ||
        typeof c.client_id !== 'string' ||
        typeof c.tenant !== 'string' ||
        typeof c.jti !== 'string'
      ) {
        throw invalidToken('not an access token');
      }
      const claims = c as AccessTokenClaims;
      if (await deps.revocations.isRevoked(tokenRef(claims))) throw invalidToken('the access token was revoked');
      const result = {
        claims,
        context: {
          tenant: claims.tenant,
          subject: claims.sub,
          clientId: claims.client_id,
          scopes: claims.scope.split(' ').filter(Boolean),
          jti: claims.jti,
          exp: claims.exp,
        },
      };
      remember(token, result);
      return result;
    },

    async verifySigned(token) {
      const { payload } = await jwtVerify(token, getKey, {
        issuer,
        audience: issuer,
        algorithms: ['RS256'],
        currentDate: clock.now(),
      });
      return payload as Partial<AccessTokenClaims>;
    },

    async verifyIdTokenHint(idToken) {
      const bad = () => new OAuthError('invalid_request', 'id_token_hint is not an ID token of this issuer');
      if (typeof idToken !== 'string' || idToken.length === 0 || idToken.length > MAX_TOKEN_LENGTH) throw bad();
      let payload: Record<string, unknown>;
      try {
        // signature only: an expired ID token is a fine hint (OIDC RP-Initiated Logout 1.0, 2)
        const verified = await compactVerify(idToken, getKey, { algorithms: ['RS256'] });
        payload = JSON.parse(new TextDecoder().decode(verified.payload)) as Record<string, unknown>;
      } catch {
        throw bad();
      }
      const aud = typeof payload.aud === 'string' ? [payload.aud] : payload.aud;
      if (
        payload.iss !== issuer ||
        typeof payload.sub !== 'string' ||
        typeof payload.tenant !== 'string' ||
        !Array.isArray(aud) ||
        !aud.every((a) => typeof a === 'string') ||
        aud.includes(issuer) // an access token is not an ID token
      ) {
        throw bad();
      }
      return {
        sub: payload.sub,
        aud: aud as string[],
        tenant: payload.tenant,
        ...(typeof payload.sid === 'string' && { sid: payload.sid }),
      };
    },
  };
}

/** What the revocation list and its rules look at: the jti, and who the token was issued to, when. */
const tokenRef = (c: AccessTokenClaims): TokenRef => ({
  jti: c.jti,
  iat: c.iat,
  clientId: c.client_id,
  tenant: c.tenant,
  subject: c.sub,
});

/** A failure of the key lookup: its message is safe to show. */
class TokenRejected extends Error {}

function invalidToken(description: string): OAuthError {
  return new OAuthError('invalid_token', description);
}

function describeJoseError(err: unknown): string {
  if (err instanceof TokenRejected) return err.message;
  if (err instanceof joseErrors.JWTExpired) return 'the access token expired';
  if (err instanceof joseErrors.JWTClaimValidationFailed) {
    if (err.claim === 'iss') return 'the token was issued by another issuer';
    if (err.claim === 'aud') return 'the token is not meant for this resource';
    if (err.claim === 'typ') return 'the token is not an access token';
    return `the token's ${err.claim} claim is not valid`;
  }
  if (err instanceof joseErrors.JWSSignatureVerificationFailed) return 'the token signature is not valid';
  if (err instanceof joseErrors.JOSEAlgNotAllowed) return 'the token is not signed with RS256';
  return 'malformed token';
}
