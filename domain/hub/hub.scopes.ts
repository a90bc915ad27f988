/**
 * The notification hub's scopes (DESIGN "Services as modules": per service, its scopes live once). Routers
 * (http/hub) require them, the seed (infra/identity/seed.ts) grants them to the demo client.
 */

/** send notifications and read their progress (send requests, messages, timelines) */
export const HUB_SEND_SCOPE = 'hub:send';
/** configuration: channels, delivery services, templates, context definitions, definitions, rules, snapshots */
export const HUB_ADMIN_SCOPE = 'hub:admin';
/** operator actions (retry, cancel, manual receipt) and investigation (message detail, timeline) */
export const HUB_OPERATOR_SCOPE = 'hub:operator';

/**
 * carried by the platform tenant token of the hub's webhook calls (the `hub-webhooks.<tenant>` machine client):
 * a receiver may require it; no endpoint of the platform accepts it, so the token opens none of its APIs
 */
export const HUB_WEBHOOK_SCOPE = 'hub:webhook';

export const HUB_SCOPES = [HUB_SEND_SCOPE, HUB_ADMIN_SCOPE, HUB_OPERATOR_SCOPE] as const;
