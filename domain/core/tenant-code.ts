/**
 * The form of a tenant code, everywhere one is taken (the identity provider's tenants, bus names, the API's
 * `tenant` parameters, SEED_TENANT, the portal's target tenant): lower-case letters, digits, `_` and `-`,
 * at most 63 characters, starting with a letter or digit.
 */
export const TENANT_CODE = /^[a-z0-9][a-z0-9_-]{0,62}$/;

/** the JSON schema of a tenant code */
export const tenantCodeSchema = { type: 'string', pattern: TENANT_CODE.source } as const;
