import { type Request, type RequestHandler, Router } from 'express';
import { decodeJwt } from 'jose';
import { ASSERTION_ALGORITHMS } from '../../commands/identity/client.authenticator.ts';
import type { ExchangeCodes } from '../../commands/identity/exchange-codes.commands.ts';
import type { Directory, TokenService } from '../../commands/identity/identity.contracts.ts';
import { OAuthError } from '../../commands/identity/oauth.error.ts';
import type { AccessContext } from '../../domain/core/access-context.ts';
import type { Client, User } from '../../domain/identity/model.ts';
import { authOf, type BearerAuth, BearerChallenge, bearerAuth } from '../core/bearer-auth.ts';
import { commandMetadata } from '../core/request-context.ts';
import type { RouteDescription, RouteRegistry } from '../core/route-registry.ts';
import { type JsonSchema, validate } from '../core/validate.ts';
import {
  AUTHORIZATION_SERVER_METADATA_PATH,
  AUTHORIZE_PATH,
  CROSS_TENANT_SCOPE,
  EXCHANGE_CODE_CONSUME_PATH,
  EXCHANGE_CODE_GET_PATH,
  IDENTITY_ADMIN_SCOPE,
  INTROSPECT_PATH,
  JWKS_PATH,
  LOGOUT_PATH,
  OIDC_SCOPES,
  OPENID_CONFIGURATION_PATH,
  PROTECTED_RESOURCE_METADATA_PATH,
  REVOKE_PATH,
  TOKEN_PATH,
  USERINFO_PATH,
  VALIDATE_TOKEN_PATH,
} from './identity.paths.ts';

/**
 * Discovery, keys and the token-facing endpoints of the identity provider:
 *   GET  /.well-known/oauth-authorization-server, /.well-known/openid-configuration   RFC 8414 / OIDC Discovery
 *   GET  /.well-known/oauth-protected-resource                                       RFC 9728
 *   GET  /cas/oidc/jwks                                                              the published keys
 *   GET|POST /cas/oidc/userinfo                                                      OIDC Core 5.3
 *   GET  /cas/validate-token                                                         the spec's token validation
 *   POST /cas/oidc/introspect                                                        RFC 7662
 *   POST /cas/oidc/revoke                                                            RFC 7009
 *   POST /cas/exchange-code/get, /cas/exchange-code/consume                          internal identity propagation
 *
 * The issuer is the public base URL without a path (RFC 8414 3: the metadata of an issuer with a path
 * lives under /.well-known/oauth-authorization-server/<path>, so an issuer of {base_url}/cas would not own
 * the document the spec serves at the root); the endpoints stay at the spec's /cas/... paths.
 */
export type TokenRouterDeps = {
  /** config.publicBaseUrl */
  issuer: string;
  tokens: TokenService;
  directory: Pick<Directory, 'getUser' | 'getClient'>;
  /**
   * Authenticates the calling client at introspection, revocation and exchange-code consumption
   * (client_secret_basic, client_secret_post, private_key_jwt; the token endpoint's helper). Throws an
   * OAuthError('invalid_client') when it fails.
   */
  authenticateClient(req: Request): Promise<Client>;
  exchangeCodes: ExchangeCodes;
  /** the middleware other routers use too; built from tokens.verifyAccessToken when absent */
  bearer?: BearerAuth;
  /** records the routes for the identity service's OpenAPI document */
  registry?: RouteRegistry;
  /** Cache-Control max-age of the JWKS (default 60 s; keep it well below the key ring's publish delay) */
  jwksMaxAgeSeconds?: number;
};

/** Scopes the platform's resource server understands, published in the protected-resource metadata. */
export const RESOURCE_SCOPES = [...OIDC_SCOPES, IDENTITY_ADMIN_SCOPE, CROSS_TENANT_SCOPE];

export function discoveryDocument(issuer: string): Record<string, unknown> {
  return {
    issuer,
    authorization_endpoint: `${issuer}${AUTHORIZE_PATH}`,
    token_endpoint: `${issuer}${TOKEN_PATH}`,
    userinfo_endpoint: `${issuer}${USERINFO_PATH}`,
    token_validation_endpoint: `${issuer}${VALIDATE_TOKEN_PATH}`,
    jwks_uri: `${issuer}${JWKS_PATH}`,
    end_session_endpoint: `${issuer}${LOGOUT_PATH}`,
    introspection_endpoint: `${issuer}${INTROSPECT_PATH}`,
    revocation_endpoint: `${issuer}${REVOKE_PATH}`,
    scopes_supported: [...OIDC_SCOPES],
    // as the spec lists them; the authorization endpoint answers unsupported_response_type for all but code
    response_types_supported: ['code', 'token', 'id_token', 'token id_token'],
    response_modes_supported: ['query'],
    // the password grant is registrable per client but never advertised
    grant_types_supported: ['authorization_code', 'client_credentials', 'refresh_token'],
    token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post', 'none', 'private_key_jwt'],
    token_endpoint_auth_signing_alg_values_supported: [...ASSERTION_ALGORITHMS],
    introspection_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post', 'private_key_jwt'],
    introspection_endpoint_auth_signing_alg_values_supported: [...ASSERTION_ALGORITHMS],
    revocation_endpoint_auth_methods_supported: [
      'client_secret_basic',
      'client_secret_post',
      'private_key_jwt',
      'none',
    ],
    revocation_endpoint_auth_signing_alg_values_supported: [...ASSERTION_ALGORITHMS],
    code_challenge_methods_supported: ['S256', 'plain'],
    subject_types_supported: ['public'],
    id_token_signing_alg_values_supported: ['RS256'],
    claims_supported: [
      'sub',
      'name',
      'nickname',
      'preferred_username',
      'email',
      'iss',
      'aud',
      'exp',
      'iat',
      'auth_time',
      'nonce',
      'azp',
      'tenant',
      'userName',
    ],
    prompt_values_supported: ['none', 'login'],
    claims_parameter_supported: false,
    request_parameter_supported: false,
    request_uri_parameter_supported: false,
  };
}

export function protectedResourceDocument(issuer: string): Record<string, unknown> {
  return {
    resource: issuer,
    authorization_servers: [issuer],
    bearer_methods_supported: ['header'],
    scopes_supported: RESOURCE_SCOPES,
    resource_signing_alg_values_supported: ['RS256'],
    resource_name: 'platform',
  };
}

const NO_STORE = { 'Cache-Control': 'no-store', Pragma: 'no-cache' };

/** Public, credential-free documents may be read from any origin (bearer tokens are not cookies). */
const cors: RequestHandler = (req, res, next) => {
  res.set('Access-Control-Allow-Origin', '*');
  if (req.method === 'OPTIONS') {
    res
      .set({
        'Access-Control-Allow-Methods': 'GET, POST',
        'Access-Control-Allow-Headers': 'Authorization, Content-Type',
        'Access-Control-Max-Age': '600',
      })
      .status(204)
      .end();
    return;
  }
  next();
};

const exchangeGetBody: JsonSchema = {
  type: 'object',
  properties: {
    audience: {
      type: 'string',
      minLength: 1,
      maxLength: 200,
      description: 'client_id of the only service allowed to consume the code',
    },
  },
  additionalProperties: false,
};

export function createTokenRouter(deps: TokenRouterDeps): Router {
  const { issuer, tokens, directory } = deps;
  const router = Router();
  const bearer =
    deps.bearer ?? bearerAuth((t) => tokens.verifyAccessToken(t), { getClient: (id) => directory.getClient(id) });
  const jwksMaxAge = deps.jwksMaxAgeSeconds ?? 60;
  const describe = (d: Omit<RouteDescription, 'tags'>) => deps.registry?.describeRoute({ ...d, tags: ['identity'] });

  const discovery: RequestHandler = (_req, res) => {
    res.set('Cache-Control', 'public, max-age=300').json(discoveryDocument(issuer));
  };
  describe({
    method: 'get',
    path: AUTHORIZATION_SERVER_METADATA_PATH,
    summary: 'Authorization server metadata (RFC 8414)',
    schemas: {},
  });
  describe({
    method: 'get',
    path: OPENID_CONFIGURATION_PATH,
    summary: 'OpenID Connect discovery (same document)',
    schemas: {},
  });
  router.get(AUTHORIZATION_SERVER_METADATA_PATH, cors, discovery);
  router.get(OPENID_CONFIGURATION_PATH, cors, discovery);

  describe({
    method: 'get',
    path: PROTECTED_RESOURCE_METADATA_PATH,
    summary: 'Protected resource metadata (RFC 9728)',
    schemas: {},
  });
  router.get(PROTECTED_RESOURCE_METADATA_PATH, cors, (_req, res) => {
    res.set('Cache-Control', 'public, max-age=300').json(protectedResourceDocument(issuer));
  });

  describe({ method: 'get', path: JWKS_PATH, summary: 'Published signing keys (JWK Set)', schemas: {} });
  router.get(JWKS_PATH, cors, async (_req, res) => {
    const jwks = await tokens.jwks();
    res
      .set('Cache-Control', `public, max-age=${jwksMaxAge}`)
      .type('application/jwk-set+json')
      .send(JSON.stringify(jwks));
  });

  // userinfo: bearer in the header or (POST, form) in the body; scope openid; the claims the scopes allow
  const userinfo: RequestHandler[] = [
    cors,
    bearer.authenticateHeaderOrBody,
    bearer.requireScope('openid'),
    async (_req, res) => {
      const auth = authOf(res);
      const user = await directory.getUser(auth.tenant, auth.subject);
      if (user !== null && user.status !== 'active') throw invalidToken('the user is disabled');
      // a machine user (client_credentials' default_user) has no directory entry: its sub is all there is
      res.set(NO_STORE).json(user === null ? { sub: auth.subject } : userinfoClaims(user, auth.scopes));
    },
  ];
  describe({ method: 'get', path: USERINFO_PATH, summary: 'User info (bearer access token)', schemas: {} });
  describe({
    method: 'post',
    path: USERINFO_PATH,
    summary: 'User info (bearer in header or form body)',
    schemas: {},
    requestContentType: 'application/x-www-form-urlencoded',
  });
  router.options(USERINFO_PATH, cors);
  router.get(USERINFO_PATH, ...userinfo);
  router.post(USERINFO_PATH, ...userinfo);

  describe({
    method: 'get',
    path: VALIDATE_TOKEN_PATH,
    summary: 'Validates the bearer access token and answers who it belongs to',
    schemas: {},
  });
  router.get(VALIDATE_TOKEN_PATH, bearer.authenticate, async (req, res) => {
    const auth = authOf(res);
    const iat = issuedAt(req);
    const user = await directory.getUser(auth.tenant, auth.subject);
    if (user !== null && user.status !== 'active') throw invalidToken('the user is disabled');
    res.set(NO_STORE).json(validationBody(auth, iat, user));
  });

  describe({
    method: 'post',
    path: INTROSPECT_PATH,
    summary: 'Token introspection (RFC 7662), client-authenticated',
    schemas: {
      body: {
        type: 'object',
        required: ['token'],
        properties: { token: { type: 'string' }, token_type_hint: { type: 'string' } },
      },
    },
    requestContentType: 'application/x-www-form-urlencoded',
  });
  router.post(INTROSPECT_PATH, async (req, res) => {
    const client = await deps.authenticateClient(req);
    const token = formField(req, 'token');
    const result = await tokens.introspect(token);
    // tenant isolation: a client learns about tokens of its own tenant (or those it may act for) only
    const tenants = [client.tenant, ...client.allowedAccessTenants];
    const visible = result.active === true && typeof result.tenant === 'string' && tenants.includes(result.tenant);
    res.set(NO_STORE).json(visible ? result : { active: false });
  });

  describe({
    method: 'post',
    path: REVOKE_PATH,
    summary: 'Token revocation (RFC 7009), client-authenticated',
    schemas: {
      body: {
        type: 'object',
        required: ['token'],
        properties: { token: { type: 'string' }, token_type_hint: { type: 'string' } },
      },
    },
    requestContentType: 'application/x-www-form-urlencoded',
  });
  router.post(REVOKE_PATH, async (req, res) => {
    const client = await deps.authenticateClient(req);
    const token = formField(req, 'token');
    const rawHint = (req.body as Record<string, unknown> | undefined)?.token_type_hint;
    // an unknown hint is ignored (RFC 7009 2.1: the server searches across all its tokens anyway)
    const hint = rawHint === 'access_token' || rawHint === 'refresh_token' ? rawHint : undefined;
    await tokens.revoke(client, token, hint);
    res.set(NO_STORE).status(200).end();
  });

  const exchangeGet = {
    method: 'post' as const,
    path: EXCHANGE_CODE_GET_PATH,
    summary: 'Issues a one-time exchange code carrying the caller identity',
    schemas: { body: exchangeGetBody },
  };
  describe(exchangeGet);
  const emptyBody: RequestHandler = (req, _res, next) => {
    req.body ??= {}; // a POST without a body asks for a code without an audience
    next();
  };
  router.post(
    EXCHANGE_CODE_GET_PATH,
    bearer.authenticate,
    emptyBody,
    validate({ body: exchangeGetBody }),
    async (req, res) => {
      const auth = authOf(res);
      const body = (req.body ?? {}) as { audience?: string };
      const issued = await deps.exchangeCodes.issue(
        auth,
        { ...(body.audience !== undefined && { audience: body.audience }) },
        commandMetadata(res, { tenant: auth.tenant, actor: auth.subject }),
      );
      res.set(NO_STORE).json({ code: issued.code, expires_in: issued.expiresIn, expires_at: issued.expiresAt });
    },
  );

  describe({
    method: 'post',
    path: EXCHANGE_CODE_CONSUME_PATH,
    summary: 'Consumes an exchange code (client-authenticated) and answers the identity it carries',
    schemas: { body: { type: 'object', required: ['code'], properties: { code: { type: 'string' } } } },
    // client-authenticated like the OAuth endpoints, and read as they are: a form (a JSON body works too)
    requestContentType: 'application/x-www-form-urlencoded',
  });
  router.post(EXCHANGE_CODE_CONSUME_PATH, async (req, res) => {
    const client = await deps.authenticateClient(req);
    const code = formField(req, 'code');
    const identity = await deps.exchangeCodes.consume(
      code,
      client,
      commandMetadata(res, { tenant: client.tenant, actor: client.clientId }),
    );
    res.set(NO_STORE).json({
      sub: identity.subject,
      tenant: identity.tenant,
      client_id: identity.clientId,
      scope: identity.scopes.join(' '),
      issued_at: identity.issuedAt,
    });
  });

  return router;
}

/** Userinfo claims for the token's scopes (OIDC Core 5.4): profile → name, nickname, preferred_username; email → email. */
export function userinfoClaims(user: User, scopes: string[]): Record<string, string> {
  const claims: Record<string, string> = { sub: user.userId };
  if (scopes.includes('profile')) {
    claims.name = user.name;
    if (user.nickname !== undefined) claims.nickname = user.nickname;
    claims.preferred_username = user.username;
  }
  if (scopes.includes('email') && user.email !== undefined) claims.email = user.email;
  return claims;
}

/** The validate-token answer ("not shown" in the spec): RFC 7662's field names plus the user. */
function validationBody(auth: AccessContext, iat: number | undefined, user: User | null): Record<string, unknown> {
  return {
    active: true,
    sub: auth.subject,
    client_id: auth.clientId,
    tenant: auth.tenant,
    scope: auth.scopes.join(' '),
    exp: auth.exp,
    ...(iat !== undefined && { iat }),
    jti: auth.jti,
    user:
      user === null
        ? null
        : {
            sub: user.userId,
            userName: user.username,
            preferred_username: user.username,
            name: user.name,
            ...(user.nickname !== undefined && { nickname: user.nickname }),
            ...(user.email !== undefined && { email: user.email }),
            tenant: user.tenant,
          },
  };
}

/** iat of the (already verified) bearer token in the Authorization header. */
function issuedAt(req: Request): number | undefined {
  const header = req.headers.authorization ?? '';
  try {
    const iat = decodeJwt(header.slice(header.indexOf(' ') + 1).trim()).iat;
    return typeof iat === 'number' ? iat : undefined;
  } catch {
    return undefined;
  }
}

/** A required string field of a form (or JSON) body; RFC 6749 invalid_request when it is missing. */
function formField(req: Request, name: string): string {
  const value = (req.body as Record<string, unknown> | undefined)?.[name];
  if (typeof value !== 'string' || value.length === 0) throw new OAuthError('invalid_request', `${name} is required`);
  return value;
}

const invalidToken = (description: string) =>
  new BearerChallenge(
    'AUTH.INVALID_TOKEN',
    description,
    `Bearer error="invalid_token", error_description="${description}"`,
  );
