import { ConfigError } from '../core/config.ts';
import { envInt } from '../core/env-int.ts';

/**
 * The audit service's settings (docs/configuration.md#audit-log), from the environment, checked when the
 * service is built (at start): a bad value stops the process with one line per problem, as
 * infra/core/config.ts does.
 */
export type AuditConfig = {
  /** AUDIT_SCROLL_IDLE_SECONDS: a scroll expires this long after its last page (default 300) */
  scrollIdleSeconds: number;
  /** AUDIT_WRITE_BATCH_MAX: records of one tenant appended together at most (group commit; default 500) */
  writeBatchMax: number;
};

export function loadAuditConfig(env: NodeJS.ProcessEnv = process.env): AuditConfig {
  const problems: string[] = [];
  const int = envInt(env, problems);
  const config = {
    scrollIdleSeconds: int('AUDIT_SCROLL_IDLE_SECONDS', 300, 10, 86_400),
    writeBatchMax: int('AUDIT_WRITE_BATCH_MAX', 500, 1, 10_000),
  };
  if (problems.length > 0) throw new ConfigError(problems);
  return config;
}
