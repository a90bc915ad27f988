import { type NextFunction, type Request, type Response, Router } from 'express';
import type { Logger } from 'pino';
import { newCommandId } from '../../commands/core/event-id.ts';
import type { Codes } from '../../commands/identity/authorization-codes.commands.ts';
import type { AuthenticatedClient, ClientAuthRequest } from '../../commands/identity/client.authenticator.ts';
import type {
  Directory,
  OAuthErrorCode,
  TokenResponse,
  TokenService,
} from '../../commands/identity/identity.contracts.ts';
import type { LoginLimiter } from '../../commands/identity/login.limiter.ts';
import { isOAuthError, OAuthError } from '../../commands/identity/oauth.error.ts';
import { dummyVerify as defaultDummyVerify } from '../../commands/identity/password.hash.ts';
import { isDomainError } from '../../domain/core/domain-error.ts';
import { type Client, GRANT_TYPES, type GrantType, type User } from '../../domain/identity/model.ts';
import { isStoreUnavailable } from '../../infra/core/store-errors.ts';
import { OIDC_SCOPES, TOKEN_PATH } from './identity.paths.ts';

/**
 * `POST /cas/oidc/token` (RFC 6749 3.2, form-encoded only). Client authentication first, then the grant:
 * each grant type is one small handler. Every answer carries `Cache-Control: no-store`; every error is
 * RFC 6749 5.2 `{ error, error_description }`, thrown as an OAuthError that renders itself.
 */
export type TokenEndpointDeps = {
  directory: Pick<Directory, 'getUser' | 'findUserByUsername' | 'verifyPassword'>;
  tokens: Pick<TokenService, 'issue' | 'refresh'>;
  codes: Pick<Codes, 'redeem'>;
  authenticateClient: (req: ClientAuthRequest) => Promise<AuthenticatedClient>;
  limiter: Pick<LoginLimiter, 'check' | 'recordFailure' | 'recordSuccess'>;
  clock: { now(): Date };
  log?: Logger;
  /** spends a password check's time for unknown users (default: password.hash.ts's scrypt) */
  dummyVerify?: (password: string) => Promise<boolean>;
};

type Form = Record<string, unknown>;
type GrantHandler = (form: Form, client: Client, req: Request) => Promise<TokenResponse>;

const param = (form: Form, name: string): string | undefined => {
  const v = form[name];
  if (v === undefined || v === '') return undefined;
  if (typeof v !== 'string') throw new OAuthError('invalid_request', `${name} must be given once`);
  return v;
};
const required = (form: Form, name: string): string => {
  const v = param(form, name);
  if (v === undefined) throw new OAuthError('invalid_request', `${name} is required`);
  return v;
};
const scopeList = (s: string): string[] => [...new Set(s.split(' ').filter((x) => x !== ''))];
const isOidcScope = (s: string) => (OIDC_SCOPES as readonly string[]).includes(s);

/** Requested scopes must be ones the client may ask for: openid profile email and its registered scopes. */
function allowedScopes(client: Client, requested: string | undefined, fallback: string[]): string[] {
  const allowed = new Set<string>([...OIDC_SCOPES, ...client.scopes]);
  if (requested === undefined) return fallback;
  const scopes = scopeList(requested);
  const refused = scopes.filter((s) => !allowed.has(s));
  if (scopes.length === 0 || refused.length > 0)
    throw new OAuthError('invalid_scope', `scope not allowed for this client: ${refused.join(' ') || '(empty)'}`);
  return scopes;
}

/** A user's token carries scopes beyond openid/profile/email only when the user holds them as roles. */
const forUser = (scopes: string[], user: User) => scopes.filter((s) => isOidcScope(s) || user.roles.includes(s));

export const TOO_MANY_ATTEMPTS = 'too many failed sign-in attempts; try again later';

export function createTokenEndpointRouter(deps: TokenEndpointDeps): Router {
  const dummyVerify = deps.dummyVerify ?? defaultDummyVerify;
  const nowSeconds = () => Math.floor(deps.clock.now().getTime() / 1000);
  const wantsRefresh = (client: Client) => client.grantTypes.includes('refresh_token');
  const strip = ({ grantId: _grantId, ...response }: TokenResponse & { grantId?: string }): TokenResponse => response;

  const grants: Record<GrantType, GrantHandler> = {
    async authorization_code(form, client) {
      const code = required(form, 'code');
      const redirectUri = required(form, 'redirect_uri');
      const codeVerifier = param(form, 'code_verifier');
      const redeemed = await deps.codes.redeem({ code, clientId: client.clientId, redirectUri, codeVerifier });
      const { issued } = redeemed;
      const user = await deps.directory.getUser(issued.tenant, issued.userId);
      if (user?.status !== 'active') throw new OAuthError('invalid_grant', 'the user of this code is no longer active');
      const response = await deps.tokens.issue({
        client,
        tenant: issued.tenant,
        subject: user.userId,
        scopes: issued.scopes,
        ...(issued.scopes.includes('openid') && {
          idToken: { user, authTime: issued.authTime, ...(issued.nonce !== undefined && { nonce: issued.nonce }) },
        }),
        refresh: wantsRefresh(client),
        codeId: redeemed.codeId,
        commandId: newCommandId(),
      });
      return strip(response);
    },

    async client_credentials(form, client) {
      // The machine user named at registration is the subject; without one there is nobody to issue for.
      if (client.defaultUser === undefined || client.defaultUser === '') {
        throw new OAuthError('unauthorized_client', 'the client has no default_user for client_credentials');
      }
      const scopes = allowedScopes(client, param(form, 'scope'), [...OIDC_SCOPES, ...client.scopes]);
      // No ID token (nobody authenticated) and no refresh token (RFC 6749 4.4.3): the client asks again.
      const response = await deps.tokens.issue({
        client,
        tenant: client.tenant,
        subject: client.defaultUser,
        scopes,
        refresh: false,
        commandId: newCommandId(),
        grantType: 'client_credentials',
      });
      return strip(response);
    },

    async refresh_token(form, client) {
      const refreshToken = required(form, 'refresh_token');
      const scope = param(form, 'scope');
      try {
        return strip(
          await deps.tokens.refresh(
            client,
            refreshToken,
            scope === undefined ? undefined : scopeList(scope),
            newCommandId(),
          ),
        );
      } catch (err) {
        if (isDomainError(err) && err.status >= 400 && err.status < 500 && asOAuthError(err) === null) {
          throw new OAuthError('invalid_grant', err.message, { cause: err });
        }
        throw err;
      }
    },

    /** Only for clients registered with it (never advertised): the user's password goes through the limiter. */
    async password(form, client, req) {
      const username = required(form, 'username').trim();
      const password = required(form, 'password');
      const scopes = allowedScopes(client, param(form, 'scope'), [...OIDC_SCOPES]);
      const keys = {
        user: { tenant: client.tenant, directory: client.userSourceId, username },
        ...(req.ip !== undefined && { ip: req.ip }),
      };
      const verdict = await deps.limiter.check(keys);
      if (!verdict.allowed) {
        throw new OAuthError('invalid_grant', TOO_MANY_ATTEMPTS, {
          status: 429,
          headers: { 'Retry-After': String(verdict.retryAfterSeconds) },
        });
      }
      const user =
        username.length <= 256
          ? await deps.directory.findUserByUsername(client.tenant, client.userSourceId, username)
          : null;
      let ok = false;
      // the hash is always checked (a disabled user answers as slowly as a wrong password)
      if (user) ok = (await deps.directory.verifyPassword(user, password)) && user.status === 'active';
      else await dummyVerify(password);
      if (!ok || !user) {
        await deps.limiter.recordFailure(keys);
        throw new OAuthError('invalid_grant', 'invalid username or password');
      }
      await deps.limiter.recordSuccess(keys);
      const granted = forUser(scopes, user);
      const response = await deps.tokens.issue({
        client,
        tenant: client.tenant,
        subject: user.userId,
        scopes: granted,
        ...(granted.includes('openid') && { idToken: { user, authTime: nowSeconds() } }),
        refresh: wantsRefresh(client),
        commandId: newCommandId(),
      });
      return strip(response);
    },
  };

  const token = async (req: Request, res: Response, next: NextFunction) => {
    try {
      if (!req.is('application/x-www-form-urlencoded')) {
        throw new OAuthError('invalid_request', 'the token request must be application/x-www-form-urlencoded');
      }
      const form = (req.body ?? {}) as Form;
      const { client } = await deps.authenticateClient(req);
      const grantType = required(form, 'grant_type');
      if (!(GRANT_TYPES as readonly string[]).includes(grantType)) {
        throw new OAuthError('unsupported_grant_type', `grant_type ${grantType} is not supported`);
      }
      if (!client.grantTypes.includes(grantType as GrantType)) {
        throw new OAuthError('unauthorized_client', `the client is not registered for the ${grantType} grant`);
      }
      const response = await grants[grantType as GrantType](form, client, req);
      res.status(200).set({ 'Cache-Control': 'no-store', Pragma: 'no-cache' }).json(response);
    } catch (err) {
      next(toOAuthError(err, deps.log));
    }
  };

  const router = Router();
  // Browser apps (public clients with PKCE) call the token endpoint from their own origin. No cookies are
  // involved here (credentials travel in the request), so any origin may read the answer.
  router.options(TOKEN_PATH, (_req, res) => {
    res
      .status(204)
      .set({
        'Access-Control-Allow-Origin': '*',
        'Access-Control-Allow-Methods': 'POST',
        'Access-Control-Allow-Headers': 'Authorization, Content-Type',
        'Access-Control-Max-Age': '600',
      })
      .end();
  });
  router.post(
    TOKEN_PATH,
    (_req, res, next) => {
      res.set('Access-Control-Allow-Origin', '*');
      next();
    },
    token,
  );
  router.all(TOKEN_PATH, (_req, _res, next) =>
    next(
      new OAuthError('invalid_request', 'use POST with an application/x-www-form-urlencoded body', {
        status: 405,
        headers: { Allow: 'POST' },
      }),
    ),
  );
  return router;
}

const OAUTH_CODES: ReadonlySet<string> = new Set<OAuthErrorCode>([
  'invalid_request',
  'invalid_client',
  'invalid_grant',
  'unauthorized_client',
  'unsupported_grant_type',
  'invalid_scope',
  'server_error',
  'access_denied',
  'login_required',
  'invalid_token',
  'unsupported_response_type',
]);

/** An error from another part (TokenService…) whose `code` is an RFC 6749 code, as an OAuthError. */
export function asOAuthError(e: unknown): OAuthError | null {
  if (isOAuthError(e)) return e;
  if (typeof e !== 'object' || e === null) return null;
  const { code, message, description, status } = e as Record<string, unknown>;
  if (typeof code !== 'string' || !OAUTH_CODES.has(code)) return null;
  const text = [description, message].find((x): x is string => typeof x === 'string' && x.length > 0) ?? code;
  return new OAuthError(
    code as OAuthErrorCode,
    text,
    typeof status === 'number' && status >= 400 && status < 600 ? { status } : {},
  );
}

/** Everything leaving the token endpoint is RFC 6749 5.2: known errors as they are, the rest server_error. */
export function toOAuthError(err: unknown, log?: Logger): OAuthError {
  const known = asOAuthError(err);
  if (known) return known;
  if (isStoreUnavailable(err)) {
    log?.warn({ err }, 'token endpoint: store unavailable');
    return new OAuthError('server_error', 'temporarily unavailable, retry later', {
      status: 503,
      headers: { 'Retry-After': '5' },
    });
  }
  const parserType = typeof err === 'object' && err !== null ? (err as { type?: unknown }).type : undefined;
  if (typeof parserType === 'string' && parserType.startsWith('entity.')) {
    return new OAuthError('invalid_request', 'malformed request body');
  }
  log?.error({ err }, 'token endpoint failed');
  return new OAuthError('server_error', 'internal error, retry later');
}
