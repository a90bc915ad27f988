/**
 * Client ids the platform registers in every tenant for its own services (`<prefix>.<tenant>`): the
 * portal's sign-in client and the hub's webhook client. Client ids are global, so such an id may be
 * registered in its own tenant only: nobody can take a tenant's id before the platform does.
 */
export const PORTAL_CLIENT_PREFIX = 'portal';
export const HUB_WEBHOOKS_CLIENT_PREFIX = 'hub-webhooks';
const RESERVED = [PORTAL_CLIENT_PREFIX, HUB_WEBHOOKS_CLIENT_PREFIX] as const;

export const platformClientId = (prefix: (typeof RESERVED)[number], tenant: string): string => `${prefix}.${tenant}`;

/** the tenant a reserved client id belongs to; undefined for any other id */
export function reservedClientTenant(clientId: string): string | undefined {
  for (const prefix of RESERVED) if (clientId.startsWith(`${prefix}.`)) return clientId.slice(prefix.length + 1);
  return undefined;
}
