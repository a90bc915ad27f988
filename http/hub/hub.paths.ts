/**
 * The notification hub's paths and scopes, in one place (DESIGN "Services as modules"). The business API
 * base is the spec's `/comm/v1`; the OpenAPI group `connecthub` is served at `/v3/api-docs/connecthub`.
 * Administration paths are not shown by the spec: these are ours (README "Notification hub").
 */
export { HUB_ADMIN_SCOPE, HUB_OPERATOR_SCOPE, HUB_SCOPES, HUB_SEND_SCOPE } from '../../domain/hub/hub.scopes.ts';

export const HUB_BASE = '/comm/v1';
export const HUB_OPENAPI_PATH = '/v3/api-docs/connecthub';

export const SEND_PATH = `${HUB_BASE}/notifications/send`;
export const SEND_REQUEST_PATH = `${HUB_BASE}/send-requests/getById`;
export const MESSAGE_PATH = `${HUB_BASE}/messages/getById`;
export const MESSAGE_TIMELINE_PATH = `${HUB_BASE}/messages/timeline`;
export const RECEIPT_PATH = `${HUB_BASE}/callbacks/receipt`;
export const CALLBACK_ID_HEADER = 'x-comm-callback-id';

export const CHANNELS_PATH = `${HUB_BASE}/channels`;
export const SERVICES_PATH = `${HUB_BASE}/delivery-services`;
export const DRIVER_TYPES_PATH = `${SERVICES_PATH}/driverTypes`;
export const VALIDATE_SETTINGS_PATH = `${SERVICES_PATH}/validateSettings`;
export const TEMPLATES_PATH = `${HUB_BASE}/templates`;
export const CONTEXTS_PATH = `${HUB_BASE}/context-definitions`;
export const DEFINITIONS_PATH = `${HUB_BASE}/definitions`;
export const RULES_PATH = `${HUB_BASE}/delivery-rules`;
export const SNAPSHOTS_PATH = `${HUB_BASE}/configuration-snapshots`;
