import type { Response } from 'express';
import { DomainError } from '../../domain/core/domain-error.ts';
import { PLATFORM_TENANT, type AccessContext } from '../../domain/identity/model.ts';
import { commandMetadata } from '../core/request-context.ts';

/*
 * Tenant isolation of the administration API. The tenant comes from the bearer token
 * (`res.locals.auth`, set by the authenticate middleware). Only an admin of the `platform` tenant may
 * name another tenant or create tenants; a tenant admin naming another tenant gets 403.
 */

export function accessOf(res: Response): AccessContext {
  const a = res.locals.auth as AccessContext | undefined;
  if (a === undefined) throw new Error('admin router: authenticate did not set res.locals.auth');
  return a;
}

export const isPlatformAdmin = (a: AccessContext): boolean => a.tenant === PLATFORM_TENANT;

/** the token's tenant, or the one a platform admin names */
export function targetTenant(res: Response, requested: unknown): string {
  const a = accessOf(res);
  if (requested === undefined || requested === a.tenant) return a.tenant;
  if (isPlatformAdmin(a)) return String(requested);
  throw new DomainError('TENANT.FORBIDDEN', 403, `an admin of tenant ${a.tenant} cannot act on tenant ${String(requested)}`, {
    tenant: requested,
  });
}

/** a tenant admin may not hand its clients access to other tenants */
export function checkAllowedTenants(res: Response, tenants: string[] | undefined): void {
  const a = accessOf(res);
  if (tenants === undefined || isPlatformAdmin(a)) return;
  const others = tenants.filter((t) => t !== a.tenant);
  if (others.length > 0) {
    throw new DomainError('CLIENT.CROSS_TENANT_FORBIDDEN', 403, `only platform administrators may allow access to other tenants (${others.join(', ')})`, [
      { field: 'allowed_access_tenants', message: 'may only name your own tenant' },
    ]);
  }
}

/** The metadata of a command run on `tenant` by the token's subject (`subject@tenant` as actor). */
export function adminCommandContext(res: Response, tenant: string) {
  const a = accessOf(res);
  return commandMetadata(res, { tenant, actor: `${a.subject}@${a.tenant}` });
}
