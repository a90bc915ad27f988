import {
  HUB_WEBHOOKS_CLIENT_PREFIX,
  PORTAL_CLIENT_PREFIX,
  platformClientId,
} from '../../../../domain/identity/platform-clients.constants.ts';

/**
 * The clients the platform registers in every tenant for its own services: the portal's sign-in client
 * (`portal.<tenant>`) and the hub's webhook client (`hub-webhooks.<tenant>`). The platform keeps their
 * settings (docs/portal.md, docs/identity.md), so the portal shows them but offers no edit, no secret
 * rotation and no API access change.
 */
const MANAGED = [
  { prefix: PORTAL_CLIENT_PREFIX, what: "the portal's sign-in for this tenant" },
  { prefix: HUB_WEBHOOKS_CLIENT_PREFIX, what: "the notification hub's webhook calls for this tenant" },
] as const;

/** what a platform-managed client is for, or undefined for the tenant's own applications */
export function platformManaged(clientId: string, tenant: string): string | undefined {
  return MANAGED.find((m) => clientId === platformClientId(m.prefix, tenant))?.what;
}
