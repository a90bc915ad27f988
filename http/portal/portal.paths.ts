import { PORTAL_CLIENT_PREFIX, platformClientId } from '../../domain/identity/platform-clients.constants.ts';

// the paths, cookies and header are the web console's too: they live where its sources may import them
export * from '../../domain/portal/portal.paths.ts';

/** the portal client of a tenant: one confidential client per tenant, registered by the platform */
export const portalClientId = (tenant: string): string => platformClientId(PORTAL_CLIENT_PREFIX, tenant);
