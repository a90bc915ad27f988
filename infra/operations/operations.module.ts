import type { ServiceModule } from '../platform-service.ts';

/**
 * The operations API as one entry of the platform's service list: no projections or deciders of its
 * own; it reports on everyone else's.
 */
export const operationsModule: ServiceModule = {
  name: 'operations',
  projections: () => [],
  deciders: () => ({}),
  async create(deps) {
    const { createOperationsService } = await import('./operations.service.ts');
    return createOperationsService(deps);
  },
};
