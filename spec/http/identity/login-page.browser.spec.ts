// The provider's login page in a real headless Chromium (Debian's chromium, driven by playwright-core):
// accessible labels, the generic error on a wrong password, the redirect to the client with code and
// state on the right one, and the CSRF check. The redirect URI is a tiny callback page on a loopback port.
import { existsSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';

import { CHROMIUM, launchChromium } from '../../core/chromium.ts';

if (!existsSync(CHROMIUM)) {
  console.log('SKIPPED: login page in Chromium (install the chromium package)');
} else {
  await run();
}

async function run() {
  const { SEED, startIdentityPlatform } = await import('./identity-harness.ts');

  // the relying party's callback: shows what it received
  const callback: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(
      `<!doctype html><title>callback</title><h1>Callback</h1><p id="code">${url.searchParams.has('code') ? 'code received' : 'no code'}</p>`,
    );
  });
  await new Promise<void>((resolve) => callback.listen(0, '127.0.0.1', resolve));
  const callbackUrl = `http://127.0.0.1:${(callback.address() as AddressInfo).port}/callback`;

  const ctx = await startIdentityPlatform({ redirectUri: callbackUrl });
  const browser = await launchChromium();

  const authorizeUrl = (state: string) => {
    const u = new URL(`${ctx.base}/cas/oidc/authorize`);
    u.search = new URLSearchParams({
      client_id: SEED.clientId,
      redirect_uri: callbackUrl,
      response_type: 'code',
      scope: 'openid profile',
      state,
      nonce: `n-${state}`,
    }).toString();
    return u.href;
  };
  const isLoginPost = (r: { url(): string; request(): { method(): string } }) =>
    r.url().endsWith('/cas/oidc/login') && r.request().method() === 'POST';

  const test = suite('login page in Chromium');

  test('a wrong password shows the generic error; the right one ends on the redirect_uri with code and state', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(authorizeUrl('state-123'));
    assert.is(await page.title(), 'Sign in');
    // one <label> per field: the fields are reachable by their accessible names
    await page.getByLabel('Username').fill(SEED.adminUsername);
    await page.getByLabel('Password').fill('not the password');
    const [failed] = await Promise.all([
      page.waitForResponse(isLoginPost),
      page.getByRole('button', { name: 'Sign in' }).click(),
    ]);
    assert.is(failed.status(), 401);
    await page.waitForLoadState();
    assert.is((await page.getByRole('alert').textContent())?.trim(), 'Invalid username or password.');
    assert.is(await page.getByLabel('Username').inputValue(), SEED.adminUsername, 'the user name is kept');
    assert.is(await page.getByLabel('Password').inputValue(), '', 'the password is not echoed');

    await page.getByLabel('Password').fill(SEED.adminPassword);
    await Promise.all([
      page.waitForURL((u) => u.href.startsWith(callbackUrl)),
      page.getByRole('button', { name: 'Sign in' }).click(),
    ]);
    const landed = new URL(page.url());
    assert.is(landed.origin + landed.pathname, callbackUrl);
    assert.match(landed.searchParams.get('code') ?? '', /^[A-Za-z0-9_-]{43}$/);
    assert.is(landed.searchParams.get('state'), 'state-123');
    assert.is(await page.locator('#code').textContent(), 'code received');

    const session = (await context.cookies(`${ctx.base}/cas/oidc/authorize`)).find(
      (c) => c.name === 'platform_session',
    );
    assert.ok(session, 'the session cookie is set');
    assert.is(session!.httpOnly, true);
    assert.is(session!.sameSite, 'Lax');
    assert.is(session!.path, '/cas');
    // the session signs the user in without the form next time
    await page.goto(authorizeUrl('state-456'));
    assert.ok(page.url().startsWith(callbackUrl));
    assert.is(new URL(page.url()).searchParams.get('state'), 'state-456');
    await context.close();
  });

  test('a tampered CSRF token is refused with 403 and no redirect', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(authorizeUrl('state-csrf'));
    await page.getByLabel('Username').fill(SEED.adminUsername);
    await page.getByLabel('Password').fill(SEED.adminPassword);
    await page.locator('input[name="csrf"]').evaluate((el) => {
      (el as { value: string }).value = 'tampered-token';
    });
    const [refused] = await Promise.all([
      page.waitForResponse(isLoginPost),
      page.getByRole('button', { name: 'Sign in' }).click(),
    ]);
    assert.is(refused.status(), 403);
    await page.waitForLoadState();
    assert.ok(page.url().startsWith(ctx.base), 'still on the provider');
    assert.match((await page.textContent('body')) ?? '', /could not be verified/);
    assert.is(
      (await context.cookies(`${ctx.base}/cas/oidc/authorize`)).find((c) => c.name === 'platform_session'),
      undefined,
      'nobody is signed in',
    );
    await context.close();
  });

  test('a form posted without the pre-login cookie (another site) is refused', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(authorizeUrl('state-cookie'));
    await context.clearCookies();
    await page.getByLabel('Username').fill(SEED.adminUsername);
    await page.getByLabel('Password').fill(SEED.adminPassword);
    const [refused] = await Promise.all([
      page.waitForResponse(isLoginPost),
      page.getByRole('button', { name: 'Sign in' }).click(),
    ]);
    assert.is(refused.status(), 403);
    await context.close();
  });

  test.after(async () => {
    await browser.close();
    await ctx.stop();
    await new Promise<void>((resolve) => callback.close(() => resolve()));
  });
  test.run();
}
