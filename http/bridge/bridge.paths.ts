/**
 * The event bridge's paths and scopes, in one place (DESIGN "Services as modules"). Every bridge router
 * declares its routes with these; the scopes themselves live in domain/bridge/bridge.scopes.ts so that
 * the seed (infra) and the commands can use them too.
 */
export {
  BRIDGE_ADMIN_SCOPE,
  BRIDGE_CONSUME_SCOPE,
  BRIDGE_PUBLISH_SCOPE,
  BRIDGE_SCOPES,
} from '../../domain/bridge/bridge.scopes.ts';

/** the spec's base path (its external gateway prefix included) */
export const BRIDGE_BASE = '/api/platform/platform-pub/eventBridge';

/** putEvent and putEvents (spec "Endpoints"), scope bridge:publish */
export const BRIDGE_EVENT_BASE = `${BRIDGE_BASE}/event/v1`;
export const PUT_EVENT_PATH = `${BRIDGE_EVENT_BASE}/putEvent`;
export const PUT_EVENTS_PATH = `${BRIDGE_EVENT_BASE}/putEvents`;

/** buses, rules, configuration, schemas, trace, deliveries, destinations (the spec shows a portal: these paths are ours), scope bridge:admin */
export const BRIDGE_ADMIN_BASE = `${BRIDGE_BASE}/admin/v1`;

/** the platform message queue's consumers, scope bridge:consume */
export const MQ_BASE = `${BRIDGE_BASE}/mq/v1`;

/** the users' inboxes (user message box targets), any token: a user reads her own */
export const INBOX_BASE = `${BRIDGE_BASE}/messages/v1/inbox`;

/** the bridge's OpenAPI 3 document (public) */
export const BRIDGE_OPENAPI_PATH = `${BRIDGE_BASE}/openapi.json`;
