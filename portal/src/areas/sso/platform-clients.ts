/**
 * The clients the platform registers in every tenant for its own services: the portal's sign-in client
 * (`portal.<tenant>`) and the hub's webhook client (`hub-webhooks.<tenant>`). The platform keeps their
 * settings (docs/portal.md, docs/identity.md), so the portal shows them but offers no edit, no secret
 * rotation and no API access change. The prefixes are those of domain/identity/platform-client-ids.ts,
 * which the portal may not import (only the services' scope constants).
 */
const MANAGED: ReadonlyArray<{ prefix: string; what: string }> = [
  { prefix: 'portal', what: "the portal's sign-in for this tenant" },
  { prefix: 'hub-webhooks', what: "the notification hub's webhook calls for this tenant" },
];

/** what a platform-managed client is for, or undefined for the tenant's own applications */
export function platformManaged(clientId: string, tenant: string): string | undefined {
  return MANAGED.find((m) => clientId === `${m.prefix}.${tenant}`)?.what;
}
