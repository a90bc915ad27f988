/**
 * The event bridge's scopes (DESIGN "Services as modules": per service, its scopes live once). Routers
 * (http/bridge) require them, the seed (infra/identity/seed.ts) grants them to the demo client.
 */

/** putEvent and putEvents */
export const BRIDGE_PUBLISH_SCOPE = 'bridge:publish';
/** everything under …/admin/v1 (buses, rules, schemas, trace, deliveries, destinations, configuration) */
export const BRIDGE_ADMIN_SCOPE = 'bridge:admin';
/** the platform message queue's consumers (…/mq/v1) */
export const BRIDGE_CONSUME_SCOPE = 'bridge:consume';

export const BRIDGE_SCOPES = [BRIDGE_PUBLISH_SCOPE, BRIDGE_ADMIN_SCOPE, BRIDGE_CONSUME_SCOPE] as const;
