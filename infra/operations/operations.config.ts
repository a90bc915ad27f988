import { ConfigError } from '../core/config.ts';
import { envInt } from '../core/env-int.ts';

/** The operations API's settings (docs/configuration.md#operations-api), from the environment, checked at start. */
export type OperationsConfig = {
  /** OPS_REBUILD_PAGE_SIZE: events a rebuild started through the API reads and applies per transaction (default 5000) */
  rebuildPageSize: number;
};

export function loadOperationsConfig(env: NodeJS.ProcessEnv = process.env): OperationsConfig {
  const problems: string[] = [];
  const int = envInt(env, problems);
  const config = { rebuildPageSize: int('OPS_REBUILD_PAGE_SIZE', 5000, 10, 100_000) };
  if (problems.length > 0) throw new ConfigError(problems);
  return config;
}
