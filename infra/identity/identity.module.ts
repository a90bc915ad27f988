import type { Projection } from '../../projections/core/projection.ts';
import { identityDirectoryProjections } from '../../projections/identity/directory.projection.ts';
import { revocationsProjection } from '../../projections/identity/revocations.projection.ts';
import type { PlatformService, ServiceModule } from '../platform-service.ts';
import { identityDeciders } from './identity.deciders.ts';
import type { SeedReport } from './seed.ts';

/** The identity provider's projections (free of HTTP imports: the CLI loads them). */
export const identityProjections = (): Projection[] => [...identityDirectoryProjections(), revocationsProjection];

/** The identity service as built: a platform service that also provides the platform's auth. */
export type IdentityPlatformService = PlatformService & { seed(): Promise<SeedReport | null> };

/**
 * The identity provider as one entry of the platform's service list. It is built first in every process:
 * every other service's router verifies tokens with its bearer middleware (`identity` facade).
 */
export const identityModule: ServiceModule = {
  name: 'identity',
  projections: identityProjections,
  deciders: identityDeciders,
  async create(deps): Promise<IdentityPlatformService> {
    const { createIdentityService } = await import('./identity.service.ts');
    const identity = createIdentityService(deps);
    return {
      name: 'identity',
      router: identity.router,
      registry: identity.registry,
      reactors: identity.reactors,
      engines: [],
      caches: identity.consumers,
      timers: [],
      seed: identity.seed,
      close: async () => undefined,
      dispose: async () => undefined,
      identity: {
        bearer: identity.bearer,
        tenantProfile: async (code) =>
          ((await identity.directory.getTenant(code)) as Record<string, unknown> | null | undefined) ?? null,
        tenantToken: identity.hubWebhooks.token,
      },
    };
  },
};
