import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { createPortalClientsReactor } from '../../commands/portal/portal-clients.reactor.ts';
import { createPortalClients } from '../../commands/portal/portal-clients.ts';
import { PORTAL_SCOPES } from '../../domain/portal/portal.scopes.ts';
import { createRouteRegistry } from '../../http/core/route-registry.ts';
import { PORTAL_BASE, PORTAL_CALLBACK_PATH, portalClientId } from '../../http/portal/portal.paths.ts';
import { createPortalRouter } from '../../http/portal/portal.router.ts';
import { createPortalSessions } from '../../http/portal/portal-sessions.ts';
import { lazyConfigBox } from '../identity/config-box.ts';
import { loadKeySecrets } from '../identity/key-secret.ts';
import { loadOperationsConfig, operatorTenantsOf } from '../operations/operations.config.ts';
import type { PlatformService, ServiceDeps } from '../platform-service.ts';
import { type PortalClientKey, portalClientKey } from './portal-client.key.ts';
import { createProviderClient } from './provider.client.ts';

/** How often expired portal sessions are removed (where workers run). */
const PURGE_EVERY_MS = 10 * 60_000;

/**
 * The portal's composition: the client key, the provider as a relying party sees it, the sessions, the
 * per-tenant clients (and the reactor that registers them), the router. Building it does no I/O.
 */
export function createPortalService({ config, eventStore, readStore, clock, log }: ServiceDeps): PlatformService {
  const issuer = config.publicBaseUrl;
  const portalLog = log.child({ service: 'portal' });

  // derived on first use: a process that never signs anyone in never reads the key-encryption secret for it
  let keys: PortalClientKey[] | undefined;
  const clientKeys = (): PortalClientKey[] => {
    if (keys === undefined) {
      const { current, previous } = loadKeySecrets(config);
      keys = [current, ...previous].map(portalClientKey);
    }
    return keys;
  };
  const sealer = lazyConfigBox(config);
  const provider = createProviderClient({
    issuer,
    backChannel: config.portal.providerUrl ?? issuer,
    get key() {
      return clientKeys()[0]!;
    },
  });
  const clients = createPortalClients({
    eventStore,
    clock,
    issuer,
    jwks: () => clientKeys().map((k) => k.publicJwk),
    scopes: PORTAL_SCOPES,
    clientIdOf: portalClientId,
    callbackPath: PORTAL_CALLBACK_PATH,
    postLogoutPath: `${PORTAL_BASE}/`,
    log: portalLog,
  });
  const sessions = createPortalSessions({
    readStore,
    sealer,
    provider,
    clock,
    ttlSeconds: config.identity.sessionTtlSeconds,
  });
  const registry = createRouteRegistry();
  const router = createPortalRouter({
    issuer,
    provider,
    clients,
    sessions,
    sealer,
    clock,
    defaultTenant: config.identity.seed.tenant,
    scopes: PORTAL_SCOPES,
    operatorTenants: operatorTenantsOf(loadOperationsConfig(), config.identity.seed.tenant),
    secureCookies: config.identity.secureCookies,
    distDir: portalDistDir(),
    registry,
  });
  const reactor = createPortalClientsReactor({ eventStore, readStore, clock, ensure: clients.ensure, log: portalLog });

  return {
    name: 'portal',
    router,
    registry,
    reactors: [reactor],
    engines: [],
    caches: [],
    timers: [
      {
        name: 'portal-sessions-purge',
        everyMs: PURGE_EVERY_MS,
        run: async () => {
          // a worker process may run this where no process served the portal yet
          await sessions.ensure();
          await sessions.purgeExpired();
        },
      },
    ],
    seed: () => sessions.ensure(),
    close: async () => undefined,
    dispose: async () => undefined,
  };
}

/**
 * portal/dist of this checkout: the first folder upwards holding the platform's package.json (the sources
 * run from infra/portal, the compiled code from dist/infra/portal).
 */
export function portalDistDir(from: string = import.meta.dirname): string {
  let dir = from;
  for (;;) {
    const pkg = path.join(dir, 'package.json');
    if (existsSync(pkg) && (JSON.parse(readFileSync(pkg, 'utf8')) as { name?: string }).name === 'insurer-platform')
      return path.join(dir, 'portal', 'dist');
    const parent = path.dirname(dir);
    if (parent === dir) return path.resolve('portal', 'dist');
    dir = parent;
  }
}
