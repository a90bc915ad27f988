import path from 'node:path';
import { TENANT_CODE } from '../../domain/core/tenant-code.ts';
import { parseOutboundAllow } from '../net/outbound-allow.ts';
import { envInt } from './env-int.ts';
import { DEFAULT_GATHER_MS, DEFAULT_SETTLE_MS } from './log-reader.ts';

/** SQLITE_CHECKPOINT_MS's default: a WAL copied every half second stays short, and commits on a short WAL stall less (decision 0002) */
export const DEFAULT_SQLITE_CHECKPOINT_MS = 500;
/** DELIVERY_CONCURRENCY's default */
export const DEFAULT_DELIVERY_CONCURRENCY = 32;

/**
 * Configuration from environment variables, validated at start: a bad value stops the process with one
 * clear line per problem instead of failing later. Every variable is listed in docs/configuration.md.
 */
export type Config = {
  port: number;
  host: string;
  dataDir: string;
  publicBaseUrl: string;
  esdbUrl: string | undefined;
  mongodbUrl: string | undefined;
  /**
   * SQLITE_CHECKPOINT_MS: how often a worker thread checkpoints each embedded store's WAL (0: SQLite does it
   * in the writing thread, inside the commit that crosses 10,000 pages); DEFAULT_SQLITE_CHECKPOINT_MS
   */
  sqliteCheckpointMs: number;
  /**
   * LOG_GATHER_MS: while the log brings more than 1,000 events a second, how long each process's log reader
   * waits after a page that is not full before reading the next (more events per page, fewer read-model
   * commits)
   */
  logGatherMs: number;
  /**
   * LOG_SETTLE_MS: how long each process's log reader holds a page that is not full before its consumers get
   * it, so that work an append starts in its own process (a delivery's first attempt) goes first
   */
  logSettleMs: number;
  mongodbDatabase: string;
  logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  /** projection lag (in positions) above which /health/ready answers 503 */
  readyMaxLag: number;
  shutdownTimeoutMs: number;
  identity: IdentityConfig;
  /** outbound mail (the bridge's mail targets) */
  smtp: SmtpConfig;
  /**
   * The bridge's preset HTTP client targets: service name → base URL (SERVICE_REGISTRY). A target's
   * SERVICE_NAME is looked up here and its body POSTed to `<base URL>/eventbridge/receivedEvent`.
   */
  serviceRegistry: Record<string, string>;
  /** the event bridge's delivery engine */
  bridge: BridgeConfig;
  /**
   * OUTBOUND_ALLOW: what the outbound HTTP client's SSRF guard lets through although it is not a public
   * address: host names, addresses and CIDR blocks (infra/net/outbound-allow.ts). Empty by default: every
   * loopback, private, link-local and metadata destination is refused.
   */
  outboundAllow: string[];
  portal: PortalConfig;
};

export type PortalConfig = {
  /**
   * PORTAL_PROVIDER_URL: where the portal's backend reaches the identity provider's token, revocation and
   * key endpoints (default: PUBLIC_BASE_URL); the browser is always sent to PUBLIC_BASE_URL
   */
  providerUrl: string | undefined;
};

export type BridgeConfig = {
  /** DELIVERY_TIMEOUT_MS: per outbound call of every target (spec Limits: 5 s) */
  deliveryTimeoutMs: number;
  /**
   * DELIVERY_LEASE_MS: how long a worker holds a claimed delivery, and after how long an attempt without
   * outcome counts as uncertain (the process stopped during the call) and is tried again; above the timeout
   */
  deliveryLeaseMs: number;
  /**
   * DELIVERY_CONCURRENCY: deliveries one worker process runs side by side (default 32, as the hub's dispatch:
   * one claim or one group commit then carries more of them; docs/decisions/0038-bridge-delivery-path.md)
   */
  deliveryConcurrency: number;
  /** DELIVERY_POLL_MS: how often an idle worker looks for due deliveries (retries; fresh ones start at once) */
  deliveryPollMs: number;
};

export type SmtpConfig = {
  /** SMTP_HOST; undefined: no SMTP server configured (mail deliveries cannot be sent) */
  host: string | undefined;
  /** SMTP_PORT; default 465 with SMTP_SECURE, 587 with SMTP_USER, else 25 */
  port: number;
  /** SMTP_SECURE: implicit TLS from the first byte (port 465) */
  secure: boolean;
  /** SMTP_USER and SMTP_PASSWORD (both or neither) */
  auth: { user: string; pass: string } | undefined;
  /** SMTP_STARTTLS: auto (upgrade when offered, default), require, off */
  startTls: 'auto' | 'require' | 'off';
  /** SMTP_FROM: the sender when a mail target's ACCOUNT is a display name only (default noreply@<PUBLIC_BASE_URL host>) */
  from: string;
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
  /**
   * KEY_ENCRYPTION_SECRET_PREVIOUS (comma-separated): the secrets KEY_ENCRYPTION_SECRET replaced; what they
   * encrypted still opens (signing keys, connection and configuration secrets) until `platform keys
   * rotate-config` and `platform keys rotate` have moved everything to the current one
   */
  keyEncryptionPrevious: string[];
  /** failed logins allowed per user (and 4x per IP) in a 15-minute window before 429 */
  loginMaxFailures: number;
  /** Secure cookies: on when PUBLIC_BASE_URL is https */
  secureCookies: boolean;
  seed: {
    tenant: string;
    adminUsername: string;
    /** generated and printed once when unset */
    adminPassword: string | undefined;
    /** the admin's profile, so every claim of the spec's ID token appears in the first tour */
    adminName: string;
    adminNickname: string;
    adminEmail: string;
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

const SERVICE_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;

/**
 * SERVICE_REGISTRY: a JSON object (`{"claims":"http://claims:8080"}`) or `name=url` pairs separated by
 * commas (`claims=http://claims:8080,billing=https://billing.internal/api`). URLs are http or https,
 * without query or fragment; a trailing `/` is dropped (the receive path is appended).
 */
export function parseServiceRegistry(raw: string | undefined, problems: string[]): Record<string, string> {
  const registry: Record<string, string> = {};
  if (raw === undefined || raw.trim() === '') return registry;
  let pairs: Array<[string, unknown]>;
  if (raw.trim().startsWith('{')) {
    try {
      const parsed: unknown = JSON.parse(raw);
      if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new Error('not an object');
      pairs = Object.entries(parsed);
    } catch {
      problems.push('SERVICE_REGISTRY must be a JSON object of name to URL, or name=url pairs separated by commas');
      return registry;
    }
  } else {
    pairs = raw
      .split(',')
      .map((p) => p.trim())
      .filter((p) => p !== '')
      .map((p): [string, unknown] => {
        const eq = p.indexOf('=');
        return eq < 0 ? [p, undefined] : [p.slice(0, eq).trim(), p.slice(eq + 1).trim()];
      });
  }
  const seen = new Set<string>();
  for (const [name, url] of pairs) {
    if (!SERVICE_NAME.test(name)) {
      problems.push(`SERVICE_REGISTRY: "${name}" is not a service name (letters, digits, . _ -)`);
      continue;
    }
    if (seen.has(name)) {
      problems.push(`SERVICE_REGISTRY: ${name} is given twice`);
      continue;
    }
    seen.add(name);
    if (typeof url !== 'string' || url === '') {
      problems.push(`SERVICE_REGISTRY: ${name} has no URL`);
      continue;
    }
    let u: URL;
    try {
      u = new URL(url);
    } catch {
      problems.push(`SERVICE_REGISTRY: the URL of ${name} is not a URL: "${url}"`);
      continue;
    }
    if (u.protocol !== 'http:' && u.protocol !== 'https:')
      problems.push(`SERVICE_REGISTRY: the URL of ${name} must be http or https`);
    else if (u.search !== '' || u.hash !== '' || u.username !== '' || u.password !== '') {
      problems.push(`SERVICE_REGISTRY: the URL of ${name} must have no query, fragment or credentials`);
    } else registry[name] = url.replace(/\/+$/, '');
  }
  return registry;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const problems: string[] = [];
  const int = envInt(env, problems);
  const url = (name: string, protocols: string[]) => {
    const raw = env[name];
    if (raw === undefined || raw === '') return undefined;
    try {
      const u = new URL(raw);
      if (!protocols.includes(u.protocol))
        problems.push(`${name} must start with ${protocols.join(' or ')}, got "${u.protocol}"`);
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
  if (!LOG_LEVELS.includes(logLevel))
    problems.push(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}, got "${logLevel}"`);
  const smtp = loadSmtp(env, publicBaseUrl, problems, int);
  const outboundAllow = parseOutboundAllow(env.OUTBOUND_ALLOW);
  problems.push(...outboundAllow.problems);
  const config: Config = {
    port,
    host,
    dataDir,
    publicBaseUrl,
    esdbUrl,
    mongodbUrl,
    mongodbDatabase: env.MONGODB_DATABASE || 'platform',
    sqliteCheckpointMs: int('SQLITE_CHECKPOINT_MS', DEFAULT_SQLITE_CHECKPOINT_MS, 0, 600_000),
    logGatherMs: int('LOG_GATHER_MS', DEFAULT_GATHER_MS, 0, 1000),
    logSettleMs: int('LOG_SETTLE_MS', DEFAULT_SETTLE_MS, 0, 1000),
    logLevel,
    readyMaxLag: int('READY_MAX_LAG', 10_000, 0, Number.MAX_SAFE_INTEGER),
    shutdownTimeoutMs: int('SHUTDOWN_TIMEOUT_MS', 10_000, 0, 600_000),
    smtp,
    serviceRegistry: parseServiceRegistry(env.SERVICE_REGISTRY, problems),
    outboundAllow: outboundAllow.entries,
    portal: { providerUrl: url('PORTAL_PROVIDER_URL', ['http:', 'https:'])?.replace(/\/+$/, '') },
    bridge: {
      deliveryTimeoutMs: int('DELIVERY_TIMEOUT_MS', 5000, 100, 600_000),
      deliveryLeaseMs: int('DELIVERY_LEASE_MS', 30_000, 1000, 3_600_000),
      deliveryConcurrency: int('DELIVERY_CONCURRENCY', DEFAULT_DELIVERY_CONCURRENCY, 1, 256),
      deliveryPollMs: int('DELIVERY_POLL_MS', 500, 10, 60_000),
    },
    identity: {
      codeTtlSeconds: int('CODE_TTL_SECONDS', 250, 1, 3600),
      accessTokenTtlSeconds: int('ACCESS_TOKEN_TTL_SECONDS', 7200, 1, 31 * 86400),
      refreshTokenTtlSeconds: int('REFRESH_TOKEN_TTL_SECONDS', 30 * 86400, 60, 365 * 86400),
      sessionTtlSeconds: int('SESSION_TTL_SECONDS', 8 * 3600, 60, 30 * 86400),
      exchangeCodeTtlSeconds: int('EXCHANGE_CODE_TTL_SECONDS', 60, 1, 3600),
      keyEncryptionSecret: env.KEY_ENCRYPTION_SECRET || undefined,
      keyEncryptionPrevious: (env.KEY_ENCRYPTION_SECRET_PREVIOUS ?? '')
        .split(',')
        .map((x) => x.trim())
        .filter((x) => x !== ''),
      loginMaxFailures: int('LOGIN_MAX_FAILURES', 5, 1, 1000),
      secureCookies: publicBaseUrl.startsWith('https:'),
      seed: {
        tenant: env.SEED_TENANT || 'demo',
        adminUsername: env.SEED_ADMIN_USERNAME || 'admin',
        adminPassword: env.SEED_ADMIN_PASSWORD || undefined,
        adminName: env.SEED_ADMIN_NAME || 'Demo Administrator',
        adminNickname: env.SEED_ADMIN_NICKNAME || 'Admin',
        adminEmail:
          env.SEED_ADMIN_EMAIL || `${env.SEED_ADMIN_USERNAME || 'admin'}@${env.SEED_TENANT || 'demo'}.example`,
        clientId: env.SEED_CLIENT_ID || 'demo-client',
        clientSecret: env.SEED_CLIENT_SECRET || undefined,
        publicClientId: env.SEED_PUBLIC_CLIENT_ID || 'demo-spa',
        redirectUri: url('SEED_REDIRECT_URI', ['http:', 'https:']) ?? `${publicBaseUrl}/demo/callback`,
      },
    },
  };
  if (
    env.KEY_ENCRYPTION_SECRET !== undefined &&
    env.KEY_ENCRYPTION_SECRET.length > 0 &&
    env.KEY_ENCRYPTION_SECRET.length < 32
  ) {
    problems.push('KEY_ENCRYPTION_SECRET must be at least 32 characters');
  }
  if (config.identity.keyEncryptionPrevious.some((x) => x.length < 32)) {
    problems.push('KEY_ENCRYPTION_SECRET_PREVIOUS: every secret must be at least 32 characters');
  }
  if (!/^[^\s@]{1,64}@[^\s@]{1,255}$/.test(config.identity.seed.adminEmail)) {
    problems.push(`SEED_ADMIN_EMAIL must be a mail address, got "${config.identity.seed.adminEmail}"`);
  }
  if (!TENANT_CODE.test(config.identity.seed.tenant)) {
    problems.push(
      `SEED_TENANT must be a tenant code (lower-case letters, digits, _ and -), got "${config.identity.seed.tenant}"`,
    );
  }
  if (config.bridge.deliveryLeaseMs <= config.bridge.deliveryTimeoutMs + 1000) {
    problems.push(
      'DELIVERY_LEASE_MS must exceed DELIVERY_TIMEOUT_MS by more than 1000 (an attempt older than the lease is taken for lost)',
    );
  }
  if (problems.length > 0) throw new ConfigError(problems);
  return config;
}

function loadSmtp(
  env: NodeJS.ProcessEnv,
  publicBaseUrl: string,
  problems: string[],
  int: (name: string, fallback: number, min: number, max: number) => number,
): SmtpConfig {
  const bool = (name: string): boolean => {
    const raw = (env[name] ?? '').trim().toLowerCase();
    if (raw === '') return false;
    if (['true', '1', 'yes'].includes(raw)) return true;
    if (['false', '0', 'no'].includes(raw)) return false;
    problems.push(`${name} must be true or false, got "${env[name]}"`);
    return false;
  };
  const host = env.SMTP_HOST?.trim() || undefined;
  const secure = bool('SMTP_SECURE');
  const user = env.SMTP_USER || undefined;
  const pass = env.SMTP_PASSWORD || undefined;
  if ((user === undefined) !== (pass === undefined))
    problems.push('SMTP_USER and SMTP_PASSWORD go together: set both or neither');
  const port = int('SMTP_PORT', secure ? 465 : user !== undefined ? 587 : 25, 1, 65535);
  const startTls = (env.SMTP_STARTTLS || 'auto').toLowerCase() as SmtpConfig['startTls'];
  if (!['auto', 'require', 'off'].includes(startTls))
    problems.push(`SMTP_STARTTLS must be auto, require or off, got "${env.SMTP_STARTTLS}"`);
  let fallbackHost = 'localhost';
  try {
    fallbackHost = new URL(publicBaseUrl).hostname || 'localhost';
  } catch {
    // PUBLIC_BASE_URL's own problem is reported already
  }
  const from = env.SMTP_FROM?.trim() || `noreply@${fallbackHost}`;
  if (!/^[^\s@<>]+@[^\s@<>]+$/.test(from) && !/<[^\s@<>]+@[^\s@<>]+>\s*$/.test(from)) {
    problems.push(`SMTP_FROM must be a mail address (or "Name <address>"), got "${from}"`);
  }
  return {
    host,
    port,
    secure,
    auth: user !== undefined && pass !== undefined ? { user, pass } : undefined,
    startTls,
    from,
  };
}
