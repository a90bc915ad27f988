/**
 * What the portal's backend-for-frontend needs from outside http/: the identity provider as a relying
 * party sees it (infra/portal/provider.client.ts), the per-tenant portal clients
 * (commands/portal/portal-clients.ts) and a box that seals tokens at rest.
 */

/** A token endpoint answer, as the portal keeps it. */
export type TokenSet = {
  accessToken: string;
  /** seconds */
  expiresIn: number;
  refreshToken?: string;
  idToken?: string;
  /** the scopes granted (the token's `scope`) */
  scopes: string[];
};

/** What a verified ID token says about the user. */
export type IdTokenClaims = { sub: string; tenant: string; name?: string; username?: string };

export type PortalProvider = {
  /** the browser-facing authorization endpoint (the issuer's) */
  authorizationEndpoint: string;
  /** the browser-facing RP-initiated logout endpoint */
  endSessionEndpoint: string;
  redeemCode(input: { clientId: string; code: string; codeVerifier: string; redirectUri: string }): Promise<TokenSet>;
  refresh(input: { clientId: string; refreshToken: string }): Promise<TokenSet>;
  /** best effort: the session ends whether or not the provider could be told */
  revoke(input: { clientId: string; token: string; hint: 'refresh_token' | 'access_token' }): Promise<void>;
  /** signature (the provider's keys), iss, aud, exp and the nonce; throws a ProviderError when any fails */
  verifyIdToken(input: { clientId: string; idToken: string; nonce: string }): Promise<IdTokenClaims>;
};

/** A refusal by the provider (RFC 6749 `error`), or a token the portal cannot accept. */
export class ProviderError extends Error {
  constructor(
    readonly error: string,
    message: string,
    /** the provider could not be reached or answered no JSON (not the user's or the grant's fault) */
    readonly unavailable = false,
  ) {
    super(message);
    this.name = 'ProviderError';
  }
}

export const isProviderError = (e: unknown): e is ProviderError => e instanceof ProviderError;

export type PortalClients = {
  /**
   * The tenant's portal client, registered (or brought up to date) if it is not: its client id, or null
   * when there is no such active tenant, or its portal client was disabled by an administrator.
   */
  ensure(tenant: string): Promise<string | null>;
};

export type { Sealer } from '../../domain/core/sealed-secret.ts';
