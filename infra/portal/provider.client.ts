import { randomUUID } from 'node:crypto';
import { createRemoteJWKSet, errors as joseErrors, jwtVerify, SignJWT } from 'jose';
import {
  type IdTokenClaims,
  type PortalProvider,
  ProviderError,
  type TokenSet,
} from '../../http/portal/portal.ports.ts';
import type { PortalClientKey } from './portal-client.key.ts';

/**
 * The identity provider as the portal's backend sees it: a relying party talking to the token, revocation
 * and key endpoints over HTTP (the provider may run in another process), authenticating with
 * private_key_jwt. `backChannel` is where those endpoints are reached (PORTAL_PROVIDER_URL, default the
 * issuer); the browser always goes to the issuer.
 */
export type ProviderClientDeps = {
  issuer: string;
  backChannel: string;
  key: PortalClientKey;
  timeoutMs?: number;
  fetch?: typeof fetch;
};

const ASSERTION_TYPE = 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer';

/** what jose throws about the token itself (its form, signature, algorithm, claims, or a kid not published) */
const TOKEN_FAULTS = [
  joseErrors.JWSInvalid,
  joseErrors.JWTInvalid,
  joseErrors.JWSSignatureVerificationFailed,
  joseErrors.JWTClaimValidationFailed,
  joseErrors.JWTExpired,
  joseErrors.JOSEAlgNotAllowed,
  joseErrors.JOSENotSupported,
  joseErrors.JWKSNoMatchingKey,
  joseErrors.JWKSMultipleMatchingKeys,
];

export function createProviderClient(deps: ProviderClientDeps): PortalProvider {
  const { issuer, key } = deps;
  const doFetch = deps.fetch ?? fetch;
  const timeoutMs = deps.timeoutMs ?? 10_000;
  const jwks = createRemoteJWKSet(new URL(`${deps.backChannel}/cas/oidc/jwks`), {
    timeoutDuration: timeoutMs,
    cooldownDuration: 30_000,
  });

  const assertion = (clientId: string, endpoint: string) =>
    new SignJWT({})
      .setProtectedHeader({ alg: 'EdDSA', kid: key.kid })
      .setIssuer(clientId)
      .setSubject(clientId)
      .setAudience(`${issuer}${endpoint}`)
      .setJti(randomUUID())
      .setIssuedAt()
      .setExpirationTime('60s')
      .sign(key.privateKey);

  async function post(
    endpoint: string,
    clientId: string,
    form: Record<string, string>,
  ): Promise<{ status: number; body: Record<string, unknown> }> {
    const body = new URLSearchParams({
      ...form,
      client_id: clientId,
      client_assertion_type: ASSERTION_TYPE,
      client_assertion: await assertion(clientId, endpoint),
    });
    let res: Response;
    try {
      res = await doFetch(`${deps.backChannel}${endpoint}`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
        body,
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch (err) {
      throw new ProviderError(
        'unavailable',
        `the identity provider cannot be reached at ${deps.backChannel}: ${(err as Error).message}`,
        true,
      );
    }
    const text = await res.text();
    let parsed: unknown = {};
    if (text !== '') {
      try {
        parsed = JSON.parse(text);
      } catch {
        throw new ProviderError('unavailable', `the identity provider answered ${res.status} without JSON`, true);
      }
    }
    return {
      status: res.status,
      body: (typeof parsed === 'object' && parsed !== null ? parsed : {}) as Record<string, unknown>,
    };
  }

  async function token(clientId: string, form: Record<string, string>): Promise<TokenSet> {
    const { status, body } = await post('/cas/oidc/token', clientId, form);
    if (status !== 200) {
      const error = typeof body.error === 'string' ? body.error : 'server_error';
      throw new ProviderError(
        error,
        typeof body.error_description === 'string' ? body.error_description : `token endpoint answered ${status}`,
        status >= 500,
      );
    }
    if (typeof body.access_token !== 'string' || typeof body.expires_in !== 'number')
      throw new ProviderError('server_error', 'the token answer has no access_token', true);
    return {
      accessToken: body.access_token,
      expiresIn: body.expires_in,
      scopes: typeof body.scope === 'string' ? body.scope.split(' ').filter((s) => s !== '') : [],
      ...(typeof body.refresh_token === 'string' && { refreshToken: body.refresh_token }),
      ...(typeof body.id_token === 'string' && { idToken: body.id_token }),
    };
  }

  return {
    authorizationEndpoint: `${issuer}/cas/oidc/authorize`,
    endSessionEndpoint: `${issuer}/cas/oidc/logout`,

    redeemCode: ({ clientId, code, codeVerifier, redirectUri }) =>
      token(clientId, {
        grant_type: 'authorization_code',
        code,
        code_verifier: codeVerifier,
        redirect_uri: redirectUri,
      }),

    refresh: ({ clientId, refreshToken }) =>
      token(clientId, { grant_type: 'refresh_token', refresh_token: refreshToken }),

    async revoke({ clientId, token: value, hint }) {
      try {
        await post('/cas/oidc/revoke', clientId, { token: value, token_type_hint: hint });
      } catch {
        // best effort: the portal's session is gone either way, and the token expires
      }
    },

    async verifyIdToken({ clientId, idToken, nonce }): Promise<IdTokenClaims> {
      let payload;
      try {
        ({ payload } = await jwtVerify(idToken, jwks, {
          issuer,
          audience: clientId,
          algorithms: ['RS256'],
          requiredClaims: ['sub', 'exp', 'iat'],
        }));
      } catch (err) {
        if (TOKEN_FAULTS.some((fault) => err instanceof fault))
          throw new ProviderError('id_token_invalid', `the ID token is not valid: ${(err as Error).message}`);
        // anything else is the key set's fetch: a timeout, a refused connection, a non-200 or garbled answer
        throw new ProviderError('unavailable', `the provider's keys cannot be read: ${(err as Error).message}`, true);
      }
      if (payload.nonce !== nonce)
        throw new ProviderError('id_token_invalid', 'the ID token does not carry the nonce of this sign-in');
      if (typeof payload.tenant !== 'string')
        throw new ProviderError('id_token_invalid', 'the ID token names no tenant');
      const str = (v: unknown) => (typeof v === 'string' && v !== '' ? v : undefined);
      const name = str(payload.name);
      const username = str(payload.preferred_username) ?? str(payload.userName);
      return {
        sub: payload.sub!,
        tenant: payload.tenant,
        ...(name !== undefined && { name }),
        ...(username !== undefined && { username }),
      };
    },
  };
}
