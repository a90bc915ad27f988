import type { Response } from 'express';
import { type AccessContext, CROSS_TENANT_SCOPE, PLATFORM_TENANT } from '../../domain/core/access-context.ts';
import { coreError } from '../../domain/core/core.errors.ts';
import { BearerChallenge } from './bearer-challenge.ts';
import { type CommandMetadata, commandMetadata } from './request-context.ts';

/**
 * The platform's tenancy rule, written once for every router (DESIGN "HTTP": the token's tenant scopes
 * every command and query). The tenant a request acts on is
 *
 *   - the token's tenant, when the request names none or names that one;
 *   - another tenant when the token has the scope `tenant:cross` and its client's `allowed_access_tenants`
 *     lists that tenant (the bearer middleware looked the list up: setAccess);
 *   - on routes that say so (`PLATFORM_ADMINS_NAME_ANY`: the identity admin API, the bridge trace), any
 *     tenant when the token is of the `platform` tenant (the route already required its admin scope).
 *
 * Anything else is a 403: `TENANT.FORBIDDEN` on the routes that admit the platform's administrators (the
 * admin API's contract), else `AUTH.TENANT_FORBIDDEN` with the RFC 6750 challenge naming `tenant:cross` when
 * the token lacks it. Whether a *resource* is visible (a platform bus, a platform schema) is the service's
 * business; who counts as the platform's administrator is `isPlatformAdmin`, here.
 */

export type TenancyRule = {
  /** the `platform` tenant's administrators may name any tenant (where the service says so: docs/architecture.md#http) */
  platformAdminsNameAny: boolean;
};

/** the token's tenant, or another through the cross-tenant scope */
export const TOKEN_TENANCY: TenancyRule = { platformAdminsNameAny: false };
/** as TOKEN_TENANCY, and the platform tenant's administrators may name any tenant */
export const PLATFORM_ADMINS_NAME_ANY: TenancyRule = { platformAdminsNameAny: true };

/** Puts the verified access context on the request (the bearer middleware), with the client's allowed tenants for cross-tenant tokens. */
export function setAccess(res: Response, context: AccessContext, allowedTenants?: readonly string[]): void {
  res.locals.auth = context;
  if (allowedTenants !== undefined) res.locals.authAllowedTenants = allowedTenants;
}

/** The verified access context of a request that passed bearer authentication. */
export function authOf(res: Response): AccessContext {
  const auth = res.locals.auth as AccessContext | undefined;
  if (auth === undefined) throw new Error('no access context: bearer authenticate is not mounted on this route');
  return auth;
}

const allowedTenantsOf = (res: Response): readonly string[] =>
  (res.locals.authAllowedTenants as readonly string[] | undefined) ?? [];

/** Whether the token is of the platform tenant, whose administrators manage the platform's own resources. */
export const isPlatformAdmin = (res: Response): boolean => authOf(res).tenant === PLATFORM_TENANT;

/** Whether the request may act on `tenant` under `rule` (the same decision as targetTenant, without the 403). */
export function mayActOn(res: Response, tenant: string, rule: TenancyRule = TOKEN_TENANCY): boolean {
  const auth = authOf(res);
  if (tenant === auth.tenant) return true;
  if (rule.platformAdminsNameAny && auth.tenant === PLATFORM_TENANT) return true;
  return auth.scopes.includes(CROSS_TENANT_SCOPE) && allowedTenantsOf(res).includes(tenant);
}

/** The tenant a request acts on: the token's, or `requested` when the rule lets the token act on it; else 403. */
export function targetTenant(res: Response, requested?: unknown, rule: TenancyRule = TOKEN_TENANCY): string {
  const auth = authOf(res);
  if (requested === undefined || requested === null || requested === '') return auth.tenant;
  if (typeof requested === 'string' && mayActOn(res, requested, rule)) return requested;
  throw refusal(auth, requested, rule);
}

/** The token's own tenant (no other can be named): what most routes act on. */
export const tenantOf = (res: Response): string => authOf(res).tenant;

/** The metadata of a command run on `tenant` (default: the token's) by the token's subject, `subject@tenant` as actor. */
export function commandContext(res: Response, tenant: string = tenantOf(res)): CommandMetadata {
  const a = authOf(res);
  return commandMetadata(res, { tenant, actor: `${a.subject}@${a.tenant}` });
}

function refusal(auth: AccessContext, requested: unknown, rule: TenancyRule): Error {
  const details = { tenant: requested };
  if (rule.platformAdminsNameAny) {
    return coreError(
      'TENANT.FORBIDDEN',
      `an admin of tenant ${auth.tenant} cannot act on tenant ${String(requested)}`,
      details,
    );
  }
  if (typeof requested !== 'string')
    return new BearerChallenge('AUTH.TENANT_FORBIDDEN', 'the target tenant is not valid', undefined);
  if (!auth.scopes.includes(CROSS_TENANT_SCOPE)) {
    return new BearerChallenge(
      'AUTH.TENANT_FORBIDDEN',
      `acting on tenant ${requested} needs the scope ${CROSS_TENANT_SCOPE}`,
      `Bearer error="insufficient_scope", scope="${CROSS_TENANT_SCOPE}"`,
      details,
    );
  }
  return new BearerChallenge(
    'AUTH.TENANT_FORBIDDEN',
    `the client may not act on tenant ${requested} (allowed_access_tenants)`,
    undefined,
    details,
  );
}
