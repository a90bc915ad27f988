/**
 * The identity provider's paths and scopes, in one place (DESIGN "Services as modules"). The spec puts the
 * endpoints under `/cas/...`; the issuer is the public base URL without a path
 * (docs/decisions/0024-issuer-without-path.md), so discovery documents live at the root. The scopes
 * themselves live in domain/identity/identity.scopes.ts so that the seed (infra) and the commands can use
 * them too.
 */
export { CROSS_TENANT_SCOPE, IDENTITY_ADMIN_SCOPE, OIDC_SCOPES } from '../../domain/identity/identity.scopes.ts';

/** everything of the identity provider but discovery; also the Path of its cookies */
export const CAS_BASE = '/cas';
export const OIDC_BASE = `${CAS_BASE}/oidc`;

export const AUTHORIZE_PATH = `${OIDC_BASE}/authorize`;
export const LOGIN_PATH = `${OIDC_BASE}/login`;
export const LOGOUT_PATH = `${OIDC_BASE}/logout`;
export const TOKEN_PATH = `${OIDC_BASE}/token`;
export const JWKS_PATH = `${OIDC_BASE}/jwks`;
export const USERINFO_PATH = `${OIDC_BASE}/userinfo`;
export const INTROSPECT_PATH = `${OIDC_BASE}/introspect`;
export const REVOKE_PATH = `${OIDC_BASE}/revoke`;
/** the spec's token validation */
export const VALIDATE_TOKEN_PATH = `${CAS_BASE}/validate-token`;
export const EXCHANGE_CODE_GET_PATH = `${CAS_BASE}/exchange-code/get`;
export const EXCHANGE_CODE_CONSUME_PATH = `${CAS_BASE}/exchange-code/consume`;

/** the administration API (the spec shows the portal, not an API: these paths are ours), scope identity:admin */
export const ADMIN_BASE = `${CAS_BASE}/admin/v1`;
/** the administration API's OpenAPI 3 document (public, like the bridge's: it describes, it reveals no data) */
export const ADMIN_OPENAPI_PATH = `${ADMIN_BASE}/openapi.json`;

/** RFC 8414 and OpenID Connect Discovery (the same document), RFC 9728 */
export const AUTHORIZATION_SERVER_METADATA_PATH = '/.well-known/oauth-authorization-server';
export const OPENID_CONFIGURATION_PATH = '/.well-known/openid-configuration';
export const PROTECTED_RESOURCE_METADATA_PATH = '/.well-known/oauth-protected-resource';
