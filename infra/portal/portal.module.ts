import type { ServiceModule } from '../platform-service.ts';

/**
 * The web console as one entry of the platform's service list: `platform start --services` without
 * `portal` leaves it out. It is listed first, so that its router sees `/portal/api/…` before the service
 * routers it hands the rewritten requests to (http/portal/api-proxy.ts); it needs nothing built before it.
 */
export const portalModule: ServiceModule = {
  name: 'portal',
  projections: () => [],
  deciders: () => ({}),
  async create(deps) {
    const { createPortalService } = await import('./portal.service.ts');
    return createPortalService(deps);
  },
};
