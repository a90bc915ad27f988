import { createHash, randomBytes } from 'node:crypto';
import { derivedId } from '../../core/event-id.ts';
import { randomToken } from '../../core/random-token.ts';

/**
 * The shapes of what a grant hands out. Every access token's jti is `<grantId>.<random>` and every refresh
 * token `<grantId>.<256 random bits>`, so a revocation or a refresh finds its grant without a lookup table.
 */
/** the refresh token's id in the log: only its SHA-256 is ever written */
export const sha256 = (s: string): string => createHash('sha256').update(s, 'utf8').digest('base64url');

const GRANT_ID = /^[A-Za-z0-9_-]{16,64}$/;

export const newGrantId = (): string => randomToken(16);
export const newJti = (grantId: string): string => `${grantId}.${randomToken(12)}`;
/** a long-lived bearer secret: straight from the CSPRNG, never from the per-request pool (random-token.ts) */
export const newRefreshToken = (grantId: string): string => `${grantId}.${randomBytes(32).toString('base64url')}`;

/** The grant id a jti or a refresh token belongs to (undefined when the string has no such shape). */
export function grantIdOf(tokenOrJti: string): string | undefined {
  const dot = tokenOrJti.indexOf('.');
  const id = dot < 0 ? undefined : tokenOrJti.slice(0, dot);
  return id !== undefined && GRANT_ID.test(id) ? id : undefined;
}

/** The grant of an authorization code has a fixed id: a reused code revokes it, even before it is written. */
export const grantIdForCode = (codeId: string): string => derivedId(`grant/${codeId}`);
