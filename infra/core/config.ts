import path from 'node:path';

/**
 * Configuration from environment variables, validated at start: a bad value stops the process with one
 * clear line per problem instead of failing later. Every variable is listed in the README.
 */
export type Config = {
  port: number;
  host: string;
  dataDir: string;
  publicBaseUrl: string;
  esdbUrl: string | undefined;
  mongodbUrl: string | undefined;
  mongodbDatabase: string;
  logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  /** projection lag (in positions) above which /health/ready answers 503 */
  readyMaxLag: number;
  shutdownTimeoutMs: number;
};

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`invalid configuration:\n  - ${problems.join('\n  - ')}`);
    this.name = 'ConfigError';
  }
}

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const problems: string[] = [];
  const int = (name: string, fallback: number, min: number, max: number) => {
    const raw = env[name];
    if (raw === undefined || raw === '') return fallback;
    const n = Number(raw);
    if (!Number.isInteger(n) || n < min || n > max) {
      problems.push(`${name} must be an integer from ${min} to ${max}, got "${raw}"`);
      return fallback;
    }
    return n;
  };
  const url = (name: string, protocols: string[]) => {
    const raw = env[name];
    if (raw === undefined || raw === '') return undefined;
    try {
      const u = new URL(raw);
      if (!protocols.includes(u.protocol)) problems.push(`${name} must start with ${protocols.join(' or ')}, got "${u.protocol}"`);
    } catch {
      problems.push(`${name} is not a URL: "${raw}"`);
    }
    return raw;
  };

  const port = int('PORT', 8080, 0, 65535);
  const host = env.HOST || '0.0.0.0';
  const dataDir = path.resolve(env.DATA_DIR || './data');
  const publicBaseUrl = (url('PUBLIC_BASE_URL', ['http:', 'https:']) ?? `http://localhost:${port}`).replace(/\/+$/, '');
  if (env.PUBLIC_BASE_URL && new URL(publicBaseUrl).pathname !== '/') {
    problems.push('PUBLIC_BASE_URL must have no path (RFC 8414: the issuer serves its metadata at the root)');
  }
  const esdbUrl = url('ESDB_URL', ['esdb:', 'esdb+discover:', 'kurrentdb:', 'kurrentdb+discover:', 'kdb:']);
  const mongodbUrl = url('MONGODB_URL', ['mongodb:', 'mongodb+srv:']);
  const logLevel = (env.LOG_LEVEL || 'info') as Config['logLevel'];
  if (!LOG_LEVELS.includes(logLevel)) problems.push(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}, got "${logLevel}"`);
  const config: Config = {
    port,
    host,
    dataDir,
    publicBaseUrl,
    esdbUrl,
    mongodbUrl,
    mongodbDatabase: env.MONGODB_DATABASE || 'platform',
    logLevel,
    readyMaxLag: int('READY_MAX_LAG', 10_000, 0, Number.MAX_SAFE_INTEGER),
    shutdownTimeoutMs: int('SHUTDOWN_TIMEOUT_MS', 10_000, 0, 600_000),
  };
  if (problems.length > 0) throw new ConfigError(problems);
  return config;
}
