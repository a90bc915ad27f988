// SSO Config in Debian's headless Chromium, against the platform started in this process: the demo admin
// registers an application and sees its secret exactly once, a refused form keeps its input and marks the
// field, edits, disables and rotates; sets the application's API access; creates a user with roles who then
// signs in and sees only their areas; the signing keys with their state, rotated by a platform
// administrator. Each page is scanned by axe-core and photographed at 1280 and 390 px.
import { existsSync } from 'node:fs';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { CHROMIUM } from './browser-kit.ts';

if (!existsSync(CHROMIUM)) {
  console.log('SKIPPED: SSO Config in Chromium (install the chromium package)');
} else {
  await run();
}

async function run() {
  const { ensurePortalBuilt, launchChromium, review } = await import('./browser-kit.ts');
  const { ADMIN, portalApi, portalSignIn, startPortalPlatform } = await import(
    '../../spec/http/portal/portal-harness.ts'
  );
  const { createDirectoryCommands } = await import('../../commands/identity/directory.commands.ts');

  ensurePortalBuilt();
  const p = await startPortalPlatform();
  const browser: Browser = await launchChromium();
  const OPERATOR = { username: 'keykeeper', password: 'platform keys password' };
  const NEW_USER = { username: 'auditor', password: 'audit and bridge password' };
  // a person of the platform tenant (the seed makes only its machine user there)
  await createDirectoryCommands({
    eventStore: p.platform.stores.eventStore,
    clock: { now: () => new Date() },
  }).registerUser(
    { username: OPERATOR.username, password: OPERATOR.password, name: 'Key Keeper', roles: ['identity:admin'] },
    { tenant: 'platform', actor: 'spec' },
    'spec/sso-operator',
  );
  // the API as the demo admin's portal session sees it, to check what the pages did
  const { jar } = await portalSignIn(p.base);
  const apiGet = async (path: string) => {
    const res = await portalApi(p.base, jar, path);
    return { status: res.status, text: await res.text() };
  };

  const problems: string[] = [];
  const cspReports: string[] = [];
  const newPage = async (): Promise<{ context: BrowserContext; page: Page }> => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    page.setDefaultTimeout(10_000);
    page.on('console', (m) => {
      if (/Content Security Policy|Refused to/i.test(m.text())) cspReports.push(m.text());
    });
    page.on('pageerror', (e) => cspReports.push(`page error: ${e.message}`));
    return { context, page };
  };
  const look = async (page: Page, name: string) => {
    await page.waitForLoadState('networkidle');
    problems.push(...(await review(page, name)));
  };
  const signIn = async (page: Page, path: string, tenant: string, user: { username: string; password: string }) => {
    await page.goto(`${p.base}/portal${path}`);
    await page.getByLabel('Tenant').fill(tenant);
    await page.getByRole('button', { name: 'Continue to sign-in' }).click();
    await page.waitForURL((u) => u.pathname === '/cas/oidc/authorize');
    await page.getByLabel('Username').fill(user.username);
    await page.getByLabel('Password').fill(user.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL((u) => u.pathname === `/portal${path}`);
  };
  const heading = (page: Page) => page.getByRole('heading', { level: 1 });
  const secretShown = (page: Page) => page.getByTestId('client-secret');

  const { context: adminContext, page } = await newPage();
  await signIn(page, '/sso', ADMIN.tenant, ADMIN);
  let clientId = '';
  let firstSecret = '';

  const test = suite('SSO Config in Chromium');

  test('the applications list names the platform-managed clients', async () => {
    await page.getByRole('rowheader', { name: 'portal.demo' }).waitFor();
    const row = page.getByRole('row', { name: /hub-webhooks\.demo/ });
    assert.match((await row.textContent()) ?? '', /managed by the platform/);
    assert.not.match(
      (await page
        .getByRole('row', { name: /demo-client/ })
        .first()
        .textContent()) ?? '',
      /managed by the platform/,
    );
    await look(page, 'sso-applications-list');
  });

  test('a refused registration keeps its input and marks the redirect URI', async () => {
    await page.getByRole('link', { name: 'Register application' }).click();
    await page.waitForURL((u) => u.pathname === '/portal/sso/applications/new');
    await page.getByLabel('Application name').fill('Claims portal');
    const redirect = page.getByLabel('Sign-in redirect URIs', { exact: true });
    await redirect.fill('ftp://claims.example/callback');
    await page.getByLabel('audit:read', { exact: true }).check();
    await look(page, 'sso-application-new');
    await page.getByRole('button', { name: 'Register application' }).click();
    await page.getByText('CLIENT.INVALID').waitFor();
    assert.is(await redirect.getAttribute('aria-invalid'), 'true');
    assert.is(await page.evaluate(() => document.activeElement?.getAttribute('type')), 'url', 'the focus is on it');
    assert.is(await redirect.inputValue(), 'ftp://claims.example/callback');
    assert.is(await page.getByLabel('Application name').inputValue(), 'Claims portal');
    assert.ok(await page.getByLabel('audit:read', { exact: true }).isChecked());
    assert.match((await page.locator('.field-invalid').first().textContent()) ?? '', /must use http or https/);
    await look(page, 'sso-application-refused');
  });

  test('a registration shows its secret once: not after leaving, never in the API', async () => {
    await page.getByLabel('Sign-in redirect URIs', { exact: true }).fill('https://claims.example/callback');
    await page.getByRole('button', { name: 'Add a redirect URI' }).click();
    await page.getByLabel('Sign-in redirect URIs 2').fill('https://claims.example/other');
    await page.getByLabel('Post-logout redirect URIs', { exact: true }).fill('https://claims.example/');
    await page.getByRole('button', { name: 'Register application' }).click();
    await page.getByRole('heading', { name: 'Application registered' }).waitFor();
    assert.match((await page.locator('.secret-once').textContent()) ?? '', /you will not see it again/);
    firstSecret = (await secretShown(page).textContent()) ?? '';
    assert.ok(firstSecret.length >= 32, 'a secret is shown');
    assert.is(await page.getByRole('button', { name: 'Copy secret' }).count(), 1);
    clientId = (await page.locator('.page-lead code').textContent()) ?? '';
    await look(page, 'sso-application-secret');

    const stored = await apiGet(`/cas/admin/v1/clients/${clientId}`);
    assert.is(stored.status, 200);
    assert.not.ok(stored.text.includes(firstSecret), 'the API never answers the secret again');
    assert.not.match(stored.text, /"client_secret"/);
    assert.match(stored.text, /"scopes":\["audit:read"\]/);
    assert.match(stored.text, /https:\/\/claims\.example\/other/);

    await page.getByRole('button', { name: 'Done, I have copied it' }).click();
    await page.waitForURL((u) => u.pathname === `/portal/sso/applications/${clientId}`);
    await heading(page).filter({ hasText: 'Claims portal' }).waitFor();
    assert.is(await secretShown(page).count(), 0);
    await page.goBack();
    await page.waitForURL((u) => u.pathname === '/portal/sso/applications/new');
    assert.is(await secretShown(page).count(), 0, 'back on the registration: a fresh form, no secret');
    await page.goto(`${p.base}/portal/sso`);
    await page.getByRole('link', { name: clientId }).click();
    await heading(page).filter({ hasText: 'Claims portal' }).waitFor();
    assert.is(await secretShown(page).count(), 0);
    assert.not.ok((await page.content()).includes(firstSecret));
    await look(page, 'sso-application');
  });

  test('edit, disable and enable an application', async () => {
    await page.getByLabel('Application name').fill('Claims portal v2');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await heading(page).filter({ hasText: 'Claims portal v2' }).waitFor();
    assert.match((await apiGet(`/cas/admin/v1/clients/${clientId}`)).text, /"app_name":"Claims portal v2"/);

    await page.getByRole('button', { name: 'Disable' }).click();
    const dialog = page.getByRole('dialog', { name: `Disable ${clientId}?` });
    await dialog.waitFor();
    assert.is(
      await page.evaluate(() => document.activeElement?.textContent),
      'Cancel',
      'the safe choice has the focus',
    );
    await dialog.getByRole('button', { name: 'Disable' }).click();
    await page.getByRole('button', { name: 'Enable' }).waitFor();
    assert.match((await page.locator('.page-lead').textContent()) ?? '', /disabled/);
    assert.match((await apiGet(`/cas/admin/v1/clients/${clientId}`)).text, /"status":"disabled"/);
    await page.getByRole('button', { name: 'Enable' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Enable' }).click();
    await page.getByRole('button', { name: 'Disable' }).waitFor();
    assert.match((await apiGet(`/cas/admin/v1/clients/${clientId}`)).text, /"status":"active"/);
  });

  test('rotate the secret: a new one, shown once', async () => {
    await page.getByRole('button', { name: 'Rotate secret' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Rotate secret' }).click();
    await secretShown(page).waitFor();
    const second = (await secretShown(page).textContent()) ?? '';
    assert.ok(second.length >= 32);
    assert.is.not(second, firstSecret);
    assert.match((await page.locator('.secret-once').textContent()) ?? '', /you will not see it again/);
    await look(page, 'sso-application-rotated');
    await page.reload();
    await heading(page).filter({ hasText: 'Claims portal v2' }).waitFor();
    assert.is(await secretShown(page).count(), 0, 'a reload shows it no more');
  });

  test('API access: service scopes by service, saved on the client', async () => {
    await page.getByRole('link', { name: 'API access' }).click();
    await page.waitForURL((u) => u.pathname.endsWith('/api-access'));
    const group = page.getByRole('group', { name: 'Event bridge' });
    await group.waitFor();
    assert.is(await group.getByRole('checkbox').count(), 3);
    assert.ok(await page.getByLabel('audit:read', { exact: true }).isChecked(), 'the registration chose it');
    await group.getByLabel('bridge:publish').check();
    await page.getByLabel('hub:send').check();
    await page.getByLabel('audit:read', { exact: true }).uncheck();
    await page.getByRole('button', { name: 'Save API access' }).click();
    await page.getByText('API access saved').waitFor();
    const stored = JSON.parse((await apiGet(`/cas/admin/v1/clients/${clientId}`)).text) as { scopes: string[] };
    assert.equal(stored.scopes.sort(), ['bridge:publish', 'hub:send']);
    await look(page, 'sso-api-access');
  });

  test('a platform-managed client is shown, not edited', async () => {
    await page.goto(`${p.base}/portal/sso/applications/portal.demo`);
    await page.getByText('Managed by the platform.').waitFor();
    assert.is(await page.getByRole('heading', { name: 'Edit settings' }).count(), 0);
    assert.is(await page.getByRole('button', { name: 'Rotate secret' }).count(), 0);
    assert.is(await page.getByRole('link', { name: 'API access' }).count(), 0);
    await look(page, 'sso-application-managed');
  });

  test('create a user with roles: they sign in and see only their areas', async () => {
    await page.getByRole('navigation', { name: 'Areas' }).getByRole('link', { name: 'Users' }).click();
    await page.waitForURL((u) => u.pathname === '/portal/sso/users');
    const current = page.getByRole('navigation', { name: 'Areas' }).locator('[aria-current="page"]');
    assert.equal(await current.allTextContents(), ['Users'], 'only the entry the page belongs to is current');
    await page.getByRole('rowheader', { name: ADMIN.username }).waitFor();
    await look(page, 'sso-users');
    await page.getByRole('link', { name: 'Create user' }).click();
    // the list's own "Username starts with" field answers to the label too until the form has replaced it
    await heading(page).filter({ hasText: 'Create a user' }).waitFor();
    await page.getByLabel('Username').fill(NEW_USER.username);
    await page.getByLabel(/^Name\b/).fill('Audrey Auditor');
    await page.getByLabel('Password').fill('short');
    await page.getByLabel('bridge:admin').check();
    await page.getByRole('button', { name: 'Create user' }).click();
    await page.getByText('REQUEST.INVALID').waitFor();
    assert.is(await page.getByLabel('Password').getAttribute('aria-invalid'), 'true');
    assert.is(await page.getByLabel('Username').inputValue(), NEW_USER.username);
    await page.getByLabel('Password').fill(NEW_USER.password);
    await page.getByLabel('Other roles').fill('claims:read');
    await look(page, 'sso-user-new');
    await page.getByRole('button', { name: 'Create user' }).click();
    await heading(page).filter({ hasText: 'Audrey Auditor' }).waitFor();
    assert.ok(await page.getByLabel('bridge:admin').isChecked());
    assert.is(await page.getByLabel('Other roles').inputValue(), 'claims:read');
    await look(page, 'sso-user');
    const users = JSON.parse((await apiGet('/cas/admin/v1/users?username_prefix=auditor')).text) as {
      items: Array<{ roles: string[] }>;
    };
    assert.equal(users.items[0]?.roles.sort(), ['bridge:admin', 'claims:read']);

    await page.getByRole('link', { name: 'All users' }).click();
    await page.getByLabel('Username starts with').fill('aud');
    await page.getByRole('button', { name: 'Search' }).click();
    await page.getByRole('rowheader', { name: NEW_USER.username }).waitFor();
    await page.getByRole('rowheader', { name: ADMIN.username }).waitFor({ state: 'detached' });
    await page.getByRole('link', { name: NEW_USER.username }).click();
    await heading(page).filter({ hasText: 'Audrey Auditor' }).waitFor();

    const { context, page: theirs } = await newPage();
    await signIn(theirs, '/', ADMIN.tenant, NEW_USER);
    const nav = theirs.getByRole('navigation', { name: 'Areas' });
    await nav.getByRole('link', { name: 'Event buses' }).waitFor();
    assert.not.match((await nav.textContent()) ?? '', /SSO|Applications|Signing keys/);
    await context.close();
  });

  test('by keyboard: disable a user (Escape cancels, focus comes back), then set a new password', async () => {
    const disable = page.getByRole('button', { name: 'Disable user' });
    await disable.focus();
    await page.keyboard.press('Enter');
    await page.getByRole('dialog').waitFor();
    assert.is(await page.evaluate(() => document.activeElement?.textContent), 'Cancel');
    await page.keyboard.press('Escape');
    await page.getByRole('dialog').waitFor({ state: 'detached' });
    assert.is(await page.evaluate(() => document.activeElement?.textContent), 'Disable user', 'focus is back');
    await page.keyboard.press('Enter');
    await page.getByRole('dialog').waitFor();
    await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');
    await page.getByRole('button', { name: 'Enable user' }).waitFor();
    assert.match((await apiGet('/cas/admin/v1/users?username_prefix=auditor')).text, /"status":"disabled"/);
    await page.getByLabel('New password').fill('another long password');
    await page.getByRole('button', { name: 'Set password' }).click();
    await page.getByText('New password set for auditor').waitFor();
    assert.is(await page.getByLabel('New password').inputValue(), '');
  });

  test('a tenant admin sees the signing keys and their state, but no Rotate', async () => {
    await page.getByRole('navigation', { name: 'Areas' }).getByRole('link', { name: 'Signing keys' }).click();
    await page.waitForURL((u) => u.pathname === '/portal/sso/keys');
    const rows = page.getByRole('row').filter({ has: page.getByRole('rowheader') });
    await rows.first().waitFor();
    assert.match((await rows.first().textContent()) ?? '', /active/);
    assert.is(await page.getByRole('button', { name: 'Rotate' }).count(), 0);
    assert.match((await page.locator('main').textContent()) ?? '', /administrators of the platform tenant/);

    // the tenants page: their own tenant only, no creation
    await page.getByRole('navigation', { name: 'Areas' }).getByRole('link', { name: 'Tenants' }).click();
    await page.getByRole('rowheader', { name: 'demo' }).waitFor();
    assert.is(await page.getByRole('rowheader').count(), 1);
    assert.is(await page.getByRole('button', { name: 'Create tenant' }).count(), 0);
    await adminContext.close();
  });

  test('a platform administrator rotates the keys (a pending key appears) and creates a tenant', async () => {
    const { context, page: ops } = await newPage();
    await signIn(ops, '/sso/keys', 'platform', OPERATOR);
    const rows = ops.getByRole('row').filter({ has: ops.getByRole('rowheader') });
    await rows.first().waitFor();
    const before = await rows.count();
    await ops.getByRole('button', { name: 'Rotate' }).click();
    const dialog = ops.getByRole('dialog', { name: 'Rotate the signing key?' });
    await look(ops, 'sso-keys-rotate');
    await dialog.getByRole('button', { name: 'Rotate' }).click();
    await rows.filter({ hasText: 'pending' }).waitFor();
    assert.is(await rows.count(), before + 1);
    assert.match((await rows.nth(1).textContent()) ?? '', /active/, 'the old key signs until the new one does');
    await look(ops, 'sso-keys');

    // a platform administrator creates a tenant, which gets its clients, and changes it
    await ops.getByRole('navigation', { name: 'Areas' }).getByRole('link', { name: 'Tenants' }).click();
    await ops.getByRole('rowheader', { name: 'demo' }).waitFor();
    await ops.getByRole('button', { name: 'Create tenant' }).click();
    await ops.getByLabel(/^Code/).fill('Not A Code');
    await ops.getByLabel(/^Name/).fill('ACME Insurance');
    await ops.getByRole('button', { name: 'Create tenant' }).click();
    await ops.getByText('REQUEST.INVALID').waitFor();
    assert.is(await ops.getByLabel(/^Code/).getAttribute('aria-invalid'), 'true');
    await look(ops, 'sso-tenants');
    await ops.getByLabel(/^Code/).fill('acme');
    await ops.getByRole('button', { name: 'Create tenant' }).click();
    await heading(ops).filter({ hasText: 'ACME Insurance' }).waitFor();
    await ops.getByLabel(/^Support mail group/).fill('support@acme.example');
    await ops.getByRole('button', { name: 'Save changes' }).click();
    await ops.getByText('Changes saved').waitFor();
    await look(ops, 'sso-tenant');
    // the read model lists a new tenant a moment later; then a fresh page's picker offers it
    for (let i = 0; i < 50; i++) {
      const listed = await ops.request.get(`${p.base}/portal/api/cas/admin/v1/tenants?limit=200&offset=0`, {
        headers: { 'x-portal': '1' },
      });
      if ((await listed.text()).includes('"acme"')) break;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    await ops.reload();
    // the picker is a text field until the tenant list has loaded, then a list of them
    await ops.getByRole('combobox', { name: 'Target tenant' }).selectOption('acme');
    await ops.getByRole('navigation', { name: 'Areas' }).getByRole('link', { name: 'Applications' }).click();
    await ops.getByRole('rowheader', { name: 'portal.acme' }).waitFor();
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
