import { TENANT_CODE } from '../../domain/identity/tenant.decider.ts';
import type { JsonSchema } from '../core/validate.ts';

/* JSON schema pieces the admin resources share (each resource's request schemas live beside its routes). */

export const pattern = (re: RegExp) => re.source;
export const tenantCode = { type: 'string', pattern: pattern(TENANT_CODE) };
export const nullable = (schema: JsonSchema): JsonSchema => ({ anyOf: [schema, { type: 'null' }] });
/** a comma-separated string or an array of `item` */
export const stringOrList = (item: JsonSchema): JsonSchema => ({
  anyOf: [{ type: 'string', maxLength: 4000 }, { type: 'array', maxItems: 50, items: item }],
});
export const email = { type: 'string', format: 'email', maxLength: 320 };
export const name = { type: 'string', minLength: 1, maxLength: 200 };
export const status = { type: 'string', enum: ['active', 'disabled'] };
export const paging = {
  limit: { type: 'integer', minimum: 1, maximum: 200, default: 50 },
  offset: { type: 'integer', minimum: 0, maximum: 1_000_000, default: 0 },
};
/** `?tenant=` on user routes: a platform admin acting on another tenant */
export const tenantQuery: JsonSchema = { type: 'object', properties: { tenant: tenantCode }, additionalProperties: false };
