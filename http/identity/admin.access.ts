import type { Response } from 'express';
import { coreError } from '../../domain/core/core.errors.ts';
import { identityError } from '../../domain/identity/identity.errors.ts';
import type { CommandMetadata } from '../core/request-context.ts';
import {
  commandContext,
  isPlatformAdmin,
  mayActOn,
  PLATFORM_ADMINS_NAME_ANY,
  targetTenant,
  tenantOf,
} from '../core/tenancy.ts';

/*
 * Tenant isolation of the administration API: the platform's tenancy rule (http/core/tenancy.ts) with this
 * API's addition (docs/identity.md#administration-api): the `platform` tenant's admins may name any tenant,
 * and alone create tenants. A tenant admin naming another tenant gets 403 TENANT.FORBIDDEN (unless its token
 * may cross to it: scope tenant:cross and the tenant in its client's allowed_access_tenants).
 */

/** the tenant an admin request acts on: the token's, or the one it names when the tenancy rule allows */
export const adminTenant = (res: Response, requested: unknown): string =>
  targetTenant(res, requested, PLATFORM_ADMINS_NAME_ANY);

/** whether the request may see and change resources of `tenant` (the same rule, without the 403) */
export const mayAdminister = (res: Response, tenant: string): boolean =>
  mayActOn(res, tenant, PLATFORM_ADMINS_NAME_ANY);

/** only the platform's administrators create tenants */
export function requirePlatformAdmin(res: Response): void {
  if (!isPlatformAdmin(res))
    throw coreError('TENANT.FORBIDDEN', 'only administrators of the platform tenant create tenants');
}

/** a tenant admin may not hand a client access to tenants other than its own (the platform's admins may) */
export function checkAllowedTenants(res: Response, tenants: string[] | undefined): void {
  if (tenants === undefined || isPlatformAdmin(res)) return;
  const others = tenants.filter((t) => t !== tenantOf(res));
  if (others.length > 0) {
    throw identityError(
      'CLIENT.CROSS_TENANT_FORBIDDEN',
      `only platform administrators may allow access to other tenants (${others.join(', ')})`,
      [{ field: 'allowed_access_tenants', message: 'may only name your own tenant' }],
    );
  }
}

/** The metadata of a command run on `tenant` by the token's subject (`subject@tenant` as actor). */
export const adminCommandContext = (res: Response, tenant: string): CommandMetadata => commandContext(res, tenant);
