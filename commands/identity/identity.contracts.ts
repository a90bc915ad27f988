import type { AccessContext, Client, GrantType, Tenant, User } from '../../domain/identity/model.ts';

/**
 * The seams between the identity provider's parts, so each can be built and tested on its own:
 * - Directory (tenants, users, clients): commands/identity/directory.lookups.ts → createDirectory(deps), over
 *   the directory in memory (directory.cache.ts)
 * - TokenService (signing keys, JWTs, grants, revocation): commands/identity/token.service.ts → createTokenService(deps),
 *   one file per grant under commands/identity/grants/
 * - the OAuth/OIDC flows (authorize, login, codes, sessions, token endpoint, logout) use both.
 * Lookups answer as the aggregate streams would (strongly consistent where a flow's security depends on
 * them: confirmed against the stream's revision), never from projections.
 */
export type Directory = {
  getTenant(code: string): Promise<Tenant | null>;
  getClient(clientId: string): Promise<Client | null>;
  /** constant-time comparison against the stored hash; false for clients without a secret */
  verifyClientSecret(client: Client, secret: string): Promise<boolean>;
  findUserByUsername(tenant: string, directory: string, username: string): Promise<User | null>;
  getUser(tenant: string, userId: string): Promise<User | null>;
  /** false for a disabled user too; the caller never learns which */
  verifyPassword(user: User, password: string): Promise<boolean>;
};

export type IdTokenInput = {
  user: User;
  nonce?: string;
  /** unix seconds of the user's authentication */
  authTime: number;
};

export type IssueInput = {
  client: Client;
  /** the token's tenant: the client's, or a target tenant the client may act for */
  tenant: string;
  subject: string;
  scopes: string[];
  /** when present an ID token is issued too (scope contains openid) */
  idToken?: IdTokenInput;
  /** issue a refresh token (client has the refresh_token grant and offline use is allowed) */
  refresh: boolean;
  /** the authorization code this grant comes from: reusing the code revokes everything issued from it */
  codeId?: string;
  /** command id for idempotency of the events written */
  commandId: string;
  /**
   * The grant asking. `client_credentials`: the token is issued without writing anything (no refresh
   * token, no code, no ID token may be asked for); it stays revocable by its jti. Others, or absent: a
   * grant is started (GrantStarted).
   */
  grantType?: GrantType;
};

export type TokenResponse = {
  access_token: string;
  token_type: 'Bearer';
  expires_in: number;
  scope: string;
  id_token?: string;
  refresh_token?: string;
};

/** Errors at the token endpoint, RFC 6749 5.2. */
export type OAuthErrorCode =
  | 'invalid_request'
  | 'invalid_client'
  | 'invalid_grant'
  | 'unauthorized_client'
  | 'unsupported_grant_type'
  | 'invalid_scope'
  | 'server_error'
  | 'access_denied'
  | 'login_required'
  | 'invalid_token'
  | 'unsupported_response_type';

export type TokenService = {
  /**
   * Issues the tokens of a grant. A started grant writes GrantStarted (+ the refresh token's id); a
   * client_credentials one (`grantType`) writes nothing.
   */
  issue(input: IssueInput): Promise<TokenResponse & { grantId: string }>;
  /** rotation: the presented refresh token is spent; reuse of a spent one revokes the whole grant */
  refresh(
    client: Client,
    refreshToken: string,
    scopes: string[] | undefined,
    commandId: string,
  ): Promise<TokenResponse>;
  /** revokes every token of the grants started from this authorization code */
  revokeByCode(codeId: string, reason: string): Promise<void>;
  /** RFC 7009: an access or refresh token of this client; unknown tokens are not an error */
  revoke(client: Client, token: string, hint?: 'access_token' | 'refresh_token'): Promise<void>;
  /** RFC 7662 response body */
  introspect(token: string): Promise<Record<string, unknown>>;
  /** signature by kid, exp, iss, aud, revocation; throws an error whose `code` is 'invalid_token' */
  verifyAccessToken(token: string): Promise<AccessContext>;
  /** verifies an ID token we issued (id_token_hint at logout); expiry is not checked */
  verifyIdTokenHint(idToken: string): Promise<{ sub: string; aud: string[]; tenant: string; sid?: string }>;
  /** the public keys: every published key (the next one before it signs, old ones until their tokens expire) */
  jwks(): Promise<{ keys: Array<Record<string, unknown>> }>;
  /** signs a short JWT for internal use (exchange codes etc.) with the active key */
  signInternal(claims: Record<string, unknown>, ttlSeconds: number): Promise<string>;
};
