import { hkdfSync } from 'node:crypto';
import type { Router } from 'express';
import type { Logger } from 'pino';
import type { Reactor } from '../../commands/core/reactor.ts';
import { createCodes } from '../../commands/identity/authorization-codes.commands.ts';
import { createClientAuthenticator } from '../../commands/identity/client.authenticator.ts';
import { createDirectoryCache, type DirectoryCache } from '../../commands/identity/directory.cache.ts';
import { createDirectoryCommands } from '../../commands/identity/directory.commands.ts';
import { createDirectory, type DirectoryService } from '../../commands/identity/directory.lookups.ts';
import { createExchangeCodes } from '../../commands/identity/exchange-codes.commands.ts';
import { createLoginLimiter } from '../../commands/identity/login.limiter.ts';
import { OAuthError } from '../../commands/identity/oauth.error.ts';
import { createRevocationMemory } from '../../commands/identity/revocations.memory.ts';
import { createSessions } from '../../commands/identity/sessions.commands.ts';
import { createKeyRing, type KeyRing } from '../../commands/identity/signing-key.ring.ts';
import { createTenantMachineClientReactor } from '../../commands/identity/tenant-machine-client.reactor.ts';
import { createTenantMachineClient, type TenantMachineClient } from '../../commands/identity/tenant-machine-client.ts';
import { createTokenService, type TokenServiceImpl } from '../../commands/identity/token.service.ts';
import { HUB_WEBHOOK_SCOPE } from '../../domain/hub/hub.scopes.ts';
import type { AccessContext } from '../../domain/identity/model.ts';
import { HUB_WEBHOOKS_CLIENT_PREFIX } from '../../domain/identity/platform-clients.constants.ts';
import { type BearerAuth, bearerAuth } from '../../http/core/bearer-auth.ts';
import { createRouteRegistry, type RouteRegistry } from '../../http/core/route-registry.ts';
import { createIdentityRouter } from '../../http/identity/identity.router.ts';
import type { Projection } from '../../projections/core/projection.ts';
import { identityDirectoryProjections } from '../../projections/identity/directory.projection.ts';
import { createRevocationList, revocationsProjection } from '../../projections/identity/revocations.projection.ts';
import type { Clock } from '../core/clock.port.ts';
import type { Config } from '../core/config.ts';
import type { EventStore } from '../core/event-store.port.ts';
import type { LogConsumer } from '../core/log-consumer.ts';
import type { ReadStore } from '../core/read-store.port.ts';
import { loadKeySecrets } from './key-secret.ts';
import { type SeedReport, seedIdentity } from './seed.ts';

export type IdentityServiceDeps = {
  config: Config;
  eventStore: EventStore;
  readStore: ReadStore;
  clock: Clock;
  log: Logger;
};

export type IdentityService = {
  /** the identity service's router (mounted at `/`) */
  router: Router;
  /** local verification of our access tokens (signature by kid, exp, iss, aud, revocation) */
  verifyAccessToken(token: string): Promise<AccessContext>;
  /** the bearer middleware every other service's router uses */
  bearer: BearerAuth;
  /** the identity projections (also listed in infra/platform-projections.ts) */
  projections: Projection[];
  /**
   * What the process's log reader feeds: the identity directory in memory (tenants, clients, users,
   * usernames), from which the OAuth flows look them up. Without a reader it still answers right (it
   * reads through to the streams), only slower.
   */
  consumers: LogConsumer[];
  directoryCache: DirectoryCache;
  /** ensures a signing key, then seeds an empty store: the report (with generated secrets) or null */
  seed(): Promise<SeedReport | null>;
  directory: DirectoryService;
  tokens: TokenServiceImpl;
  keyRing: KeyRing;
  registry: RouteRegistry;
  /** the hub's machine client of each tenant, whose token its webhook calls carry unless a client is configured */
  hubWebhooks: TenantMachineClient;
  /** registers that client for every tenant created (where workers run) */
  reactors: Reactor[];
};

export const HUB_WEBHOOKS_CLIENT = HUB_WEBHOOKS_CLIENT_PREFIX;
export const HUB_WEBHOOKS_REACTOR = 'identity.hub-webhooks-clients';

/** The identity projections, for infra/platform-projections.ts. */
export const identityProjections = (): Projection[] => [...identityDirectoryProjections(), revocationsProjection];

/**
 * The identity provider's composition: directory, key ring, token service, codes, sessions, the login
 * limiter, client authentication, and the routers built on them. Building it does no I/O; `seed()` does.
 */
export function createIdentityService({
  config,
  eventStore,
  readStore,
  clock,
  log,
}: IdentityServiceDeps): IdentityService {
  const id = config.identity;
  const issuer = config.publicBaseUrl;
  const { current: secret, previous: previousSecrets } = loadKeySecrets(config);
  // The login form's HMAC key (sealed request, CSRF) is derived from the key-encryption secret, so every
  // process sharing the store agrees on it without another secret to distribute.
  const formKey = new Uint8Array(hkdfSync('sha256', secret, 'platform', 'login form v1', 32));

  const directoryCache = createDirectoryCache({ eventStore });
  const directory = createDirectory({ eventStore, clock, cache: directoryCache });
  // a disabling through the admin API counts in this process at once (the token service notes it)
  const commands = createDirectoryCommands({
    eventStore,
    clock,
    defaultTokenLifetimeSeconds: id.accessTokenTtlSeconds,
    onEvents: (events) => tokens.noteRevocations(events),
  });
  const keyRing = createKeyRing({ eventStore, clock, secret, previousSecrets });
  // the revocation list every process reads, in memory (the read model answers until it has caught up):
  // revoked jtis and the rules of disabled clients and users
  const revocations = createRevocationMemory({ eventStore, clock, fallback: createRevocationList(readStore) });
  const tokens = createTokenService({
    eventStore,
    clock,
    config: {
      issuer,
      accessTokenTtlSeconds: id.accessTokenTtlSeconds,
      refreshTokenTtlSeconds: id.refreshTokenTtlSeconds,
    },
    keyRing,
    directory,
    revocations,
  });
  const codes = createCodes({ eventStore, clock, ttlSeconds: id.codeTtlSeconds, tokens });
  const sessions = createSessions({
    eventStore,
    clock,
    ttlSeconds: id.sessionTtlSeconds,
    revocations: { cutoff: tokens.revocationCutoff },
  });
  const limiter = createLoginLimiter({ readStore, clock, maxFailures: id.loginMaxFailures });
  const exchangeCodes = createExchangeCodes({ eventStore, clock, ttlSeconds: id.exchangeCodeTtlSeconds });
  const clientAuth = createClientAuthenticator({
    directory,
    eventStore,
    clock,
    issuer,
    // RFC 7523: the assertion's audience is the endpoint it is sent to, or the issuer
    endpoints: ['/cas/oidc/token', '/cas/oidc/introspect', '/cas/oidc/revoke', '/cas/exchange-code/consume'].map(
      (p) => `${issuer}${p}`,
    ),
  });
  const bearer = bearerAuth(tokens.verifyAccessToken, { getClient: directory.getClient });
  const registry = createRouteRegistry();
  const identityLog = log.child({ service: 'identity' });
  const hubWebhooks = createTenantMachineClient({
    commands,
    directory,
    tokens,
    name: HUB_WEBHOOKS_CLIENT,
    appName: 'Notification hub webhooks',
    scopes: [HUB_WEBHOOK_SCOPE],
  });
  const hubWebhooksReactor = createTenantMachineClientReactor({
    name: HUB_WEBHOOKS_REACTOR,
    eventStore,
    readStore,
    clock,
    machineClient: hubWebhooks,
    log: identityLog.child({ worker: HUB_WEBHOOKS_REACTOR }),
  });

  const router = createIdentityRouter({
    authorize: {
      directory,
      codes,
      sessions,
      limiter,
      tokens,
      clock,
      issuer,
      formKey,
      secureCookies: id.secureCookies,
      sessionTtlSeconds: id.sessionTtlSeconds,
      log: identityLog,
    },
    tokenEndpoint: {
      directory,
      tokens,
      codes,
      authenticateClient: clientAuth.authenticateClient,
      limiter,
      clock,
      log: identityLog,
    },
    token: {
      issuer,
      tokens,
      directory,
      async authenticateClient(req) {
        const { client, method } = await clientAuth.authenticateClient(req);
        // RFC 7009 lets a public client revoke its own tokens; introspection and exchange codes need a
        // client that proves who it is (a client_id alone proves nothing)
        if (method === 'none' && req.path !== '/cas/oidc/revoke') {
          throw new OAuthError(
            'invalid_client',
            'this endpoint needs client authentication (a public client cannot use it)',
          );
        }
        return client;
      },
      exchangeCodes,
      bearer,
      registry,
    },
    admin: { directory, commands, readStore, auth: bearer, clock, registry, keyRing },
    ...(id.seed.redirectUri.startsWith(`${issuer}/`) && {
      demoCallback: { path: new URL(id.seed.redirectUri).pathname, tokenEndpoint: `${issuer}/cas/oidc/token` },
    }),
  });

  return {
    router,
    verifyAccessToken: tokens.verifyAccessToken,
    bearer,
    projections: identityProjections(),
    consumers: [directoryCache, revocations],
    directoryCache,
    async seed() {
      await keyRing.ensureKey();
      return seedIdentity({ config, eventStore, clock, log: identityLog });
    },
    directory,
    tokens,
    keyRing,
    registry,
    hubWebhooks,
    reactors: [hubWebhooksReactor],
  };
}
