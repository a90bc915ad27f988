import type { paths } from '../../api/schema/audit.d.ts';
import { targetTenant } from '../../api/target-tenant.ts';

/** The audit API's paths and answers as the area uses them (src/api/schema/audit.d.ts). */
export const V3 = '/api/platform/audit/1.0/audit/v3';

export type QueryBody = paths[`${typeof V3}/log/query-many`]['post']['requestBody']['content']['application/json'];
export type AuditRecord = paths[`${typeof V3}/records/{id}`]['get']['responses'][200]['content']['application/json'];

/** verify's answer (projections/audit/verify.ts; the API documents no response schema for it) */
export type SideReport = {
  status: 'valid' | 'altered' | 'missing';
  checked: number;
  first_bad_sequence?: number;
  reason?: string;
};
export type VerifyReport = {
  tenant: string;
  from_sequence: number;
  to_sequence: number;
  head_sequence: number;
  valid: boolean;
  log: SideReport;
  read_store: SideReport & {
    missing: Array<{ from_sequence: number; to_sequence: number }>;
    retired: { from_sequence: number; to_sequence: number } | null;
    not_yet_projected: { from_sequence: number; to_sequence: number } | null;
  };
};

/**
 * The audit API names the target tenant `target_tenant` (in a query's body, or verify's and a record's query
 * string), not the `tenant` the API client adds: the picker's choice goes in here. Without one the API acts
 * on the signed-in tenant.
 */
export const withTarget = <T extends object>(o: T): T & { target_tenant?: string } => {
  const tenant = targetTenant();
  return tenant === undefined ? o : { ...o, target_tenant: tenant };
};
