import type { Client, Tenant, User } from '../../domain/identity/model.ts';
import type { ClientDoc, TenantDoc, UserDoc } from '../../projections/identity/directory.projection.ts';

/*
 * What the administration API answers, from the model (one item) or the read model (lists): snake_case
 * fields, the client's those of the spec's registration table, and never a secret hash.
 */

export const tenantView = (t: Tenant | TenantDoc) => ({
  code: t.code,
  name: t.name,
  token_lifetime_seconds: t.tokenLifetimeSeconds,
  support_mail_group: t.supportMailGroup ?? null,
  status: t.status,
});

export const userView = (u: User | UserDoc) => ({
  user_id: u.userId,
  tenant: u.tenant,
  user_source_id: u.directory,
  username: u.username,
  name: u.name,
  nickname: u.nickname ?? null,
  email: u.email ?? null,
  roles: u.roles,
  status: u.status,
});

export const clientView = (c: Client | ClientDoc) => ({
  client_id: c.clientId,
  tenant_code: c.tenant,
  app_name: c.appName ?? null,
  signin_redirect_url: c.redirectUris,
  signout_redirect_url: c.postLogoutRedirectUris,
  grant_type: c.grantTypes,
  token_endpoint_auth_method: c.authMethod,
  user_source_id: c.userSourceId,
  default_user: c.defaultUser ?? null,
  allowed_access_tenants: c.allowedAccessTenants,
  scopes: c.scopes,
  jwks: c.jwks ?? null,
  allow_plain_pkce: c.allowPlainPkce,
  has_client_secret: 'hasSecret' in c ? c.hasSecret : c.secretHash !== undefined,
  status: c.status,
});
