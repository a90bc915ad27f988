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
  identity: IdentityConfig;
};

export type IdentityConfig = {
  /** authorization code lifetime (spec: about 250 s) */
  codeTtlSeconds: number;
  /** default access token lifetime (expires_in); a tenant may set its own */
  accessTokenTtlSeconds: number;
  refreshTokenTtlSeconds: number;
  sessionTtlSeconds: number;
  /** exchange codes (/cas/exchange-code): single use, short lived */
  exchangeCodeTtlSeconds: number;
  /** encrypts signing keys at rest; when unset a random secret is kept in DATA_DIR/key-encryption.secret */
  keyEncryptionSecret: string | undefined;
  /** failed logins allowed per user (and 4x per IP) in a 15-minute window before 429 */
  loginMaxFailures: number;
  /** Secure cookies: on when PUBLIC_BASE_URL is https */
  secureCookies: boolean;
  seed: {
    tenant: string;
    adminUsername: string;
    /** generated and printed once when unset */
    adminPassword: string | undefined;
    clientId: string;
    /** generated and printed once when unset */
    clientSecret: string | undefined;
    publicClientId: string;
    redirectUri: string;
  };
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
    identity: {
      codeTtlSeconds: int('CODE_TTL_SECONDS', 250, 1, 3600),
      accessTokenTtlSeconds: int('ACCESS_TOKEN_TTL_SECONDS', 7200, 1, 31 * 86400),
      refreshTokenTtlSeconds: int('REFRESH_TOKEN_TTL_SECONDS', 30 * 86400, 60, 365 * 86400),
      sessionTtlSeconds: int('SESSION_TTL_SECONDS', 8 * 3600, 60, 30 * 86400),
      exchangeCodeTtlSeconds: int('EXCHANGE_CODE_TTL_SECONDS', 60, 1, 3600),
      keyEncryptionSecret: env.KEY_ENCRYPTION_SECRET || undefined,
      loginMaxFailures: int('LOGIN_MAX_FAILURES', 5, 1, 1000),
      secureCookies: publicBaseUrl.startsWith('https:'),
      seed: {
        tenant: env.SEED_TENANT || 'demo',
        adminUsername: env.SEED_ADMIN_USERNAME || 'admin',
        adminPassword: env.SEED_ADMIN_PASSWORD || undefined,
        clientId: env.SEED_CLIENT_ID || 'demo-client',
        clientSecret: env.SEED_CLIENT_SECRET || undefined,
        publicClientId: env.SEED_PUBLIC_CLIENT_ID || 'demo-spa',
        redirectUri: url('SEED_REDIRECT_URI', ['http:', 'https:']) ?? `${publicBaseUrl}/demo/callback`,
      },
    },
  };
  if (env.KEY_ENCRYPTION_SECRET !== undefined && env.KEY_ENCRYPTION_SECRET.length > 0 && env.KEY_ENCRYPTION_SECRET.length < 32) {
    problems.push('KEY_ENCRYPTION_SECRET must be at least 32 characters');
  }
  if (!/^[a-z0-9][a-z0-9_-]{0,62}$/.test(config.identity.seed.tenant)) {
    problems.push(`SEED_TENANT must be a tenant code (lower-case letters, digits, _ and -), got "${config.identity.seed.tenant}"`);
  }
  if (problems.length > 0) throw new ConfigError(problems);
  return config;
}
