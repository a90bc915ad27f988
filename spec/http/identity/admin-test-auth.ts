// Test-only bearer authentication for the admin router spec (not a spec itself): a real RS256 key pair
// (jose), tokens signed here and verified by a small middleware that puts an AccessContext on
// res.locals.auth, as the platform's bearer middleware does.
import { randomUUID } from 'node:crypto';
import type { RequestHandler } from 'express';
import { type CryptoKey, generateKeyPair, jwtVerify, SignJWT } from 'jose';
import type { AccessContext } from '../../../domain/core/access-context.ts';

export type TestAuth = {
  authenticate: RequestHandler;
  requireScope(scope: string): RequestHandler;
  token(claims: { tenant: string; sub: string; scopes: string[]; clientId?: string }): Promise<string>;
};

const ISSUER = 'http://test.issuer';

export async function createTestAuth(): Promise<TestAuth> {
  const { publicKey, privateKey } = (await generateKeyPair('RS256')) as { publicKey: CryptoKey; privateKey: CryptoKey };
  const unauthorized = (res: Parameters<RequestHandler>[1], error?: string) => {
    res
      .status(401)
      .set('WWW-Authenticate', error ? `Bearer error="${error}"` : 'Bearer realm="test"')
      .json({ code: 'AUTH.REQUIRED', message: 'a valid bearer token is required', details: null });
  };
  return {
    authenticate: (req, res, next) => {
      const header = req.headers.authorization ?? '';
      const m = /^Bearer ([A-Za-z0-9._~+/-]+=*)$/.exec(header);
      if (!m) return unauthorized(res);
      jwtVerify(m[1]!, publicKey, { algorithms: ['RS256'], issuer: ISSUER }).then(
        ({ payload }) => {
          const auth: AccessContext = {
            tenant: String(payload.tenant),
            subject: String(payload.sub),
            clientId: String(payload.client_id),
            scopes: String(payload.scope ?? '')
              .split(' ')
              .filter(Boolean),
            jti: String(payload.jti),
            exp: Number(payload.exp),
          };
          res.locals.auth = auth;
          next();
        },
        () => unauthorized(res, 'invalid_token'),
      );
    },
    requireScope: (scope) => (_req, res, next) => {
      const auth = res.locals.auth as AccessContext;
      if (auth.scopes.includes(scope)) return next();
      res
        .status(403)
        .set('WWW-Authenticate', `Bearer error="insufficient_scope", scope="${scope}"`)
        .json({ code: 'AUTH.INSUFFICIENT_SCOPE', message: `scope ${scope} required`, details: null });
    },
    token: ({ tenant, sub, scopes, clientId }) =>
      new SignJWT({ tenant, scope: scopes.join(' '), client_id: clientId ?? 'test-client' })
        .setProtectedHeader({ alg: 'RS256', kid: 'test' })
        .setIssuer(ISSUER)
        .setSubject(sub)
        .setJti(randomUUID())
        .setIssuedAt()
        .setExpirationTime('10m')
        .sign(privateKey),
  };
}
