// `npm run bench` (section "identity"): client_credentials tokens/s over HTTP and token validations/s,
// each beside the same flow on oidc-provider 9 (panva's certified provider) configured equivalently, on
// the same machine in the same run. Each server runs in its own process; this process only generates load.
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { spawnBenchServer } from './bench-server.ts';
import { closedLoops, perSecond, printRow, printSection, warmUp, warmUpText } from './report.ts';

const execFileAsync = promisify(execFile);
const CONCURRENCY = Number(process.env.BENCH_IDENTITY_CONCURRENCY ?? 16);
const SECONDS = Number(process.env.BENCH_IDENTITY_SECONDS ?? 5);

type Ready = { url: string; clientId?: string; clientSecret: string };

const startServer = (kind: 'platform' | 'oidc-provider' | 'bare-sign') =>
  spawnBenchServer<Ready>([path.join(import.meta.dirname, 'identity-server.ts'), kind], `${kind} server`);

const basic = (id: string, secret: string) => {
  const enc = (s: string) => encodeURIComponent(s).replace(/%20/g, '+');
  return `Basic ${Buffer.from(`${enc(id)}:${enc(secret)}`).toString('base64')}`;
};

/** `CONCURRENCY` loops calling `one` for SECONDS; every answer must pass `one`'s own check. */
async function load(one: () => Promise<void>): Promise<number> {
  await warmUp(() => closedLoops(CONCURRENCY, 1, one));
  const start = performance.now();
  const count = (await closedLoops(CONCURRENCY, SECONDS, one)).length;
  return perSecond(count, performance.now() - start);
}

async function expectOk(res: Response, what: string): Promise<Record<string, unknown>> {
  const body = (await res.json()) as Record<string, unknown>;
  if (res.status !== 200) throw new Error(`${what}: ${res.status} ${JSON.stringify(body)}`);
  return body;
}

const form = (body: Record<string, string>) => new URLSearchParams(body).toString();

export async function identityBench(): Promise<void> {
  printSection('identity');
  const ours = await startServer('platform');
  const theirs = await startServer('oidc-provider');
  try {
    const oursToken = `${ours.ready.url}/cas/oidc/token`;
    const oursAuth = basic(ours.ready.clientId!, ours.ready.clientSecret);
    const meta = (await (await fetch(`${theirs.ready.url}/.well-known/openid-configuration`)).json()) as Record<
      string,
      string
    >;
    const theirsToken = meta.token_endpoint!;
    const theirsIntrospection = meta.introspection_endpoint!;
    const jwtAuth = basic('bench-jwt', theirs.ready.clientSecret);
    const opaqueAuth = basic('bench-opaque', theirs.ready.clientSecret);
    // Node's fetch keeps connections alive and opens as many per origin as there are loops
    const post = (url: string, authorization: string, body: Record<string, string>) =>
      fetch(url, {
        method: 'POST',
        headers: { authorization, 'content-type': 'application/x-www-form-urlencoded' },
        body: form(body),
      });

    // 1. client_credentials over HTTP
    const ccBody = { grant_type: 'client_credentials', scope: 'profile email' };
    const oursCc = await load(async () => {
      await expectOk(await post(oursToken, oursAuth, ccBody), 'platform token');
    });
    const theirsCc = await load(async () => {
      const body = await expectOk(await post(theirsToken, jwtAuth, ccBody), 'oidc-provider token');
      if (typeof body.access_token !== 'string' || body.access_token.split('.').length !== 3)
        throw new Error('oidc-provider: not a JWT access token');
    });
    printRow({
      name: 'identity: client_credentials tokens over HTTP',
      figure: oursCc,
      unit: 'tokens/s',
      baseline: { name: 'oidc-provider 9, same grant (client_secret_basic, RS256 JWT access token)', figure: theirsCc },
      setup: `${CONCURRENCY} concurrent keep-alive loops for ${SECONDS} s ${warmUpText()}; each server in its own process. Neither writes anything per JWT access token: ours stays revocable by its jti (the revocation list holds what was revoked), oidc-provider keeps nothing (in-memory adapter). Ours serves client, tenant and secret checks from the directory in memory (fed by the log reader), after one O(1) query for the log's head that proves memory is not behind; the RS256 signature runs on node:crypto's thread pool`,
      goal: { of: 'ratio', op: '>=', value: 1.2 },
    });
    // the ceiling of the goal under the fixed design (express, RS256 only): a handler that only signs
    const ceiling = await startServer('bare-sign');
    let ceilingCc: number;
    try {
      ceilingCc = await load(async () => {
        const body = await expectOk(await post(`${ceiling.ready.url}/token`, oursAuth, ccBody), 'bare-sign token');
        if (typeof body.access_token !== 'string' || body.access_token.split('.').length !== 3)
          throw new Error('bare-sign: not a JWT');
      });
    } finally {
      await ceiling.stop();
    }
    printRow({
      name: 'identity: ceiling of a client_credentials endpoint on express with RS256 (a handler that only signs)',
      figure: ceilingCc,
      unit: 'tokens/s',
      baseline: { name: 'oidc-provider 9, the client_credentials figure above', figure: theirsCc },
      setup: `the same load ${warmUpText()}, its own process, measured after the two figures above: express with its form parser, a handler that signs a JWT with our claims the way ours does (node:crypto sign with a callback on a KeyObject) and answers it; no client authentication, no lookup, nothing checked. What a token endpoint on express signing RS256 (the spec's only algorithm) reaches against oidc-provider here when it does nothing else: both sides pay the same RSA signature per token, and the load generator shares the machine's cores`,
    });
    printRow({
      name: 'identity: client_credentials, ours against that ceiling',
      figure: oursCc,
      unit: 'tokens/s',
      baseline: { name: 'the bare signing handler above', figure: ceilingCc },
      setup:
        'what client authentication (in-memory directory, the log-head check), scopes, tenancy, request log, metrics and the error handling cost together',
    });
    // what one token costs, counted (not timed): its own process, the servers are idle meanwhile. Not
    // execFileSync: with the event loop blocked, a keep-alive socket the servers close meanwhile is not seen
    // closing, and the next request goes out on it ("other side closed")
    const cost = await execFileAsync(
      process.execPath,
      ['--import', 'tsx', path.join(import.meta.dirname, 'identity-cost.ts'), '200'],
      { encoding: 'utf8' },
    );
    console.log(
      cost.stdout
        .trim()
        .split('\n')
        .map((l) => `    ${l}`)
        .join('\n'),
    );

    // 2. token validation over HTTP
    const oursAccess = (await expectOk(await post(oursToken, oursAuth, ccBody), 'platform token'))
      .access_token as string;
    const theirsOpaque = (await expectOk(await post(theirsToken, opaqueAuth, ccBody), 'oidc-provider token'))
      .access_token as string;
    const oursValidate = await load(async () => {
      const res = await fetch(`${ours.ready.url}/cas/validate-token`, {
        headers: { authorization: `Bearer ${oursAccess}` },
      });
      await expectOk(res, 'validate-token');
    });
    const theirsIntrospect = await load(async () => {
      const body = await expectOk(
        await post(theirsIntrospection, opaqueAuth, { token: theirsOpaque }),
        'oidc-provider introspection',
      );
      if (body.active !== true) throw new Error('oidc-provider: token not active');
    });
    printRow({
      name: 'identity: validate-token over HTTP',
      figure: oursValidate,
      unit: 'validations/s',
      baseline: {
        name: 'oidc-provider 9 introspection (RFC 7662) of an opaque access token',
        figure: theirsIntrospect,
      },
      setup: `${CONCURRENCY} concurrent loops for ${SECONDS} s ${warmUpText()}. oidc-provider has no validate-token endpoint and refuses to introspect its JWT access tokens, so its nearest equivalent is introspecting an opaque token (client_secret_basic, in-memory lookup). Ours: GET /cas/validate-token verifies the RS256 JWT locally (kid, exp, iss, aud), checks the revocation list (read store) and loads the user`,
    });

    // 3. the same RFC 7662 endpoint on both sides
    const oursIntrospect = await load(async () => {
      const body = await expectOk(
        await post(`${ours.ready.url}/cas/oidc/introspect`, oursAuth, { token: oursAccess }),
        'platform introspection',
      );
      if (body.active !== true) throw new Error('platform: token not active');
    });
    printRow({
      name: 'identity: introspection (RFC 7662) over HTTP',
      figure: oursIntrospect,
      unit: 'introspections/s',
      baseline: { name: 'oidc-provider 9 introspection of an opaque access token', figure: theirsIntrospect },
      setup: `${CONCURRENCY} concurrent loops for ${SECONDS} s ${warmUpText()}; both authenticate the client (client_secret_basic) on every call. Ours introspects its JWT (signature, expiry, revocation, grant state read from the event store)`,
    });
  } finally {
    await Promise.all([ours.stop(), theirs.stop()]);
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await identityBench();
