import type { Response } from 'express';
import { mayActOn, PLATFORM_ADMINS_NAME_ANY, targetTenant } from '../core/tenancy.ts';

/**
 * The tenant an audit read (query-many, export, one record, verify) acts on: the token's, or the one named
 * under the tenancy rule (tenant:cross and the client's allowed_access_tenants), or any tenant for a token of
 * the platform tenant, whose administrators read other tenants' logs through the portal's target tenant (the
 * spec: "another tenant can be chosen as target tenant"). A refusal stays the rule's own
 * (403 AUTH.TENANT_FORBIDDEN with its challenge). Writes act on the token's tenant only.
 */
export function readTenant(res: Response, requested: unknown): string {
  if (typeof requested === 'string' && requested !== '' && mayActOn(res, requested, PLATFORM_ADMINS_NAME_ANY))
    return requested;
  return targetTenant(res, requested);
}
