// The identity provider end to end, driven by openid-client v6 (the certified relying-party library)
// against the whole platform on a loopback port. The browser step (login form, cookies) is done with fetch;
// spec/http/identity/login-page.browser.spec.ts drives the same page in a real Chromium.
import { decodeJwt, decodeProtectedHeader, exportJWK, generateKeyPair, SignJWT } from 'jose';
import * as client from 'openid-client';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { PublicJwk } from '../../../domain/identity/model.ts';
import { looksLikeStack } from '../core/harness.ts';
import { CookieJar, formFields, SEED, signIn, startIdentityPlatform } from './identity-harness.ts';

const REDIRECT = 'https://rp.example/callback';
const ctx = await startIdentityPlatform({ redirectUri: REDIRECT, env: { LOGIN_MAX_FAILURES: '3' } });
const base = ctx.base;
const insecure = { execute: [client.allowInsecureRequests] };

const confidential = await client.discovery(
  new URL(base),
  SEED.clientId,
  SEED.clientSecret,
  client.ClientSecretBasic(SEED.clientSecret),
  insecure,
);
const publicClient = await client.discovery(new URL(base), SEED.publicClientId, undefined, client.None(), insecure);

/** A full code flow for a user: authorization URL → login form → callback → tokens. */
async function codeFlow(
  config: client.Configuration,
  o: {
    pkce?: boolean;
    scope?: string;
    username?: string;
    password?: string;
    jar?: CookieJar;
    extra?: Record<string, string>;
  } = {},
) {
  const state = client.randomState();
  const nonce = client.randomNonce();
  const verifier = client.randomPKCECodeVerifier();
  const params: Record<string, string> = {
    redirect_uri: REDIRECT,
    scope: o.scope ?? 'openid profile email',
    state,
    nonce,
    ...o.extra,
  };
  if (o.pkce ?? true) {
    params.code_challenge = await client.calculatePKCECodeChallenge(verifier);
    params.code_challenge_method = 'S256';
  }
  const url = client.buildAuthorizationUrl(config, params);
  const { response, jar } = await signIn(
    url,
    o.username ?? SEED.adminUsername,
    o.password ?? SEED.adminPassword,
    o.jar,
  );
  assert.is(response.status, 302, 'the login answers with a redirect');
  const callback = new URL(response.headers.get('location')!);
  return { callback, state, nonce, verifier, jar };
}

/** `verifier`: null sends none (a code requested without PKCE) */
const redeem = (
  config: client.Configuration,
  f: Awaited<ReturnType<typeof codeFlow>>,
  verifier: string | null = f.verifier,
) =>
  client.authorizationCodeGrant(config, f.callback, {
    expectedState: f.state,
    expectedNonce: f.nonce,
    ...(verifier !== null && { pkceCodeVerifier: verifier }),
  });

async function oauthError(p: Promise<unknown>): Promise<{ error: string; status: number }> {
  try {
    await p;
  } catch (err) {
    if (err instanceof client.ResponseBodyError) return { error: err.error, status: err.status };
    if (err instanceof client.AuthorizationResponseError) return { error: err.error, status: 0 };
    throw err;
  }
  assert.unreachable('expected an OAuth error');
  throw new Error('unreachable');
}

const validate = (token: string) =>
  fetch(`${base}/cas/validate-token`, { headers: { authorization: `Bearer ${token}` } });
const tokenRequest = (body: Record<string, string>, headers: Record<string, string> = {}) =>
  fetch(`${base}/cas/oidc/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    body: new URLSearchParams(body),
  });
const basic = (id: string, secret: string) => {
  const enc = (s: string) => encodeURIComponent(s).replace(/%20/g, '+');
  return `Basic ${Buffer.from(`${enc(id)}:${enc(secret)}`).toString('base64')}`;
};

// ---------------------------------------------------------------------------------------------------------

const flows = suite('OIDC flows with openid-client');
flows.before.each(() => ctx.syncClock());

flows('discovery: RFC 8414 and OIDC documents, issuer = the public base URL, no password grant', async () => {
  const m = confidential.serverMetadata();
  assert.is(m.issuer, base);
  assert.is(m.authorization_endpoint, `${base}/cas/oidc/authorize`);
  assert.is(m.token_endpoint, `${base}/cas/oidc/token`);
  assert.is(m.end_session_endpoint, `${base}/cas/oidc/logout`);
  assert.ok(m.jwks_uri && m.introspection_endpoint && m.revocation_endpoint && m.userinfo_endpoint);
  assert.ok(
    m.grant_types_supported?.includes('authorization_code') && m.grant_types_supported.includes('client_credentials'),
  );
  assert.not.ok(m.grant_types_supported?.includes('password'), 'the password grant is never advertised');
  assert.ok(m.code_challenge_methods_supported?.includes('S256'));
  const oauth = await (await fetch(`${base}/.well-known/oauth-authorization-server`)).json();
  assert.is((oauth as { issuer: string }).issuer, base);
});

let confidentialTokens: client.TokenEndpointResponse & client.TokenEndpointResponseHelpers;

flows(
  'confidential client (client_secret_basic, special characters in the secret): code flow with nonce and state',
  async () => {
    const f = await codeFlow(confidential, { pkce: false });
    assert.is(f.callback.origin + f.callback.pathname, REDIRECT);
    assert.is(f.callback.searchParams.get('state'), f.state);
    assert.is(f.callback.searchParams.get('iss'), base, 'RFC 9207 iss in the authorization response');
    assert.match(f.callback.searchParams.get('code')!, /^[A-Za-z0-9_-]{43}$/);
    const tokens = await redeem(confidential, f, null);
    assert.is(tokens.token_type.toLowerCase(), 'bearer');
    assert.is(tokens.expires_in, 7200);
    assert.ok(tokens.refresh_token, 'the client has the refresh_token grant');
    const claims = tokens.claims()!;
    assert.is(claims.iss, base);
    assert.is(claims.nonce, f.nonce);
    assert.equal(claims.aud, [SEED.clientId]);
    assert.is(claims.tenant, SEED.tenant);
    assert.is(claims.preferred_username, SEED.adminUsername);
    assert.type(claims.auth_time, 'number');
    const header = decodeProtectedHeader(tokens.access_token);
    assert.is(header.alg, 'RS256');
    assert.type(header.kid, 'string');
    const at = decodeJwt(tokens.access_token);
    assert.is(at.sub, claims.sub);
    assert.is(at.client_id, SEED.clientId);
    assert.is(at.tenant, SEED.tenant);
    assert.is(at.scope, 'openid profile email');
    confidentialTokens = tokens;
  },
);

flows(
  'the session cookie: HttpOnly, SameSite=Lax, Path=/cas; a second authorization skips the form; prompt=login shows it',
  async () => {
    const url = client.buildAuthorizationUrl(confidential, { redirect_uri: REDIRECT, scope: 'openid', state: 's1' });
    const { response, jar } = await signIn(url, SEED.adminUsername, SEED.adminPassword);
    const setCookie = response.headers.getSetCookie().find((c) => c.startsWith('platform_session='))!;
    assert.match(setCookie, /HttpOnly/);
    assert.match(setCookie, /SameSite=Lax/);
    assert.match(setCookie, /Path=\/cas/);
    assert.not.match(setCookie, /Secure/, 'not over plain http');
    const again = await fetch(
      client.buildAuthorizationUrl(confidential, { redirect_uri: REDIRECT, scope: 'openid', state: 's2' }),
      {
        redirect: 'manual',
        headers: { cookie: jar.header() },
      },
    );
    assert.is(again.status, 302);
    assert.ok(new URL(again.headers.get('location')!).searchParams.get('code'));
    const forced = await fetch(
      client.buildAuthorizationUrl(confidential, {
        redirect_uri: REDIRECT,
        scope: 'openid',
        state: 's3',
        prompt: 'login',
      }),
      {
        redirect: 'manual',
        headers: { cookie: jar.header() },
      },
    );
    assert.is(forced.status, 200);
    assert.match(await forced.text(), /<form method="post" action="\/cas\/oidc\/login"/);
    const maxAge = await fetch(
      client.buildAuthorizationUrl(confidential, {
        redirect_uri: REDIRECT,
        scope: 'openid',
        state: 's4',
        max_age: '0',
      }),
      {
        redirect: 'manual',
        headers: { cookie: jar.header() },
      },
    );
    assert.is(maxAge.status, 200, 'max_age=0: the session is too old, the form is shown');
  },
);

flows(
  'the authorization endpoint also takes POST (form); the login page is plain HTML with a label per field',
  async () => {
    const res = await fetch(`${base}/cas/oidc/authorize`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        client_id: SEED.clientId,
        redirect_uri: REDIRECT,
        response_type: 'code',
        scope: 'openid',
        state: 'p',
      }),
    });
    assert.is(res.status, 200);
    assert.is(res.headers.get('cache-control'), 'no-store');
    assert.is(res.headers.get('x-frame-options'), 'DENY');
    const html = await res.text();
    assert.match(html, /<label for="username">/);
    assert.match(html, /<label for="password">/);
    assert.not.match(html, /<script/);
    const prelogin = res.headers.getSetCookie().find((c) => c.startsWith('platform_login='))!;
    assert.match(prelogin, /HttpOnly; SameSite=Lax/);
  },
);

flows('prompt=none without a session: login_required by redirect, with state', async () => {
  const res = await fetch(
    client.buildAuthorizationUrl(confidential, {
      redirect_uri: REDIRECT,
      scope: 'openid',
      state: 'st',
      prompt: 'none',
    }),
    {
      redirect: 'manual',
    },
  );
  assert.is(res.status, 302);
  const loc = new URL(res.headers.get('location')!);
  assert.is(loc.searchParams.get('error'), 'login_required');
  assert.is(loc.searchParams.get('state'), 'st');
});

flows('public client (auth method none) with PKCE S256', async () => {
  const f = await codeFlow(publicClient, { pkce: true });
  const tokens = await redeem(publicClient, f);
  assert.ok(tokens.access_token);
  assert.is(tokens.claims()!.aud[0], SEED.publicClientId);
  assert.ok(tokens.refresh_token);
});

flows('client_credentials: the default_user is the subject; no ID token, no refresh token', async () => {
  const tokens = await client.clientCredentialsGrant(confidential, { scope: 'openid profile' });
  assert.is(tokens.id_token, undefined);
  assert.is(tokens.refresh_token, undefined);
  assert.is(tokens.scope, 'openid profile');
  const at = decodeJwt(tokens.access_token);
  const res = await validate(tokens.access_token);
  assert.is(res.status, 200);
  const body = (await res.json()) as Record<string, unknown>;
  const serviceUser = await ctx.platformDirectory.findUserByUsername(SEED.tenant, 'default', 'demo-service');
  assert.is(at.sub, serviceUser!.userId, 'the subject is the default_user');
  assert.ok(JSON.stringify(body).includes(String(at.sub)), 'validate-token names the machine user');
  const scopeRefused = await oauthError(client.clientCredentialsGrant(confidential, { scope: 'openid tenant:cross' }));
  assert.is(scopeRefused.error, 'invalid_scope');
});

flows('refresh_token: rotation; reusing the rotated one revokes the chain', async () => {
  const f = await codeFlow(confidential, { pkce: true });
  const first = await redeem(confidential, f);
  const second = await client.refreshTokenGrant(confidential, first.refresh_token!);
  assert.ok(second.refresh_token);
  assert.is.not(second.refresh_token, first.refresh_token, 'rotated');
  assert.is((await validate(second.access_token)).status, 200);
  const reuse = await oauthError(client.refreshTokenGrant(confidential, first.refresh_token!));
  assert.is(reuse.error, 'invalid_grant');
  const next = await oauthError(client.refreshTokenGrant(confidential, second.refresh_token!));
  assert.is(next.error, 'invalid_grant', 'the whole chain is revoked');
  assert.is((await validate(second.access_token)).status, 401);
});

flows('userinfo with the access token', async () => {
  const sub = confidentialTokens.claims()!.sub;
  const info = await client.fetchUserInfo(confidential, confidentialTokens.access_token, sub);
  assert.is(info.sub, sub);
  assert.is(info.preferred_username, SEED.adminUsername);
});

flows('introspection (RFC 7662) and revocation (RFC 7009)', async () => {
  const f = await codeFlow(confidential, { pkce: true });
  const tokens = await redeem(confidential, f);
  const active = await client.tokenIntrospection(confidential, tokens.access_token);
  assert.is(active.active, true);
  assert.is(active.client_id, SEED.clientId);
  assert.is(active.sub, tokens.claims()!.sub);
  await client.tokenRevocation(confidential, tokens.access_token);
  const after = await client.tokenIntrospection(confidential, tokens.access_token);
  assert.is(after.active, false);
  const res = await validate(tokens.access_token);
  assert.is(res.status, 401);
  assert.match(res.headers.get('www-authenticate')!, /Bearer error="invalid_token"/);
  // a refresh token can be revoked too, and unknown tokens are not an error (RFC 7009 2.2)
  await client.tokenRevocation(confidential, tokens.refresh_token!);
  assert.is((await oauthError(client.refreshTokenGrant(confidential, tokens.refresh_token!))).error, 'invalid_grant');
  await client.tokenRevocation(confidential, 'not-a-token');
  // a public client (client_id alone) may revoke, but not introspect
  const spaTokens = await redeem(publicClient, await codeFlow(publicClient, { pkce: true }));
  const spaIntrospect = await fetch(`${base}/cas/oidc/introspect`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ client_id: SEED.publicClientId, token: spaTokens.access_token }),
  });
  assert.is(spaIntrospect.status, 401);
  await client.tokenRevocation(publicClient, spaTokens.refresh_token!);
  assert.is(
    (await oauthError(client.refreshTokenGrant(publicClient, spaTokens.refresh_token!))).error,
    'invalid_grant',
  );
});

flows(
  'logout (RP-initiated): id_token_hint, exact post_logout_redirect_uri, state echoed; the session ends',
  async () => {
    const f = await codeFlow(confidential, { pkce: true });
    const tokens = await redeem(confidential, f);
    const url = client.buildEndSessionUrl(confidential, {
      id_token_hint: tokens.id_token!,
      post_logout_redirect_uri: REDIRECT,
      state: 'bye',
    });
    const res = await fetch(url, { redirect: 'manual', headers: { cookie: f.jar.header() } });
    assert.is(res.status, 302);
    const loc = new URL(res.headers.get('location')!);
    assert.is(loc.origin + loc.pathname, REDIRECT);
    assert.is(loc.searchParams.get('state'), 'bye');
    const cleared = res.headers.getSetCookie().find((c) => c.startsWith('platform_session='))!;
    assert.match(cleared, /Max-Age=0/);
    // the old cookie no longer signs anyone in
    const silent = await fetch(
      client.buildAuthorizationUrl(confidential, {
        redirect_uri: REDIRECT,
        scope: 'openid',
        state: 'x',
        prompt: 'none',
      }),
      {
        redirect: 'manual',
        headers: { cookie: f.jar.header() },
      },
    );
    assert.is(new URL(silent.headers.get('location')!).searchParams.get('error'), 'login_required');
    // without a redirect: a signed-out page
    const page = await fetch(`${base}/cas/oidc/logout`);
    assert.is(page.status, 200);
    assert.match(await page.text(), /Signed out/);
  },
);

flows('password grant: only for clients registered with it', async () => {
  const refused = await tokenRequest(
    { grant_type: 'password', username: SEED.adminUsername, password: SEED.adminPassword },
    { authorization: basic(SEED.clientId, SEED.clientSecret) },
  );
  assert.is(refused.status, 400);
  assert.is(((await refused.json()) as { error: string }).error, 'unauthorized_client');
  const reg = await ctx.commands.registerClient(
    { clientId: 'legacy-app', grantTypes: ['password'], authMethod: 'client_secret_basic' },
    { tenant: SEED.tenant, actor: 'spec' },
    'spec/legacy-app',
  );
  const legacy = await client.discovery(
    new URL(base),
    'legacy-app',
    reg.clientSecret!,
    client.ClientSecretBasic(reg.clientSecret!),
    insecure,
  );
  const tokens = await client.genericGrantRequest(legacy, 'password', {
    username: SEED.adminUsername,
    password: SEED.adminPassword,
    scope: 'openid',
  });
  assert.ok(tokens.access_token && tokens.id_token);
  const wrong = await oauthError(
    client.genericGrantRequest(legacy, 'password', { username: SEED.adminUsername, password: 'nope', scope: 'openid' }),
  );
  assert.is(wrong.error, 'invalid_grant');
});

flows('private_key_jwt (RFC 7523) with openid-client PrivateKeyJwt', async () => {
  const { publicKey, privateKey } = await generateKeyPair('RS256', { extractable: true });
  const jwk = { ...(await exportJWK(publicKey)), kid: 'rp-key-1', alg: 'RS256', use: 'sig' } as PublicJwk;
  await ctx.commands.registerClient(
    {
      clientId: 'jwt-app',
      grantTypes: ['client_credentials'],
      authMethod: 'private_key_jwt',
      jwks: [jwk],
      defaultUser: 'demo-service',
    },
    { tenant: SEED.tenant, actor: 'spec' },
    'spec/jwt-app',
  );
  const jwtClient = await client.discovery(
    new URL(base),
    'jwt-app',
    undefined,
    client.PrivateKeyJwt({ key: privateKey, kid: 'rp-key-1' }),
    insecure,
  );
  const tokens = await client.clientCredentialsGrant(jwtClient, { scope: 'openid' });
  assert.is((await validate(tokens.access_token)).status, 200);
});

flows.run();

// ---------------------------------------------------------------------------------------------------------

const negatives = suite('negative cases');
negatives.before.each(() => ctx.syncClock());

negatives('code reuse: invalid_grant, and the tokens issued from the code are revoked', async () => {
  const f = await codeFlow(confidential, { pkce: true });
  const tokens = await redeem(confidential, f);
  assert.is((await validate(tokens.access_token)).status, 200);
  const again = await oauthError(redeem(confidential, f));
  assert.is(again.error, 'invalid_grant');
  assert.is(again.status, 400);
  const res = await validate(tokens.access_token);
  assert.is(res.status, 401);
  assert.match(res.headers.get('www-authenticate')!, /error="invalid_token"/);
  assert.is((await oauthError(client.refreshTokenGrant(confidential, tokens.refresh_token!))).error, 'invalid_grant');
});

negatives('wrong PKCE verifier: invalid_grant', async () => {
  const f = await codeFlow(publicClient, { pkce: true });
  const e = await oauthError(redeem(publicClient, f, client.randomPKCECodeVerifier()));
  assert.is(e.error, 'invalid_grant');
});

negatives('a public client without code_challenge: invalid_request by redirect, with state', async () => {
  const url = client.buildAuthorizationUrl(publicClient, { redirect_uri: REDIRECT, scope: 'openid', state: 'st-1' });
  const res = await fetch(url, { redirect: 'manual' });
  assert.is(res.status, 302);
  const loc = new URL(res.headers.get('location')!);
  assert.is(loc.origin + loc.pathname, REDIRECT);
  assert.is(loc.searchParams.get('error'), 'invalid_request');
  assert.is(loc.searchParams.get('state'), 'st-1');
});

negatives('redirect_uri not registered (or unknown client): an error page, never a redirect', async () => {
  for (const url of [
    client.buildAuthorizationUrl(confidential, {
      redirect_uri: 'https://evil.example/cb',
      scope: 'openid',
      state: 's',
    }),
    client.buildAuthorizationUrl(confidential, { redirect_uri: `${REDIRECT}/`, scope: 'openid', state: 's' }),
    new URL(
      `${base}/cas/oidc/authorize?client_id=ghost&redirect_uri=${encodeURIComponent(REDIRECT)}&response_type=code&scope=openid&state=s`,
    ),
  ]) {
    const res = await fetch(url, { redirect: 'manual' });
    assert.is(res.status, 400);
    assert.is(res.headers.get('location'), null);
    assert.match(res.headers.get('content-type')!, /text\/html/);
    const html = await res.text();
    assert.not.ok(looksLikeStack(html));
  }
});

negatives('other authorization errors go back by redirect: response_type, scope, missing state', async () => {
  const go = async (params: Record<string, string>) => {
    const u = new URL(`${base}/cas/oidc/authorize`);
    for (const [k, v] of Object.entries({
      client_id: SEED.clientId,
      redirect_uri: REDIRECT,
      response_type: 'code',
      scope: 'openid',
      state: 'z',
      ...params,
    })) {
      if (v !== '') u.searchParams.set(k, v);
    }
    const res = await fetch(u, { redirect: 'manual' });
    assert.is(res.status, 302);
    return new URL(res.headers.get('location')!).searchParams;
  };
  assert.is((await go({ response_type: 'token' })).get('error'), 'unsupported_response_type');
  assert.is((await go({ scope: 'openid admin:everything' })).get('error'), 'invalid_scope');
  const noState = await go({ state: '' });
  assert.is(noState.get('error'), 'invalid_request');
  assert.is(noState.get('state'), null);
  assert.is(
    (await go({ code_challenge: 'x'.repeat(43), code_challenge_method: 'plain' })).get('error'),
    'invalid_request',
    'plain only when allowed',
  );
});

negatives(
  'bad client secret: 401 invalid_client with WWW-Authenticate Basic; errors are RFC 6749 bodies, never cached',
  async () => {
    const res = await tokenRequest(
      { grant_type: 'client_credentials' },
      { authorization: basic(SEED.clientId, 'wrong') },
    );
    assert.is(res.status, 401);
    assert.is(res.headers.get('www-authenticate'), 'Basic realm="platform"');
    assert.is(res.headers.get('cache-control'), 'no-store');
    const body = (await res.json()) as Record<string, unknown>;
    assert.equal(Object.keys(body).sort(), ['error', 'error_description']);
    assert.is(body.error, 'invalid_client');
    const bad = await client.discovery(
      new URL(base),
      SEED.clientId,
      'wrong',
      client.ClientSecretBasic('wrong'),
      insecure,
    );
    try {
      await client.clientCredentialsGrant(bad);
      assert.unreachable();
    } catch (err) {
      assert.instance(err, client.WWWAuthenticateChallengeError);
    }
    const post = await tokenRequest({
      grant_type: 'client_credentials',
      client_id: SEED.clientId,
      client_secret: 'wrong',
    });
    assert.is(post.status, 401);
    assert.is(post.headers.get('www-authenticate'), null, 'no Basic challenge when Basic was not used');
  },
);

negatives('token endpoint: JSON body, unknown grant, grant not registered: RFC 6749 errors', async () => {
  const json = await fetch(`${base}/cas/oidc/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: basic(SEED.clientId, SEED.clientSecret) },
    body: JSON.stringify({ grant_type: 'client_credentials' }),
  });
  assert.is(json.status, 400);
  assert.is(((await json.json()) as { error: string }).error, 'invalid_request');
  const auth = { authorization: basic(SEED.clientId, SEED.clientSecret) };
  assert.is(
    ((await (await tokenRequest({ grant_type: 'urn:x:unknown' }, auth)).json()) as { error: string }).error,
    'unsupported_grant_type',
  );
  const spa = await tokenRequest({ grant_type: 'client_credentials', client_id: SEED.publicClientId });
  assert.is(((await spa.json()) as { error: string }).error, 'unauthorized_client');
  const ok = await tokenRequest({ grant_type: 'client_credentials' }, auth);
  assert.is(ok.status, 200);
  assert.is(ok.headers.get('cache-control'), 'no-store');
  assert.is(ok.headers.get('pragma'), 'no-cache');
});

negatives('login: the same generic message for an unknown user and a wrong password; then 429 per user', async () => {
  const url = client.buildAuthorizationUrl(confidential, { redirect_uri: REDIRECT, scope: 'openid', state: 's' });
  const attempt = async (username: string, password: string) => {
    const { response } = await signIn(url, username, password);
    return { status: response.status, html: await response.text() };
  };
  const unknown = await attempt('nobody-here', 'whatever-password');
  const wrong = await attempt('victim', 'whatever-password');
  assert.is(unknown.status, 401);
  assert.is(wrong.status, 401);
  const message = (html: string) => /role="alert"[^>]*>([^<]*)</.exec(html)?.[1];
  assert.is(message(unknown.html), 'Invalid username or password.');
  assert.is(message(wrong.html), message(unknown.html));
  // LOGIN_MAX_FAILURES=3: two more failures for "victim", then the fourth attempt is refused
  await attempt('victim', 'x-wrong-1');
  await attempt('victim', 'x-wrong-2');
  const blocked = await attempt('victim', 'x-wrong-3');
  assert.is(blocked.status, 429);
  assert.match(blocked.html, /Too many failed sign-in attempts/);
});

negatives('login form: a tampered CSRF token or sealed request is refused', async () => {
  const url = client.buildAuthorizationUrl(confidential, { redirect_uri: REDIRECT, scope: 'openid', state: 's' });
  const jar = new CookieJar();
  const page = await fetch(url, { headers: { cookie: jar.header() } });
  jar.store(page);
  const { request, csrf } = formFields(await page.text());
  const post = (fields: Record<string, string>) =>
    fetch(`${base}/cas/oidc/login`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: jar.header() },
      body: new URLSearchParams({
        request,
        csrf,
        username: SEED.adminUsername,
        password: SEED.adminPassword,
        ...fields,
      }),
    });
  const tampered = await post({ csrf: `${csrf.slice(0, -2)}AA` });
  assert.is(tampered.status, 403);
  assert.is(tampered.headers.get('location'), null);
  const [payload, mac] = request.split('.');
  const altered = Buffer.from(
    Buffer.from(payload!, 'base64url').toString().replace(REDIRECT, 'https://evil.example/cb'),
  ).toString('base64url');
  const forged = await post({ request: `${altered}.${mac}` });
  assert.is(forged.status, 400);
  assert.is(forged.headers.get('location'), null);
  const ok = await post({});
  assert.is(ok.status, 302);
});

negatives(
  'forged tokens: altered payload, or signed by a key that is not ours under our kid: 401 invalid_token',
  async () => {
    const { access_token } = await client.clientCredentialsGrant(confidential);
    const [h, p, s] = access_token.split('.');
    const claims = JSON.parse(Buffer.from(p!, 'base64url').toString()) as Record<string, unknown>;
    const altered = `${h}.${Buffer.from(JSON.stringify({ ...claims, tenant: 'platform' })).toString('base64url')}.${s}`;
    const res = await validate(altered);
    assert.is(res.status, 401);
    assert.match(res.headers.get('www-authenticate')!, /error="invalid_token"/);
    const { privateKey } = await generateKeyPair('RS256');
    const header = decodeProtectedHeader(access_token);
    const foreign = await new SignJWT(claims)
      .setProtectedHeader({ alg: 'RS256', kid: header.kid!, typ: 'JWT' })
      .sign(privateKey);
    assert.is((await validate(foreign)).status, 401);
    assert.is((await validate('not.a.token')).status, 401);
  },
);

negatives('expired access token (manual clock past expires_in): 401 invalid_token', async () => {
  const { access_token, expires_in } = await client.clientCredentialsGrant(confidential);
  assert.is((await validate(access_token)).status, 200);
  ctx.clock.advance((expires_in! + 60) * 1000);
  const res = await validate(access_token);
  assert.is(res.status, 401);
  assert.match(res.headers.get('www-authenticate')!, /Bearer error="invalid_token"/);
});

negatives.after(() => ctx.stop());
negatives.run();
