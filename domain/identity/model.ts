/**
 * The identity provider's model, shared by its deciders, commands and routers. Field names follow the
 * spec's client registration table where it has one (001_… "Identity provider: client registration").
 */
// the platform tenant and the access context are shared by every service (domain/core); re-exported for
// the identity code that imports them from here

export type { AccessContext } from '../core/access-context.ts';
export { PLATFORM_TENANT } from '../core/access-context.ts';
/** The user directory a client uses when its registration names none (`user_source_id` absent). */
export const DEFAULT_USER_SOURCE = 'default';

// scopes: domain/identity/identity.scopes.ts

export type GrantType = 'authorization_code' | 'client_credentials' | 'refresh_token' | 'password';
export const GRANT_TYPES: readonly GrantType[] = [
  'authorization_code',
  'client_credentials',
  'refresh_token',
  'password',
];

/**
 * client_secret_basic clients may also send the secret in the form (client_secret_post): both are
 * "the client has a secret". none = public client (PKCE mandatory). private_key_jwt = RFC 7523 with the
 * client's registered public keys.
 */
export type AuthMethod = 'client_secret_basic' | 'client_secret_post' | 'private_key_jwt' | 'none';
export const AUTH_METHODS: readonly AuthMethod[] = [
  'client_secret_basic',
  'client_secret_post',
  'private_key_jwt',
  'none',
];

export type Tenant = {
  code: string;
  name: string;
  /** access token lifetime (expires_in), default 7200 */
  tokenLifetimeSeconds: number;
  /** the bridge's TENANT_PROFILE mail target: the tenant's support mail group */
  supportMailGroup?: string;
  status: 'active' | 'disabled';
};

export type User = {
  tenant: string;
  userId: string;
  /** user directory (user_source_id) */
  directory: string;
  username: string;
  name: string;
  nickname?: string;
  email?: string;
  status: 'active' | 'disabled';
  /** scrypt hash in PHC-like form; never logged, never returned by an API */
  passwordHash: string;
  /** scopes beyond openid/profile/email this user may receive (e.g. identity:admin) */
  roles: string[];
};

export type PublicJwk = Record<string, unknown> & { kty: string; kid?: string };

export type Client = {
  clientId: string;
  /** tenant_code: the tenant that owns the client */
  tenant: string;
  appName?: string;
  /** hash of client_secret; absent for public clients and private_key_jwt clients */
  secretHash?: string;
  /** signin_redirect_url (several allowed; exact match) */
  redirectUris: string[];
  /** signout_redirect_url (exact match at logout) */
  postLogoutRedirectUris: string[];
  grantTypes: GrantType[];
  authMethod: AuthMethod;
  /** user_source_id, DEFAULT_USER_SOURCE when absent */
  userSourceId: string;
  /** default_user: subject of client_credentials tokens */
  defaultUser?: string;
  /** allowed_access_tenants */
  allowedAccessTenants: string[];
  /** scopes the client may ask for beyond openid/profile/email ("API access must be requested") */
  scopes: string[];
  /** public keys for private_key_jwt */
  jwks?: PublicJwk[];
  /** PKCE `plain` accepted only for clients registered with it */
  allowPlainPkce: boolean;
  status: 'active' | 'disabled';
};
