/**
 * The notification hub's paths and scopes, in one place (DESIGN "Services as modules"). The business API
 * base is the spec's `/comm/v1`; the OpenAPI group `connecthub` is served at `/v3/api-docs/connecthub`.
 * Administration paths are not shown by the spec: these are ours (docs/hub.md#endpoints).
 */
import { HUB_BASE, RECEIPT_PATH } from '../../domain/hub/hub.paths.ts';

export { HUB_ADMIN_SCOPE, HUB_OPERATOR_SCOPE, HUB_SCOPES, HUB_SEND_SCOPE } from '../../domain/hub/hub.scopes.ts';
export { HUB_BASE, RECEIPT_PATH };

export const HUB_OPENAPI_PATH = '/v3/api-docs/connecthub';

export const SEND_PATH = `${HUB_BASE}/notifications/send`;
export const SEND_REQUEST_PATH = `${HUB_BASE}/send-requests/getById`;
export const MESSAGE_PATH = `${HUB_BASE}/messages/getById`;
export const MESSAGE_TIMELINE_PATH = `${HUB_BASE}/messages/timeline`;
/** operators' notification search (ours: the spec shows no search path) */
export const NOTIFICATION_SEARCH_PATH = `${HUB_BASE}/notifications/search`;
/** TCC branch operations (ours: the spec names Try, Confirm and Cancel, not their paths) */
export const TCC_BASE = `${HUB_BASE}/notifications/tcc`;
export const TCC_TRY_PATH = `${TCC_BASE}/try`;
export const TCC_CONFIRM_PATH = `${TCC_BASE}/confirm`;
export const TCC_CANCEL_PATH = `${TCC_BASE}/cancel`;
export const TCC_GET_PATH = `${TCC_BASE}/getById`;
export const CALLBACK_ID_HEADER = 'x-comm-callback-id';
/** operator actions (spec: retry and actionEligibility; the others' paths are not shown: ours, docs/hub.md#operator-actions) */
export const MESSAGE_RETRY_PATH = `${HUB_BASE}/messages/retry`;
export const MESSAGE_ELIGIBILITY_PATH = `${HUB_BASE}/messages/actionEligibility`;
export const MESSAGE_CANCEL_PATH = `${HUB_BASE}/messages/cancel`;
export const NOTIFICATION_CANCEL_PATH = `${HUB_BASE}/notifications/cancel`;
export const MESSAGE_MANUAL_RECEIPT_PATH = `${HUB_BASE}/messages/manualReceipt`;
export const MESSAGE_COMPLETE_ROLE_PATH = `${HUB_BASE}/messages/completeRole`;
/** housekeeping job (ours, docs/hub.md#housekeeping) */
export const HOUSEKEEPING_RUN_PATH = `${HUB_BASE}/housekeeping/run`;

export const CHANNELS_PATH = `${HUB_BASE}/channels`;
export const SERVICES_PATH = `${HUB_BASE}/delivery-services`;
export const DRIVER_TYPES_PATH = `${SERVICES_PATH}/driverTypes`;
export const VALIDATE_SETTINGS_PATH = `${SERVICES_PATH}/validateSettings`;
export const TEMPLATES_PATH = `${HUB_BASE}/templates`;
export const CONTEXTS_PATH = `${HUB_BASE}/context-definitions`;
export const DEFINITIONS_PATH = `${HUB_BASE}/definitions`;
export const RULES_PATH = `${HUB_BASE}/delivery-rules`;
export const SNAPSHOTS_PATH = `${HUB_BASE}/configuration-snapshots`;

/** customer policies (docs/hub.md#customer-policies; the spec does not show these paths: ours) */
export const PREFERENCES_PATH = `${HUB_BASE}/preferences`;
export const INTERACTIONS_PATH = `${HUB_BASE}/interactions`;
export const FREQUENCY_CAPS_PATH = `${HUB_BASE}/frequency-caps`;
export const QUIET_HOURS_PATH = `${HUB_BASE}/quiet-hours`;

/** previews (spec "Endpoints"; previewMasking's route is ours: the spec leaves it out) */
export const PREVIEW_EXTRACTION_PATH = `${HUB_BASE}/context-definitions/previewExtraction`;
export const PREVIEW_MASKING_PATH = `${HUB_BASE}/context-definitions/previewMasking`;
export const PREVIEW_CONTENT_PATH = `${HUB_BASE}/templates/previewContent`;
export const RENDER_PREVIEW_PATH = `${HUB_BASE}/templates/renderPreview`;
export const RENDER_PREVIEW_BY_ID_PATH = `${HUB_BASE}/templates/renderPreviewById`;
export const RULE_PREVIEW_PATH = `${HUB_BASE}/delivery-rules/preview`;
/** configuration bundle (the spec's data-import module `commhub`; paths ours) */
export const CONFIG_BUNDLE_PATH = `${HUB_BASE}/configuration-bundle`;
export const CONFIG_EXPORT_PATH = `${CONFIG_BUNDLE_PATH}/export`;
export const CONFIG_IMPORT_PATH = `${CONFIG_BUNDLE_PATH}/import`;
/** the platform's cache clear (spec: GET /public/cache/v1/clear/bucket?bucketCode=[the service]); the hub's bucket is `hub` */
export const CACHE_CLEAR_PATH = '/public/cache/v1/clear/bucket';
export const HUB_CACHE_BUCKET = 'hub';
