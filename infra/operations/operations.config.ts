import { PLATFORM_TENANT } from '../../domain/core/access-context.ts';
import { TENANT_CODE } from '../../domain/core/tenant-code.ts';
import { ConfigError } from '../core/config.ts';
import { envInt } from '../core/env-int.ts';

/** The operations API's settings (docs/configuration.md#operations-api), from the environment, checked at start. */
export type OperationsConfig = {
  /** OPS_REBUILD_PAGE_SIZE: events a rebuild started through the API reads and applies per transaction (default 5000) */
  rebuildPageSize: number;
  /**
   * OPS_OPERATOR_TENANTS: the tenants whose `ops:admin` tokens the API takes (comma-separated; default the
   * platform tenant and SEED_TENANT, whose demo admin holds the role on a fresh install). A production
   * deployment whose customers use the seed tenant sets `platform`.
   */
  operatorTenants?: readonly string[];
};

export function loadOperationsConfig(env: NodeJS.ProcessEnv = process.env): OperationsConfig {
  const problems: string[] = [];
  const int = envInt(env, problems);
  const listed = env.OPS_OPERATOR_TENANTS?.split(',')
    .map((t) => t.trim())
    .filter((t) => t !== '');
  const bad = (listed ?? []).filter((t) => !TENANT_CODE.test(t));
  if (listed !== undefined && (listed.length === 0 || bad.length > 0))
    problems.push(`OPS_OPERATOR_TENANTS must list tenant codes separated by commas, got "${env.OPS_OPERATOR_TENANTS}"`);
  const config = {
    rebuildPageSize: int('OPS_REBUILD_PAGE_SIZE', 5000, 10, 100_000),
    ...(listed !== undefined && { operatorTenants: listed }),
  };
  if (problems.length > 0) throw new ConfigError(problems);
  return config;
}

/**
 * The operator tenants: OPS_OPERATOR_TENANTS, or the platform tenant and the seed tenant. Read by the
 * operations API (which refuses other tenants' tokens) and by the portal (which offers the Operations area
 * to these tenants' sessions only).
 */
export const operatorTenantsOf = (settings: OperationsConfig, seedTenant: string): readonly string[] =>
  settings.operatorTenants ?? [...new Set([PLATFORM_TENANT, seedTenant])];
