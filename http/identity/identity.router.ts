import { Router } from 'express';
import { type AdminRouterDeps, createAdminRouter } from './admin.router.ts';
import { type AuthorizeRouterDeps, createAuthorizeRouter } from './authorize.router.ts';
import { createDemoCallbackRouter } from './demo-callback.router.ts';
import { createTokenRouter, type TokenRouterDeps } from './token.router.ts';
import { createTokenEndpointRouter, type TokenEndpointDeps } from './token-endpoint.router.ts';

/**
 * The identity service's router, mounted at `/`: the browser flows (authorize, login, logout), the token
 * endpoint, the token-facing endpoints (discovery, jwks, userinfo, validate-token, introspection,
 * revocation, exchange codes) and the administration API. Each part is built and tested on its own.
 */
export type IdentityRouterDeps = {
  authorize: AuthorizeRouterDeps;
  tokenEndpoint: TokenEndpointDeps;
  token: TokenRouterDeps;
  admin: AdminRouterDeps;
  /** the demo clients' redirect page, when their redirect URI is on this platform */
  demoCallback?: { path: string; tokenEndpoint: string };
};

export function createIdentityRouter(deps: IdentityRouterDeps): Router {
  const router = Router();
  router.use(createAuthorizeRouter(deps.authorize));
  router.use(createTokenEndpointRouter(deps.tokenEndpoint));
  router.use(createTokenRouter(deps.token));
  router.use(createAdminRouter(deps.admin));
  if (deps.demoCallback) router.use(createDemoCallbackRouter(deps.demoCallback));
  return router;
}
