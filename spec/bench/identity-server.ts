// A server for spec/bench/identity.bench.ts, run in its own process so that it has a core to itself and
// the load generator does not share its event loop. `platform`: the whole identity service (startPlatform,
// SQLite stores in a temp dir, seeded). `oidc-provider`: panva's provider configured equivalently.
// `bare-sign`: the ceiling of a token endpoint on express with RS256 (a handler that only signs).
// Prints one line `READY <json>` when it listens; stops on SIGTERM.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { exportJWK, generateKeyPair } from 'jose';
import { pino } from 'pino';
import { signJwt } from '../../commands/identity/access-token.issuer.ts';
import { loadConfig } from '../../infra/core/config.ts';
import { startPlatform } from '../../infra/main.ts';

export const BENCH_SECRET = 'bench-secret-0123456789abcdefghijklmnopqrstuvwxyz';

const kind = process.argv[2];
const stops: Array<() => Promise<void>> = [];
process.once('SIGTERM', () => {
  void Promise.all(stops.map((s) => s())).finally(() => process.exit(0));
});

if (kind === 'platform') {
  const dir = mkdtempSync(path.join(tmpdir(), 'bench-identity-'));
  const config = loadConfig({
    PORT: '0',
    HOST: '127.0.0.1',
    PUBLIC_BASE_URL: 'http://127.0.0.1:0',
    DATA_DIR: dir,
    LOG_LEVEL: 'silent',
    SEED_CLIENT_SECRET: BENCH_SECRET,
    SEED_ADMIN_PASSWORD: 'bench-admin-password',
  });
  const platform = await startPlatform({ config, log: pino({ level: 'silent' }), services: ['identity'] });
  stops.push(async () => {
    await platform.stop();
    rmSync(dir, { recursive: true, force: true });
  });
  console.log(
    `READY ${JSON.stringify({ url: platform.publicBaseUrl, clientId: config.identity.seed.clientId, clientSecret: BENCH_SECRET })}`,
  );
} else if (kind === 'oidc-provider') {
  // oidc-provider ships no type declarations: a computed specifier keeps the type checker out of it
  const moduleName = 'oidc-provider';
  const { default: Provider } = (await import(moduleName)) as {
    default: new (issuer: string, configuration: unknown) => { callback(): (req: unknown, res: unknown) => void };
  };
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const { privateKey } = await generateKeyPair('RS256', { extractable: true });
  const jwk = { ...(await exportJWK(privateKey)), kid: 'bench-1', alg: 'RS256', use: 'sig' };
  const client = (clientId: string) => ({
    client_id: clientId,
    client_secret: BENCH_SECRET,
    grant_types: ['client_credentials'],
    redirect_uris: [],
    response_types: [],
    token_endpoint_auth_method: 'client_secret_basic',
    scope: 'profile email',
  });
  const provider = new Provider(url, {
    clients: [client('bench-jwt'), client('bench-opaque')],
    jwks: { keys: [jwk] },
    cookies: { keys: [randomBytes(32).toString('base64url')] },
    scopes: ['openid', 'profile', 'email'],
    features: {
      devInteractions: { enabled: false },
      clientCredentials: { enabled: true },
      introspection: { enabled: true },
      // the equivalent of our tokens: RS256 JWT access tokens for the platform (one resource server);
      // `bench-opaque` gets opaque ones, which is what its introspection endpoint can validate
      resourceIndicators: {
        enabled: true,
        defaultResource: () => 'urn:platform',
        useGrantedResource: () => true,
        getResourceServerInfo: (_ctx: unknown, _resource: string, c: { clientId: string }) => ({
          scope: 'profile email',
          accessTokenTTL: 7200,
          accessTokenFormat: c.clientId === 'bench-jwt' ? 'jwt' : 'opaque',
          jwt: { sign: { alg: 'RS256' } },
        }),
      },
    },
  });
  server.on('request', provider.callback() as never);
  stops.push(() => new Promise<void>((resolve) => server.close(() => resolve())));
  server.keepAliveTimeout = 65_000;
  console.log(`READY ${JSON.stringify({ url, clientSecret: BENCH_SECRET })}`);
} else if (kind === 'bare-sign') {
  // The ceiling of a client_credentials endpoint on express with RS256: express with the form parser and a
  // handler that signs a JWT with the same claims as ours through our own signJwt (node:crypto's sign with a
  // callback on a KeyObject, libuv's pool) and answers it. No client authentication, no lookup, nothing checked.
  const express = (await import('express')).default;
  const { generateKeyPairSync, randomUUID } = await import('node:crypto');
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.use(express.urlencoded({ extended: false }));
  const header = Buffer.from(JSON.stringify({ alg: 'RS256', kid: 'bench-1', typ: 'JWT' }), 'utf8').toString(
    'base64url',
  );
  const issuer = 'http://127.0.0.1/cas';
  app.post('/token', (req, res) => {
    const iat = Math.floor(Date.now() / 1000);
    const scope = String((req.body as Record<string, unknown>).scope ?? '');
    signJwt(
      header,
      {
        iss: issuer,
        sub: 'bench',
        aud: issuer,
        exp: iat + 7200,
        iat,
        scope,
        client_id: 'bench',
        tenant: 'platform',
        jti: randomUUID(),
      },
      privateKey,
    ).then(
      (token) =>
        void res
          .set('cache-control', 'no-store')
          .json({ access_token: token, token_type: 'Bearer', expires_in: 7200, scope }),
      () => void res.status(500).json({ error: 'server_error' }),
    );
  });
  const server = createServer(app);
  server.keepAliveTimeout = 65_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  stops.push(() => new Promise<void>((resolve) => server.close(() => resolve())));
  console.log(
    `READY ${JSON.stringify({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, clientId: 'bench', clientSecret: BENCH_SECRET })}`,
  );
} else {
  console.error('usage: identity-server.ts platform|oidc-provider|bare-sign');
  process.exit(2);
}
