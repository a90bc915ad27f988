import createClient, { type Client, type Middleware } from 'openapi-fetch';
import { PORTAL_API_BASE, PORTAL_HEADER } from '../../../domain/portal/portal.paths.ts';
import { ApiError, toApiError } from './errors.ts';
import type { paths as AuditPaths } from './schema/audit.d.ts';
import type { paths as BridgePaths } from './schema/bridge.d.ts';
import type { paths as HubPaths } from './schema/hub.d.ts';
import type { paths as IdentityPaths } from './schema/identity.d.ts';
import type { paths as OperationsPaths } from './schema/operations.d.ts';
import type { paths as WorkflowPaths } from './schema/workflow.d.ts';
import { takesTenant, targetTenant } from './target-tenant.ts';

/**
 * Typed clients of the platform's APIs, through the portal's backend (`/portal/api/<API path>`): the
 * paths, parameters and bodies are those of the services' OpenAPI documents (src/api/schema, generated),
 * so a changed API breaks `npm run typecheck`. Every call carries the portal's header (the backend refuses
 * calls without it); the session cookie goes along by itself. The target tenant is added where the API
 * takes one.
 *
 *   const page = await call(api.identity.GET('/cas/admin/v1/clients', { params: { query: { limit: 20, offset: 0 } } }));
 */
export const API_BASE = PORTAL_API_BASE;

/**
 * The JSON body an operation takes, from the generated `paths`: builders of a body return this type, so a
 * changed request schema breaks them, not only the call (`RequestBody<BridgePaths, '/…/rules', 'post'>`).
 */
export type RequestBody<P, Path extends keyof P, M extends keyof P[Path]> = P[Path][M] extends {
  requestBody?: { content: { 'application/json': infer B } };
}
  ? B
  : never;

const listeners = new Set<() => void>();
/** called when a call finds the session gone (the shell goes back to the sign-in page) */
export const onSessionEnded = (fn: () => void): (() => void) => {
  listeners.add(fn);
  return () => listeners.delete(fn);
};

const portalMiddleware: Middleware = {
  onRequest({ request, schemaPath }) {
    request.headers.set(PORTAL_HEADER, '1');
    const tenant = targetTenant();
    if (tenant === undefined || !takesTenant(request.method, schemaPath)) return request;
    const url = new URL(request.url);
    if (url.searchParams.has('tenant')) return request;
    url.searchParams.set('tenant', tenant);
    return new Request(url, request);
  },
  async onResponse({ response }) {
    if (response.status === 401) {
      const body = (await response
        .clone()
        .json()
        .catch(() => null)) as { code?: string } | null;
      if (body?.code === 'PORTAL.NO_SESSION') for (const fn of listeners) fn();
    }
    return response;
  },
};

function client<P extends {}>(): Client<P> {
  const c = createClient<P>({ baseUrl: API_BASE, credentials: 'same-origin' });
  c.use(portalMiddleware);
  return c;
}

export const api = {
  identity: client<IdentityPaths>(),
  bridge: client<BridgePaths>(),
  audit: client<AuditPaths>(),
  workflow: client<WorkflowPaths>(),
  hub: client<HubPaths>(),
  operations: client<OperationsPaths>(),
};

/** The answer's data, or the API's error as an ApiError (code, message, details). */
export async function call<T>(pending: Promise<{ data?: T; error?: unknown; response: Response }>): Promise<T> {
  let answer;
  try {
    answer = await pending;
  } catch {
    throw new ApiError(0, 'NETWORK.UNAVAILABLE', 'the platform cannot be reached');
  }
  if (answer.response.ok) return answer.data as T;
  throw toApiError(answer.response.status, answer.error);
}
