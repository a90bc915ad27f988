// The portal as its users meet it, in Debian's headless Chromium: the demo admin signs in through the
// platform's own login page and sees every area; a user with only bridge:admin sees only the bridge; a
// platform administrator acts on another tenant through the target-tenant picker; sign-out ends the
// session at the provider too. Every page visited is scanned by axe-core (no serious or critical
// violation) and photographed at 1280 and 390 px (.screenshots/portal/). The platform runs in this
// process on a temporary DATA_DIR and port 0, with the portal built.
import { existsSync } from 'node:fs';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { CHROMIUM } from './browser-kit.ts';

if (!existsSync(CHROMIUM)) {
  console.log('SKIPPED: the portal in Chromium (install the chromium package)');
} else {
  await run();
}

async function run() {
  const { ensurePortalBuilt, launchChromium, review } = await import('./browser-kit.ts');
  const { ADMIN, portalApi, portalSignIn, startPortalPlatform } = await import(
    '../../spec/http/portal/portal-harness.ts'
  );
  const { createDirectoryCommands } = await import('../../commands/identity/directory.commands.ts');
  const { eventually } = await import('../../spec/core/eventually.ts');

  ensurePortalBuilt();
  const p = await startPortalPlatform();
  const browser: Browser = await launchChromium();
  const BRIDGE_USER = { username: 'bridget', password: 'bridge only password' };
  const PLATFORM_USER = { username: 'ops', password: 'platform operator password' };

  // a user with only bridge:admin, created by the demo admin through the portal's own API proxy
  {
    const { jar } = await portalSignIn(p.base);
    const created = await portalApi(p.base, jar, '/cas/admin/v1/users', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        username: BRIDGE_USER.username,
        password: BRIDGE_USER.password,
        name: 'Bridget Only',
        roles: ['bridge:admin'],
      }),
    });
    if (created.status !== 201)
      throw new Error(`creating the bridge user answered ${created.status}: ${await created.text()}`);
  }
  // a person of the platform tenant (the seed makes only its machine user there)
  await createDirectoryCommands({
    eventStore: p.platform.stores.eventStore,
    clock: { now: () => new Date() },
  }).registerUser(
    {
      username: PLATFORM_USER.username,
      password: PLATFORM_USER.password,
      name: 'Platform Operator',
      roles: ['identity:admin', 'bridge:admin'],
    },
    { tenant: 'platform', actor: 'spec' },
    'spec/platform-user',
  );

  const problems: string[] = [];
  const cspReports: string[] = [];
  const newPage = async (): Promise<{ context: BrowserContext; page: Page }> => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    // the browser's own report of each refusal (a console message's wording is not a contract)
    await context.exposeBinding('reportCspViolation', (_source, text: string) => cspReports.push(text));
    await context.addInitScript(() => {
      document.addEventListener('securitypolicyviolation', (e) => {
        const report = (globalThis as unknown as { reportCspViolation(t: string): void }).reportCspViolation;
        report(`${e.violatedDirective} refused ${e.blockedURI || 'inline'} on ${location.pathname}`);
      });
    });
    const page = await context.newPage();
    page.on('pageerror', (e) => cspReports.push(`page error: ${e.message}`));
    return { context, page };
  };
  const look = async (page: Page, name: string) => {
    await page.waitForLoadState('networkidle');
    problems.push(...(await review(page, name)));
  };
  const signInThrough = async (page: Page, tenant: string, user: { username: string; password: string }) => {
    await page.getByLabel('Tenant').fill(tenant);
    await page.getByRole('button', { name: 'Continue to sign-in' }).click();
    await page.waitForURL((u) => u.pathname === '/cas/oidc/authorize');
    await page.getByLabel('Username').fill(user.username);
    await page.getByLabel('Password').fill(user.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
  };
  const heading = (page: Page) => page.getByRole('heading', { level: 1 });

  const test = suite('the portal in Chromium');

  test('the demo admin signs in from a deep link, lands on it and sees every area', async () => {
    const { context, page } = await newPage();
    await page.goto(`${p.base}/portal/sso`);
    await page.waitForURL((u) => u.pathname === '/portal/sign-in');
    assert.is(new URL(page.url()).searchParams.get('returnTo'), '/portal/sso');
    assert.is(
      await page.getByLabel('Tenant').inputValue(),
      ADMIN.tenant,
      'the tenant field starts with the seeded tenant',
    );
    await look(page, 'sign-in');

    await signInThrough(page, ADMIN.tenant, ADMIN);
    await page.waitForURL((u) => u.pathname === '/portal/sso');
    assert.is(await heading(page).textContent(), 'Applications');
    await page.getByRole('rowheader', { name: 'portal.demo' }).waitFor();
    await look(page, 'sso-applications');

    const header = page.getByRole('banner');
    assert.match((await header.textContent()) ?? '', /Tenant\s*demo/);
    assert.match((await header.textContent()) ?? '', /Demo Administrator/);
    assert.is(await page.getByLabel('Target tenant').count(), 0, 'a tenant admin has no target-tenant picker');

    await page.getByRole('navigation', { name: 'Areas' }).getByRole('link', { name: 'Home' }).click();
    await page.waitForURL((u) => u.pathname === '/portal/');
    const cards = page.getByRole('list', { name: 'Areas' });
    assert.match((await cards.textContent()) ?? '', /Public Setting › Event Bridge/);
    assert.match((await cards.textContent()) ?? '', /SSO Config/);
    await look(page, 'home-admin');

    await cards.getByRole('link', { name: /Event Bridge/ }).click();
    await page.waitForURL((u) => u.pathname === '/portal/bridge');
    await page.getByRole('rowheader', { name: 'baseline-claim' }).waitFor();
    await look(page, 'bridge-buses');

    // a reload of a deep link shows that page
    await page.reload();
    assert.is(await heading(page).textContent(), 'Event buses');

    // no token in the browser: not in storage, not readable as a cookie
    const stored = await page.evaluate(
      () => JSON.stringify({ ...localStorage }) + JSON.stringify({ ...sessionStorage }) + document.cookie,
    );
    assert.not.match(stored, /eyJ/);
    const cookie = (await context.cookies(`${p.base}/portal/`)).find((c) => c.name === 'portal_session');
    assert.ok(cookie, 'the session cookie is set');
    assert.is(cookie!.httpOnly, true);
    assert.is(cookie!.sameSite, 'Strict');
    assert.is(cookie!.path, '/portal');

    // an unknown page of the portal
    await page.goto(`${p.base}/portal/no/such/page`);
    assert.is(await heading(page).textContent(), 'Page not found');
    await look(page, 'not-found');
    await context.close();
  });

  test('keyboard only: the skip link and the navigation', async () => {
    const { context, page } = await newPage();
    await page.goto(`${p.base}/portal/`);
    await signInThrough(page, ADMIN.tenant, ADMIN);
    await page.waitForURL((u) => u.pathname === '/portal/');
    await page.getByRole('heading', { name: 'Home' }).waitFor();
    await page.keyboard.press('Tab');
    assert.is(await page.evaluate(() => document.activeElement?.textContent), 'Skip to content');
    await page.keyboard.press('Enter');
    assert.is(await page.evaluate(() => document.activeElement?.id), 'main');
    // through the header and the navigation to the SSO link
    let found = false;
    for (let i = 0; i < 15 && !found; i++) {
      await page.keyboard.press('Tab');
      found = (await page.evaluate(() => document.activeElement?.textContent ?? '')) === 'Applications';
    }
    assert.ok(found, 'Tab reaches the navigation');
    await page.keyboard.press('Enter');
    await page.waitForURL((u) => u.pathname === '/portal/sso');
    await page.waitForFunction(
      () => document.activeElement?.tagName === 'H1' && document.activeElement.textContent === 'Applications',
    );
    await context.close();
  });

  test('a user with only bridge:admin sees only the bridge', async () => {
    const { context, page } = await newPage();
    await page.goto(`${p.base}/portal/`);
    await signInThrough(page, ADMIN.tenant, BRIDGE_USER);
    await page.waitForURL((u) => u.pathname === '/portal/');
    const nav = page.getByRole('navigation', { name: 'Areas' });
    assert.match((await nav.textContent()) ?? '', /Event buses/);
    assert.not.match((await nav.textContent()) ?? '', /SSO|Applications/);
    const cards = page.getByRole('list', { name: 'Areas' });
    // one card (an area's entries are a list inside its card)
    assert.is(await cards.locator(':scope > li').count(), 1);
    await look(page, 'home-bridge-only');

    // the other area's page answers "not available" in place
    await page.goto(`${p.base}/portal/sso`);
    assert.is(await heading(page).textContent(), 'SSO Config is not available');
    await look(page, 'sso-not-available');
    await context.close();
  });

  test('a platform administrator acts on another tenant through the target-tenant picker', async () => {
    const { context, page } = await newPage();
    await page.goto(`${p.base}/portal/sso`);
    await signInThrough(page, 'platform', PLATFORM_USER);
    await page.waitForURL((u) => u.pathname === '/portal/sso');
    await page.getByRole('rowheader', { name: 'portal.platform' }).waitFor();
    // a text field until the tenant list has loaded, then a list of them
    const picker = page.getByRole('combobox', { name: 'Target tenant' });
    await picker.selectOption('demo');
    await page.waitForURL((u) => u.searchParams.get('tenant') === 'demo');
    await page.getByRole('rowheader', { name: 'portal.demo' }).waitFor();
    assert.is(
      await page.getByRole('rowheader', { name: 'portal.platform' }).count(),
      0,
      "the list is the target tenant's",
    );
    await look(page, 'sso-target-tenant');
    // the choice stays on the links
    await page.getByRole('navigation', { name: 'Areas' }).getByRole('link', { name: 'Home' }).click();
    await page.waitForURL((u) => u.pathname === '/portal/');
    assert.is(new URL(page.url()).searchParams.get('tenant'), 'demo');
    await context.close();
  });

  test('sign-out ends the session here and at the provider', async () => {
    const { context, page } = await newPage();
    await page.goto(`${p.base}/portal/`);
    await signInThrough(page, ADMIN.tenant, ADMIN);
    await page.waitForURL((u) => u.pathname === '/portal/');
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL((u) => u.pathname === '/portal/sign-in');
    await look(page, 'signed-out');
    assert.is((await page.request.get(`${p.base}/portal/auth/session`)).status(), 401);
    // the provider's session is gone too: a new sign-in shows its login form again
    await page.getByRole('button', { name: 'Continue to sign-in' }).click();
    await page.waitForURL((u) => u.pathname === '/cas/oidc/authorize');
    await page.getByLabel('Password').waitFor();
    await look(page, 'provider-login');
    await context.close();
  });

  test('a planted inline script is refused and reported (the CSP check below can see a refusal)', async () => {
    const { context, page } = await newPage();
    await page.goto(`${p.base}/portal/sign-in`);
    const before = cspReports.length;
    await page.evaluate(() => {
      const planted = document.createElement('script');
      planted.textContent = 'document.title = "planted"';
      document.head.append(planted);
    });
    await eventually(() => cspReports.length > before, 'the refusal reported');
    assert.is.not(await page.title(), 'planted', 'the inline script did not run');
    const planted = cspReports.splice(before);
    assert.is(planted.length, 1, `one refusal reported: ${JSON.stringify(planted)}`);
    assert.match(planted[0]!, /^script-src/);
    await context.close();
  });

  test('no page has a serious or critical accessibility violation, and the CSP refused nothing', () => {
    assert.equal(problems, []);
    assert.equal(cspReports, []);
  });

  test.after(async () => {
    await browser.close();
    await p.stop();
  });
  test.run();
}
