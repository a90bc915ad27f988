import { TENANT_OPERATIONS } from './schema/tenant-operations.ts';

/**
 * The tenant a platform administrator acts on, when it is not their own: the `tenant` search parameter of
 * the page's URL (the header's picker sets it; links keep it). The API client adds it to the operations
 * that take it (the list is generated from the OpenAPI documents).
 */
export const targetTenant = (): string | undefined => {
  const value = new URLSearchParams(window.location.search).get('tenant');
  return value === null || value === '' ? undefined : value;
};

const OPERATIONS = new Set(TENANT_OPERATIONS);

/** whether the operation (`GET`, `/cas/admin/v1/users/{id}`) takes `tenant` as a query parameter */
export const takesTenant = (method: string, schemaPath: string): boolean =>
  OPERATIONS.has(`${method.toUpperCase()} ${schemaPath}`);
