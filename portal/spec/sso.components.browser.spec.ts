// SSO Config's controls in Chromium, under the portal's Content-Security-Policy: the redirect-URI list
// (add, remove, a refusal marks the URL the API quotes and keeps every entry) and the scope picker (the
// boxes toggle service scopes; a scope that is no service's stays). The fixture
// (sso-components/sso-harness.tsx) is built with Vite into a temporary folder and served on loopback.
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { CHROMIUM } from './browser-kit.ts';

if (!existsSync(CHROMIUM)) {
  console.log('SKIPPED: the SSO Config components in Chromium (install the chromium package)');
} else {
  await run();
}

async function run() {
  const { launchChromium, openHarnessPage, review, serveHarness } = await import('./browser-kit.ts');

  const harness = await serveHarness({
    root: path.join(import.meta.dirname, 'sso-components'),
    html: 'sso-harness.html',
  });
  const browser: Browser = await launchChromium();
  const reports: string[] = [];
  const page = await openHarnessPage(browser, reports, {
    url: harness.base,
    viewport: { width: 1280, height: 900 },
    timeout: 10_000,
  });
  const entries = page.getByRole('list').getByRole('textbox');

  const test = suite('SSO Config controls in Chromium');

  test('the URL list adds and removes entries', async () => {
    assert.is(await entries.count(), 1);
    assert.is(await page.getByRole('button', { name: /^Remove/ }).count(), 0, 'a single entry has no Remove');
    await page.getByLabel('Redirect URIs', { exact: true }).fill('https://a.example/cb');
    await page.getByRole('button', { name: 'Add a redirect URI' }).click();
    await page.getByLabel('Redirect URIs 2').fill('ftp://b.example/cb');
    await page.getByRole('button', { name: 'Add a redirect URI' }).click();
    await page.getByLabel('Redirect URIs 3').fill('https://c.example/cb');
    assert.is(await entries.count(), 3);
    await page.getByRole('button', { name: 'Remove https://c.example/cb' }).click();
    assert.is(await entries.count(), 2);
  });

  test('a refusal marks the URL the API quotes, keeps every entry and focuses the list', async () => {
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('CLIENT.INVALID').waitFor();
    assert.is(await page.getByLabel('Redirect URIs 2').getAttribute('aria-invalid'), 'true');
    assert.is(await page.getByLabel('Redirect URIs', { exact: true }).getAttribute('aria-invalid'), null);
    assert.is(await page.getByLabel('Redirect URIs 2').inputValue(), 'ftp://b.example/cb');
    assert.is(await page.getByLabel('Redirect URIs', { exact: true }).inputValue(), 'https://a.example/cb');
    assert.is(
      await page.evaluate(() => document.activeElement?.id),
      await page.getByLabel('Redirect URIs', { exact: true }).getAttribute('id'),
    );
    assert.match((await page.locator('.field-error').textContent()) ?? '', /must use http or https/);
    assert.equal(await review(page, 'sso-components-refused'), []);
  });

  test('the scope picker toggles service scopes and keeps the others', async () => {
    assert.ok(await page.getByLabel('audit:read').isChecked());
    await page.getByRole('group', { name: 'Event bridge' }).getByLabel('bridge:publish').check();
    await page.getByLabel('audit:read').uncheck();
    await page.getByLabel('Redirect URIs 2').fill('https://b.example/cb');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.waitForFunction(() => document.querySelector('.form-summary') === null);
    const sent = (await page.evaluate(() => window.submitted)) as { scopes: string[]; signin_redirect_url: string[] };
    assert.equal(sent.scopes, ['tenant:cross', 'bridge:publish']);
    assert.equal(sent.signin_redirect_url, ['https://a.example/cb', 'https://b.example/cb']);
  });

  test('the CSP refused nothing', () => {
    assert.equal(reports, []);
  });

  test.after(async () => {
    await browser.close();
    await harness.close();
  });
  test.run();
}
