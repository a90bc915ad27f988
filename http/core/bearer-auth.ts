import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { type AccessContext, CROSS_TENANT_SCOPE } from '../../domain/core/access-context.ts';
import { BearerChallenge, quoted } from './bearer-challenge.ts';
import { authOf, setAccess, targetTenant } from './tenancy.ts';

export { BearerChallenge } from './bearer-challenge.ts';
export { authOf } from './tenancy.ts';

/**
 * The bearer-token middleware every service router uses (RFC 6750).
 *
 *   const bearer = bearerAuth(tokens.verifyAccessToken, { getClient: directory.getClient });
 *   router.get('/x', bearer.authenticate, bearer.requireScope('audit:read'), (req, res) => {
 *     const tenant = targetTenant(res, req.query.tenant);   // http/core/tenancy.ts: the token's, or an allowed other one
 *   });
 *
 * The token is verified locally (signature by kid, exp, iss, aud, revocation list: that is `verify`), and
 * the request carries its access context {tenant, subject, clientId, scopes, jti, exp} (`authOf(res)`).
 * Tenant isolation comes from the token, never from a request field, except through the tenancy rule
 * (http/core/tenancy.ts), for which this middleware looks up the allowed tenants of cross-tenant tokens.
 *
 * Answers: no token 401 `WWW-Authenticate: Bearer realm="platform"` {code: AUTH.REQUIRED}; a bad token
 * 401 `Bearer error="invalid_token", error_description="…"`; a malformed request 400
 * `Bearer error="invalid_request"`; a missing scope 403 `Bearer error="insufficient_scope", scope="…"`.
 */
export type VerifyAccessToken = (token: string) => Promise<AccessContext>;

export type BearerAuthOptions = {
  /** the token's client, for its allowed_access_tenants (looked up only for tokens with CROSS_TENANT_SCOPE) */
  getClient?: (clientId: string) => Promise<{ allowedAccessTenants: string[] } | null>;
  realm?: string;
};

export type BearerAuth = {
  /** Authorization: Bearer only */
  authenticate: RequestHandler;
  /** Authorization: Bearer, or `access_token` in a form-encoded POST body (RFC 6750 2.2): userinfo only */
  authenticateHeaderOrBody: RequestHandler;
  /** every scope listed is required */
  requireScope(...scopes: string[]): RequestHandler;
  /** the tenant a request acts on (http/core/tenancy.ts targetTenant with the token's rule) */
  targetTenant(res: Response, requested?: unknown): string;
};

// RFC 6750 2.1: b64token = 1*( ALPHA / DIGIT / "-" / "." / "_" / "~" / "+" / "/" ) *"="
const B64TOKEN = /^[A-Za-z0-9\-._~+/]+=*$/;
const MAX_TOKEN = 8192;

const isOAuthInvalidToken = (e: unknown): e is { code: string; description?: string; message: string } =>
  typeof e === 'object' && e !== null && (e as { code?: unknown }).code === 'invalid_token';

export function bearerAuth(verify: VerifyAccessToken, options: BearerAuthOptions = {}): BearerAuth {
  const realm = options.realm ?? 'platform';

  const missing = () =>
    new BearerChallenge('AUTH.REQUIRED', 'a bearer access token is required', `Bearer realm="${quoted(realm)}"`);
  const malformed = (description: string) =>
    new BearerChallenge(
      'AUTH.INVALID_REQUEST',
      description,
      `Bearer error="invalid_request", error_description="${quoted(description)}"`,
    );
  const invalid = (description: string) =>
    new BearerChallenge(
      'AUTH.INVALID_TOKEN',
      description,
      `Bearer error="invalid_token", error_description="${quoted(description)}"`,
    );

  /** undefined: no bearer credentials at all; a string: the token; throws on a malformed attempt */
  function fromHeader(req: Request): string | undefined {
    const header = req.headers.authorization;
    if (header === undefined) return undefined;
    const space = header.indexOf(' ');
    const scheme = space < 0 ? header : header.slice(0, space);
    if (scheme.toLowerCase() !== 'bearer') return undefined; // another scheme (Basic…) is not a bearer token
    const token = space < 0 ? '' : header.slice(space + 1).trim();
    if (token.length === 0 || token.length > MAX_TOKEN || !B64TOKEN.test(token))
      throw malformed('the Authorization header is not "Bearer <token>"');
    return token;
  }

  function fromBody(req: Request): string | undefined {
    if (req.method === 'GET' || req.method === 'HEAD' || !req.is('application/x-www-form-urlencoded')) return undefined;
    const body = req.body as Record<string, unknown> | undefined;
    const token = body?.access_token;
    if (token === undefined) return undefined;
    if (typeof token !== 'string' || token.length === 0 || token.length > MAX_TOKEN || !B64TOKEN.test(token)) {
      throw malformed('access_token in the body is malformed');
    }
    return token;
  }

  async function check(req: Request, res: Response, allowBody: boolean): Promise<void> {
    const header = fromHeader(req);
    const body = allowBody ? fromBody(req) : undefined;
    if (header !== undefined && body !== undefined) throw malformed('the token was sent in more than one way');
    const token = header ?? body;
    if (token === undefined) throw missing();
    let context: AccessContext;
    try {
      context = await verify(token);
    } catch (err) {
      if (isOAuthInvalidToken(err)) throw invalid(err.description ?? err.message);
      throw err; // a store outage is a 503, not the caller's fault
    }
    // the tenancy rule needs the client's allowed tenants only for tokens that may cross tenants
    const allowed =
      options.getClient && context.scopes.includes(CROSS_TENANT_SCOPE)
        ? ((await options.getClient(context.clientId))?.allowedAccessTenants ?? [])
        : undefined;
    setAccess(res, context, allowed);
  }

  const middleware =
    (allowBody: boolean): RequestHandler =>
    (req: Request, res: Response, next: NextFunction) => {
      check(req, res, allowBody).then(() => next(), next);
    };

  return {
    authenticate: middleware(false),
    authenticateHeaderOrBody: middleware(true),

    requireScope(...scopes: string[]): RequestHandler {
      const list = scopes.join(' ');
      return (_req, res, next) => {
        const auth = authOf(res);
        const lacking = scopes.filter((s) => !auth.scopes.includes(s));
        if (lacking.length === 0) return next();
        next(
          new BearerChallenge(
            'AUTH.INSUFFICIENT_SCOPE',
            `the access token lacks the scope ${lacking.join(' ')}`,
            `Bearer error="insufficient_scope", scope="${quoted(list)}"`,
            { required: scopes },
          ),
        );
      };
    },

    targetTenant: (res: Response, requested?: unknown): string => targetTenant(res, requested),
  };
}
