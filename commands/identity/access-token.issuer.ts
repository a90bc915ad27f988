import { type KeyObject, sign as rsaSign } from 'node:crypto';
import type { Client } from '../../domain/identity/model.ts';
import type { Clock } from '../../infra/core/clock.port.ts';
import { randomToken } from '../core/random-token.ts';
import type { Directory, IdTokenInput } from './identity.contracts.ts';
import type { KeyRing } from './signing-key.ring.ts';

/**
 * Signs what the identity provider hands out: access tokens, ID tokens and internal tokens, all RS256 JWTs
 * with the header {alg, kid, typ: JWT}, signed by the key ring's active key.
 *
 * - Access token claims: iss, sub, aud (= the issuer: the platform is the one resource server), exp, iat,
 *   scope, client_id, tenant, jti (`<grantId>.<random>`, see grants/grant.ids.ts).
 * - ID token: the spec's claims plus iss, iat, auth_time, nonce, azp (see idTokenClaims).
 * - expires_in: the tenant's token lifetime, else the default; never beyond what the key ring keeps keys for.
 *
 * Signing uses node:crypto's `sign` on a KeyObject, with a callback (libuv's pool): it keeps the event loop
 * free while the RSA operation runs, and costs less CPU per token than jose's SignJWT (WebCrypto) or an
 * in-thread sign (measured under load; docs/decisions/).
 */
export type JwtClaims = Record<string, unknown>;

export type AccessTokenInput = {
  jti: string;
  iat: number;
  exp: number;
  client: string;
  tenant: string;
  subject: string;
  scopes: string[];
};

export type TokenIssuer = {
  nowSeconds(): number;
  /** expires_in for a token of this tenant */
  accessTtl(tenant: string): Promise<number>;
  accessToken(a: AccessTokenInput): Promise<string>;
  idToken(
    client: Client,
    tenant: string,
    scopes: string[],
    input: IdTokenInput,
    iat: number,
    exp: number,
  ): Promise<string>;
  /** a short JWT for internal use (exchange codes etc.); its audience is never accepted as an access token */
  internal(claims: JwtClaims, ttlSeconds: number): Promise<string>;
};

export type TokenIssuerDeps = {
  clock: Clock;
  keyRing: Pick<KeyRing, 'signingKey' | 'maxTokenLifetimeSeconds'>;
  issuer: string;
  accessTokenTtlSeconds: number;
  directory?: Partial<Pick<Directory, 'getTenant'>>;
};

const b64json = (value: unknown) => Buffer.from(JSON.stringify(value), 'utf8').toString('base64url');

/**
 * One compact JWS (RFC 7515 7.1): base64url(header).base64url(payload).base64url(RSASSA-PKCS1-v1_5 SHA-256).
 * The RSA operation runs on libuv's thread pool (crypto.sign with a callback), so the event loop goes on
 * with other requests meanwhile, as WebCrypto would, without WebCrypto's per-call overhead.
 */
export function signJwt(encodedHeader: string, claims: JwtClaims, key: KeyObject): Promise<string> {
  const input = `${encodedHeader}.${b64json(claims)}`;
  return new Promise((resolve, reject) => {
    rsaSign('sha256', Buffer.from(input, 'utf8'), key, (err, signature) =>
      err ? reject(err) : resolve(`${input}.${signature.toString('base64url')}`),
    );
  });
}

export function createTokenIssuer(deps: TokenIssuerDeps): TokenIssuer {
  const { clock, keyRing, issuer } = deps;
  /** the encoded header of each kid: the same bytes for every token it signs */
  const headers = new Map<string, string>();

  async function sign(claims: JwtClaims): Promise<string> {
    const { kid, keyObject } = await keyRing.signingKey();
    let header = headers.get(kid);
    if (header === undefined) {
      header = b64json({ alg: 'RS256', kid, typ: 'JWT' });
      headers.set(kid, header);
    }
    return signJwt(header, claims, keyObject);
  }

  const nowSeconds = () => Math.floor(clock.now().getTime() / 1000);

  return {
    nowSeconds,

    async accessTtl(tenant) {
      let ttl = deps.accessTokenTtlSeconds;
      const t = deps.directory?.getTenant ? await deps.directory.getTenant(tenant) : null;
      if (t && Number.isInteger(t.tokenLifetimeSeconds) && t.tokenLifetimeSeconds > 0) ttl = t.tokenLifetimeSeconds;
      return Math.min(ttl, keyRing.maxTokenLifetimeSeconds);
    },

    accessToken: (a) =>
      sign({
        iss: issuer,
        sub: a.subject,
        aud: issuer,
        exp: a.exp,
        iat: a.iat,
        scope: a.scopes.join(' '),
        client_id: a.client,
        tenant: a.tenant,
        jti: a.jti,
      }),

    idToken: (client, tenant, scopes, input, iat, exp) =>
      sign(idTokenClaims(issuer, client, tenant, scopes, input, iat, exp)),

    internal(claims, ttlSeconds) {
      const iat = nowSeconds();
      return sign({
        iss: issuer,
        // not the issuer: an internal token is never accepted as an access token
        aud: `${issuer}/internal`,
        jti: randomToken(16),
        ...claims,
        iat,
        exp: iat + ttlSeconds,
      });
    },
  };
}

/**
 * ID token claims. The spec's: sub, aud (array with the client_id), exp, name, nickname,
 * preferred_username, email, userName, tenant. Added: iss (the spec lists "no iss claim"
 * as a known gap; OIDC Core 2 requires it and certified relying parties refuse a token without it), iat,
 * auth_time, nonce (echoed), azp. Profile claims need the `profile` scope and email the `email` scope
 * (OIDC Core 5.4); userName and tenant, the platform's extensions, are always there.
 */
export function idTokenClaims(
  issuer: string,
  client: Client,
  tenant: string,
  scopes: string[],
  input: IdTokenInput,
  iat: number,
  exp: number,
): JwtClaims {
  const { user } = input;
  const profile = scopes.includes('profile');
  const email = scopes.includes('email');
  const sid = (input as IdTokenInput & { sid?: unknown }).sid;
  return {
    iss: issuer,
    sub: user.userId,
    aud: [client.clientId],
    exp,
    iat,
    auth_time: input.authTime,
    ...(input.nonce !== undefined && { nonce: input.nonce }),
    azp: client.clientId,
    ...(profile && { name: user.name, preferred_username: user.username }),
    ...(profile && user.nickname !== undefined && { nickname: user.nickname }),
    ...(email && user.email !== undefined && { email: user.email }),
    userName: user.username,
    tenant,
    ...(typeof sid === 'string' && { sid }),
  };
}
