// The HTTP skeleton the service routers plug into; import from here rather than from the single files.

export type { AppOptions, ServiceName, ServiceRouter } from './app.ts';
export { createApp, emptyServiceRouter } from './app.ts';
export { assertWithinLimits, jsonBodyLimits, limitExceeded } from './body-limits.ts';
export type { Problem, SelfRenderingError } from './errors.ts';
export {
  capProblem,
  errorHandler,
  isSelfRendering,
  MAX_ERROR_DETAILS,
  notFoundHandler,
  STORE_RETRY_AFTER_SECONDS,
} from './errors.ts';
export type { ReadinessCheck, ReadinessReport } from './health.ts';
export { healthRouter } from './health.ts';
export { isJsonMediaType, JSON_MEDIA_TYPE, nonJsonBody, requireJsonBody } from './media-type.ts';
export type { HttpMetrics } from './metrics.ts';
export { createHttpMetrics, routeLabel } from './metrics.ts';
export type { OpenApiDocument } from './openapi.ts';
export { openApiDocument, toOpenApiPath } from './openapi.ts';
export { MAX_PAGE_OFFSET, pageAnswer, pageOf, pageOffsetSchema, pageSizeSchema, pagingProperties } from './paging.ts';
export type { CommandMetadata, RequestContext } from './request-context.ts';
export {
  CORRELATION_ID_HEADER,
  commandMetadata,
  currentRequestContext,
  REQUEST_ID_HEADER,
  rebindRequestContext,
  requestContext,
  requestContextMiddleware,
  runWithRequestContext,
} from './request-context.ts';
export { requestLogger, requestLogging } from './request-log.ts';
export type { HttpMethod, RouteDescription, RouteRegistry } from './route-registry.ts';
export { createRouteRegistry } from './route-registry.ts';
export type { RunningServer } from './server.ts';
export { DEFAULT_SHUTDOWN_TIMEOUT_MS, startHttpServer } from './server.ts';
export type { TenancyRule } from './tenancy.ts';
export {
  authOf,
  commandContext,
  isPlatformAdmin,
  mayActOn,
  PLATFORM_ADMINS_NAME_ANY,
  setAccess,
  TOKEN_TENANCY,
  targetTenant,
  tenantOf,
} from './tenancy.ts';
export type { JsonSchema, RequestPart, RequestSchemas, ValidationIssue } from './validate.ts';
export { validate } from './validate.ts';
export { wholeBodies } from './whole-body.ts';
