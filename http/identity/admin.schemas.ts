import { TENANT_CODE } from '../../domain/core/tenant-code.ts';
import { pagingProperties } from '../core/paging.ts';
import type { JsonSchema } from '../core/validate.ts';

/* JSON schema pieces the admin resources share (each resource's request schemas live beside its routes). */

export const pattern = (re: RegExp) => re.source;
export const tenantCode = { type: 'string', pattern: pattern(TENANT_CODE) };
export const nullable = (schema: JsonSchema): JsonSchema => ({ anyOf: [schema, { type: 'null' }] });
/** a comma-separated string or an array of `item` */
export const stringOrList = (item: JsonSchema): JsonSchema => ({
  anyOf: [
    { type: 'string', maxLength: 4000 },
    { type: 'array', maxItems: 50, items: item },
  ],
});
export const email = { type: 'string', format: 'email', maxLength: 320 };
export const name = { type: 'string', minLength: 1, maxLength: 200 };
export const status = { type: 'string', enum: ['active', 'disabled'] };
export const paging = pagingProperties();
/** `?tenant=` on user routes: a platform admin acting on another tenant */
export const tenantQuery: JsonSchema = {
  type: 'object',
  properties: { tenant: tenantCode },
  additionalProperties: false,
};

/* What the answers look like (the OpenAPI document's response schemas; admin.views.ts builds them). */

const str = { type: 'string' };
const strList = { type: 'array', items: str };
const orNull = (schema: JsonSchema): JsonSchema => ({ ...schema, nullable: true });

export const tenantAnswer: JsonSchema = {
  type: 'object',
  properties: {
    code: str,
    name: str,
    token_lifetime_seconds: { type: 'integer' },
    support_mail_group: orNull(str),
    status,
  },
  example: {
    code: 'acme',
    name: 'ACME Insurance',
    token_lifetime_seconds: 7200,
    support_mail_group: 'support@acme.example',
    status: 'active',
  },
};

/** a full profile: every claim of the spec's ID token table (name, nickname, preferred_username = username, email) */
export const userExample = {
  user_id: 'c0ffee00-1234-5678-9abc-def012345678',
  tenant: 'acme',
  user_source_id: 'default',
  username: 'jdoe',
  name: 'Jane Doe',
  nickname: 'Jane',
  email: 'jane.doe@acme.example',
  roles: ['identity:admin'],
  status: 'active',
};

export const userAnswer: JsonSchema = {
  type: 'object',
  properties: {
    user_id: str,
    tenant: str,
    user_source_id: str,
    username: { ...str, description: 'the preferred_username claim' },
    name: str,
    nickname: orNull(str),
    email: orNull(str),
    roles: strList,
    status,
  },
  example: userExample,
};

export const clientAnswer: JsonSchema = {
  type: 'object',
  properties: {
    client_id: str,
    tenant_code: str,
    app_name: orNull(str),
    signin_redirect_url: strList,
    signout_redirect_url: strList,
    grant_type: strList,
    token_endpoint_auth_method: str,
    user_source_id: str,
    default_user: orNull(str),
    allowed_access_tenants: strList,
    scopes: strList,
    jwks: { type: 'array', nullable: true, items: { type: 'object' } },
    allow_plain_pkce: { type: 'boolean' },
    has_client_secret: { type: 'boolean' },
    client_secret: { ...str, description: 'only in the answer to the registration and to rotate-secret' },
    status,
  },
  example: {
    client_id: 'claims-portal',
    tenant_code: 'acme',
    app_name: 'Claims portal',
    signin_redirect_url: ['https://claims.acme.example/callback'],
    signout_redirect_url: ['https://claims.acme.example/'],
    grant_type: ['authorization_code', 'refresh_token'],
    token_endpoint_auth_method: 'client_secret_basic',
    user_source_id: 'default',
    default_user: null,
    allowed_access_tenants: [],
    scopes: [],
    jwks: null,
    allow_plain_pkce: false,
    has_client_secret: true,
    status: 'active',
  },
};
