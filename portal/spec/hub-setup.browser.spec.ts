// The hub's setup pages in Debian's headless Chromium: the demo admin adds channels (a refused code keeps
// its input and is marked), disables and enables one, deletes one behind the confirmation; creates a
// REST_WEBHOOK delivery service through its form, where the driver's verdict on the settings follows the
// typing (an invalid URL is named beside the field before anything is saved, fixed it says valid), sees
// the signing secret once (a reload shows it no more, the API never answers it), rotates it (a new one,
// once), edits and deletes the service; creates a template and watches the preview render as typed (the
// API's sanitized HTML in a sandboxed frame, the context's sensitive email masked, no script), changes
// the sample payload, filters the list, deletes the template. What the pages show is checked against the
// API. Every page is scanned by axe-core and photographed at 1280 and 390 px (.screenshots/portal/);
// nothing may be refused by the CSP.
import { existsSync } from 'node:fs';
import type { Browser, Locator, Page } from 'playwright-core';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { CHROMIUM } from './browser-kit.ts';

if (!existsSync(CHROMIUM)) {
  console.log('SKIPPED: the hub setup pages in Chromium (install the chromium package)');
} else {
  await run();
}

async function run() {
  const { ensurePortalBuilt, launchChromium, review } = await import('./browser-kit.ts');
  const { eventually } = await import('../../spec/core/eventually.ts');
  const { ADMIN, portalApi, portalSignIn, startPortalPlatform } = await import(
    '../../spec/http/portal/portal-harness.ts'
  );

  ensurePortalBuilt();
  const p = await startPortalPlatform();
  const browser: Browser = await launchChromium();
  const { jar } = await portalSignIn(p.base);
  const hub = async (path: string, init: RequestInit = {}) => {
    const r = await portalApi(p.base, jar, `/comm/v1${path}`, init);
    const text = await r.text();
    return { status: r.status, text, json: (text === '' ? null : JSON.parse(text)) as Record<string, unknown> };
  };
  const hubGet = async (path: string) => {
    const r = await hub(path);
    assert.is(r.status, 200, `${path}: ${r.text}`);
    return r.json;
  };

  const problems: string[] = [];
  const refusals: string[] = [];
  const look = async (page: Page, name: string) => {
    await page.waitForLoadState('networkidle');
    // the toasts of earlier steps would cover the page in its screenshots
    const toasts = page.getByRole('button', { name: 'Dismiss message' });
    if ((await page.getByRole('dialog').count()) === 0)
      while ((await toasts.count()) > 0)
        await toasts
          .first()
          .click({ timeout: 2000 })
          .catch(() => undefined);
    problems.push(...(await review(page, name)));
  };
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  page.on('console', (m) => {
    if (/Content Security Policy|Refused to/i.test(m.text())) refusals.push(m.text());
  });
  page.on('pageerror', (e) => refusals.push(`page error: ${e.message}`));

  const heading = (name: string) => page.getByRole('heading', { level: 1, name, exact: true });
  const nav = async (label: string, title: string) => {
    await page.getByRole('navigation').getByRole('link', { name: label, exact: true }).click();
    await heading(title).waitFor();
  };
  /** the message shown beside a field: the error its aria-describedby names */
  const fieldError = async (field: Locator) => {
    const ids = ((await field.getAttribute('aria-describedby')) ?? '').split(' ').filter((x) => x.endsWith('-error'));
    if (ids.length === 0) return null;
    return page.locator(`[id="${ids[0]}"]`).textContent();
  };

  /** waits until the field shows `message` beside it, marked invalid */
  const errorShown = async (field: Locator, message: string) => {
    await eventually(async () => (await fieldError(field)) === message, { what: `"${message}" beside the field` });
    assert.is(await field.getAttribute('aria-invalid'), 'true');
  };

  const test = suite('the hub setup pages in Chromium');

  test('channels: added, a refused code kept and marked, disabled and enabled, one deleted behind the confirmation', async () => {
    await page.goto(`${p.base}/portal/hub/channels`);
    await page.getByRole('button', { name: 'Continue to sign-in' }).click();
    await page.waitForURL((u) => u.pathname === '/cas/oidc/authorize');
    await page.getByLabel('Username').fill(ADMIN.username);
    await page.getByLabel('Password').fill(ADMIN.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await heading('Channels').waitFor();
    await page.getByText('No channel yet').waitFor();
    await look(page, 'hub-channels-empty');

    const add = page.getByRole('region', { name: 'Add a channel' });
    await add.getByLabel('Code').fill('e-mail');
    await add.getByLabel('Description').fill('Mail to customers');
    await add.getByRole('button', { name: 'Add channel' }).click();
    await add.getByRole('alert').waitFor();
    assert.is(await add.getByLabel('Code').getAttribute('aria-invalid'), 'true');
    assert.is(await add.getByLabel('Code').inputValue(), 'e-mail');
    assert.is(await add.getByLabel('Description').inputValue(), 'Mail to customers');
    await look(page, 'hub-channels-refused');

    await add.getByLabel('Code').fill('EMAIL');
    await add.getByRole('button', { name: 'Add channel' }).click();
    await page.getByRole('rowheader', { name: 'EMAIL' }).waitFor();
    await add.getByLabel('Code').fill('SMS');
    await add.getByRole('button', { name: 'Add channel' }).click();
    await page.getByRole('rowheader', { name: 'SMS' }).waitFor();
    const email = page.getByRole('row', { name: /EMAIL/ });
    assert.match((await email.textContent()) ?? '', /Mail to customers/);

    await page.getByRole('button', { name: 'Disable EMAIL' }).click();
    await email.getByText('Disabled', { exact: true }).waitFor();
    assert.is((await hubGet('/channels/EMAIL')).Enabled, false);
    await page.getByRole('button', { name: 'Enable EMAIL' }).click();
    await email.getByText('Enabled', { exact: true }).waitFor();
    const stored = await hubGet('/channels/EMAIL');
    assert.is(stored.Enabled, true);
    assert.is(stored.Description, 'Mail to customers', 'a toggle keeps the description');

    await page.getByRole('button', { name: 'Delete SMS' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete the channel SMS?' });
    await dialog.waitFor();
    await look(page, 'hub-channel-delete');
    await dialog.getByRole('button', { name: 'Delete channel' }).click();
    await page.getByRole('rowheader', { name: 'SMS' }).waitFor({ state: 'detached' });
    assert.is((await hub('/channels/SMS')).status, 404);
    await look(page, 'hub-channels');
  });

  let firstSecret = '';
  test('a REST_WEBHOOK service: its settings checked as typed, created, its signing secret shown once', async () => {
    await nav('Delivery services', 'Delivery services');
    await page.getByText('No delivery service yet').waitFor();
    await look(page, 'hub-delivery-services-empty');
    await page.getByRole('link', { name: 'Create delivery service' }).click();
    await heading('Create a delivery service').waitFor();
    await page.getByLabel('Driver type').getByRole('option', { name: 'REST_WEBHOOK' }).waitFor({ state: 'attached' });
    await page
      .getByLabel(/^Channel( \*)?$/)
      .getByRole('option', { name: 'EMAIL' })
      .waitFor({ state: 'attached' });
    await page.getByLabel('Service ID').fill('driverTypes');
    await page.getByLabel('Name', { exact: true }).fill('Mail receiver');
    await page.getByLabel(/^Channel( \*)?$/).selectOption('EMAIL');

    const url = page.getByLabel('Receiver URL');
    const state = page.getByRole('status').filter({ hasText: /Settings|Checking/ });
    await url.pressSequentially('ftp://mail.example');
    await errorShown(url, 'must be http or https');
    assert.is(await url.getAttribute('aria-invalid'), 'true');
    await url.fill('');
    await url.pressSequentially('not a url');
    await errorShown(url, 'is not a URL');
    await state.getByText('Settings refused').waitFor();
    const read = page.getByLabel('Read timeout (ms)');
    await read.pressSequentially('0');
    await errorShown(read, 'must be an integer from 1 to 600000');
    await look(page, 'hub-delivery-service-new-invalid');
    assert.equal((await hubGet('/delivery-services')).Items, [], 'the checks store nothing');

    await read.fill('');
    await url.fill('');
    await url.pressSequentially('http://127.0.0.1:9/notify');
    await state.getByText('Settings valid', { exact: true }).waitFor();
    assert.is(await fieldError(url), null);
    assert.is(await url.getAttribute('aria-invalid'), null);
    await page.getByLabel('Read timeout (ms)').fill('15000');
    await page.getByLabel('Supported channels').fill('EMAIL');
    await page.getByRole('checkbox', { name: 'HTML' }).check();
    await state.getByText('Settings valid', { exact: true }).waitFor();

    // a refused save keeps every input and marks the field it names: the browser's own refusal first
    const timeout = page.getByLabel('Receipt timeout (seconds)');
    await timeout.fill('soon');
    await page.getByRole('button', { name: 'Create delivery service' }).click();
    await errorShown(timeout, 'must be an integer');
    assert.is(await timeout.inputValue(), 'soon');
    await timeout.fill('3600');
    await page.getByRole('button', { name: 'Create delivery service' }).click();
    await page.getByRole('alert').filter({ hasText: 'DELIVERY_SERVICE.INVALID' }).waitFor();
    const serviceId = page.getByLabel('Service ID');
    assert.is(await serviceId.getAttribute('aria-invalid'), 'true');
    assert.is(await fieldError(serviceId), 'is reserved');
    assert.is(await url.inputValue(), 'http://127.0.0.1:9/notify');
    await serviceId.fill('mail-hook');
    await look(page, 'hub-delivery-service-new');
    await page.getByRole('button', { name: 'Create delivery service' }).click();

    await heading('Delivery service created').waitFor();
    const secret = page.getByTestId('signing-secret');
    firstSecret = (await secret.textContent()) ?? '';
    assert.match(firstSecret, /^whsec_/);
    assert.match((await page.locator('.secret-once').textContent()) ?? '', /you will not see it again/);
    await look(page, 'hub-delivery-service-secret');
    const stored = await hub('/delivery-services/mail-hook');
    assert.is(stored.status, 200);
    assert.not.ok(stored.text.includes(firstSecret), 'the API never answers the secret again');
    assert.equal(stored.json.Settings, {
      Url: 'http://127.0.0.1:9/notify',
      ReadTimeoutMs: 15000,
      SupportedChannels: ['EMAIL'],
      SupportedContentTypes: ['HTML'],
    });
    assert.is(stored.json.Channel, 'EMAIL');
    assert.is(stored.json.ReceiptTimeoutSeconds, 3600);

    await page.reload();
    await heading('Create a delivery service').waitFor();
    assert.is(await page.getByTestId('signing-secret').count(), 0, 'a reload shows it no more');
    assert.is(await page.getByLabel('Service ID').inputValue(), '');
  });

  test('the service: listed, rotated (a new secret, once), edited for new sends, deleted behind the confirmation', async () => {
    await nav('Delivery services', 'Delivery services');
    await page.getByRole('link', { name: 'mail-hook' }).waitFor();
    assert.match((await page.getByRole('row', { name: /mail-hook/ }).textContent()) ?? '', /127\.0\.0\.1:9\/notify/);
    await look(page, 'hub-delivery-services');
    await page.getByRole('link', { name: 'mail-hook' }).click();
    await heading('Mail receiver').waitFor();
    assert.is(await page.getByTestId('signing-secret').count(), 0);
    await page.getByText('A change reaches new sends only').waitFor();
    await page.getByText('Settings valid', { exact: true }).waitFor();

    await page.getByRole('button', { name: 'Rotate signing secret' }).click();
    const rotate = page.getByRole('dialog', { name: 'Rotate the signing secret of mail-hook?' });
    await rotate.getByLabel('Previous secret keeps signing for').selectOption('3600');
    await rotate.getByRole('button', { name: 'Rotate secret' }).click();
    const secret = page.getByTestId('signing-secret');
    await secret.waitFor();
    const second = (await secret.textContent()) ?? '';
    assert.match(second, /^whsec_/);
    assert.is.not(second, firstSecret, 'a new secret');
    assert.match((await page.locator('.secret-once').textContent()) ?? '', /previous secret keeps signing until/);
    await look(page, 'hub-delivery-service-rotated');
    await page.reload();
    await heading('Mail receiver').waitFor();
    assert.is(await page.getByTestId('signing-secret').count(), 0, 'a reload shows it no more');

    const read = page.getByLabel('Read timeout (ms)');
    assert.is(await read.inputValue(), '15000');
    await read.fill('20000');
    await page.getByText('Settings valid', { exact: true }).waitFor();
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByText('Delivery service mail-hook saved').waitFor();
    assert.is(
      ((await hubGet('/delivery-services/mail-hook')).Settings as { ReadTimeoutMs: number }).ReadTimeoutMs,
      20000,
    );
    await look(page, 'hub-delivery-service');

    await page.getByRole('button', { name: 'Delete', exact: true }).click();
    const del = page.getByRole('dialog', { name: 'Delete the delivery service mail-hook?' });
    await del.getByRole('button', { name: 'Delete delivery service' }).click();
    await heading('Delivery services').waitFor();
    assert.is((await hub('/delivery-services/mail-hook')).status, 404);
  });

  test('a template: the preview renders as typed, sanitized in a sandboxed frame, the email masked', async () => {
    const ctx = await hub('/context-definitions', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        ContextDefinitionId: 'welcome-ctx',
        Name: 'Welcome',
        Contexts: { customer: '$.customer' },
        Variables: { Name: 'Context.customer.name', Email: 'Context.customer.email' },
        SensitiveFields: [{ Path: '$.customer.email', Method: 'EMAIL' }],
        SamplePayload: { customer: { name: 'Jane Roe', email: 'jane.roe@example.com' } },
      }),
    });
    assert.is(ctx.status, 201, ctx.text);

    await nav('Templates', 'Templates');
    await page.getByText('No template yet.').waitFor();
    await look(page, 'hub-templates-empty');
    await page.getByRole('link', { name: 'Create template' }).click();
    await heading('Create a template').waitFor();
    await page.getByLabel('Template code').fill('welcome');
    await page
      .getByLabel(/^Channel( \*)?$/)
      .getByRole('option', { name: 'EMAIL' })
      .waitFor({ state: 'attached' });
    await page.getByLabel(/^Channel( \*)?$/).selectOption('EMAIL');
    await page
      .getByLabel('Context definition')
      .getByRole('option', { name: /welcome-ctx/ })
      .waitFor({ state: 'attached' });
    await page.getByLabel('Context definition').selectOption('welcome-ctx');
    await page.getByLabel('Subject').fill('Welcome ${Name}');

    const body = page.getByLabel(/^Body( \*)?$/);
    const frame = page.frameLocator('iframe[title^="Rendered HTML body"]');
    await body.pressSequentially('<h1>Hello ${Name}</h1>');
    await frame.locator('h1').getByText('Hello Jane Roe').waitFor();
    await body.pressSequentially('<p>We write to ${Email}.</p><script>alert(1)</script>');
    await frame.locator('p').getByText('We write to j*******@example.com.').waitFor();
    assert.is(await frame.locator('script').count(), 0, 'the sanitized HTML carries no script');
    assert.not.match((await frame.locator('body').innerHTML()) ?? '', /jane\.roe@/);
    assert.is(await page.getByTestId('preview-subject').textContent(), 'Welcome Jane Roe');
    assert.is(await page.locator('iframe.hs-preview-frame').getAttribute('sandbox'), '');
    await page.getByText('Valid: it renders as a send would').waitFor();
    await look(page, 'hub-template-new');

    // the sample payload edited: the preview follows it
    await page.getByLabel('Sample payload (JSON)').click();
    await page.keyboard.press('ControlOrMeta+a');
    await page.keyboard.type('{"customer": {"name": "Max Muster", "email": "max@example.org"}}');
    await frame.locator('h1').getByText('Hello Max Muster').waitFor();
    await frame.locator('p').getByText('We write to m**@example.org.').waitFor();

    // content the renderer refuses: named beside the field, the preview says why; fixed, it renders again
    await body.press('End');
    await body.pressSequentially(' ${');
    await page.getByRole('alert').filter({ hasText: 'PREVIEW.INVALID' }).waitFor();
    await eventually(async () => /does not start a placeholder/.test((await fieldError(body)) ?? ''), {
      what: 'the refusal beside Body',
    });
    assert.is(await body.getAttribute('aria-invalid'), 'true');
    await look(page, 'hub-template-new-refused');
    await body.press('Backspace');
    await body.press('Backspace');
    await body.press('Backspace');
    await page.getByRole('alert').filter({ hasText: 'PREVIEW.INVALID' }).waitFor({ state: 'detached' });
    await frame.locator('h1').getByText('Hello Max Muster').waitFor();
    assert.is(await body.getAttribute('aria-invalid'), null);

    await page.getByRole('button', { name: 'Create template' }).click();
    await heading('welcome:EMAIL:en_US').waitFor();
    const stored = await hubGet('/templates/welcome:EMAIL:en_US');
    assert.is(stored.Body, '<h1>Hello ${Name}</h1><p>We write to ${Email}.</p><script>alert(1)</script>');
    assert.is(stored.Subject, 'Welcome ${Name}');
    assert.is(stored.ContentType, 'HTML');
    // without a context its placeholders name no declared variable: the preview says so
    await page.getByText('Not valid for a send').waitFor();
    await page
      .getByLabel('Context definition')
      .getByRole('option', { name: /welcome-ctx/ })
      .waitFor({ state: 'attached' });
    await page.getByLabel('Context definition').selectOption('welcome-ctx');
    await frame.locator('h1').getByText('Hello Jane Roe').waitFor();
    await page.getByLabel('Status', { exact: true }).selectOption('ACTIVE');
    await page.getByRole('button', { name: 'Save template' }).click();
    await page.getByText('Template welcome:EMAIL:en_US saved').waitFor();
    assert.is((await hubGet('/templates/welcome:EMAIL:en_US')).Status, 'ACTIVE');
    await look(page, 'hub-template');
  });

  test('templates: filtered by code, deleted behind the confirmation', async () => {
    await nav('Templates', 'Templates');
    await page.getByRole('link', { name: 'welcome:EMAIL:en_US' }).waitFor();
    await page.getByLabel('Template code').fill('nothing');
    await page.getByRole('button', { name: 'Filter' }).click();
    await page.getByText('No template with the code nothing.').waitFor();
    await page.getByLabel('Template code').fill('welcome');
    await page.getByRole('button', { name: 'Filter' }).click();
    await page.getByRole('link', { name: 'welcome:EMAIL:en_US' }).waitFor();
    await look(page, 'hub-templates');
    await page.getByRole('link', { name: 'welcome:EMAIL:en_US' }).click();
    await heading('welcome:EMAIL:en_US').waitFor();
    await page.getByRole('button', { name: 'Delete', exact: true }).click();
    const del = page.getByRole('dialog', { name: 'Delete the template welcome:EMAIL:en_US?' });
    await del.getByRole('button', { name: 'Delete template' }).click();
    await heading('Templates').waitFor();
    assert.is((await hub('/templates/welcome:EMAIL:en_US')).status, 404);
  });

  test('unknown ids: the detail pages say so with the API code', async () => {
    await page.goto(`${p.base}/portal/hub/delivery-services/nothing-here`);
    await page.getByText('The delivery service could not be loaded').waitFor();
    await page.getByText('DELIVERY_SERVICE.NOT_FOUND').waitFor();
    await look(page, 'hub-delivery-service-unknown');
    await page.goto(`${p.base}/portal/hub/templates/nothing:EMAIL:en_US`);
    await page.getByText('The template could not be loaded').waitFor();
    await page.getByText('TEMPLATE.NOT_FOUND').waitFor();
    await look(page, 'hub-template-unknown');
  });

  test('no serious or critical accessibility violation, nothing refused by the CSP, no page error', () => {
    assert.equal(problems, []);
    assert.equal(refusals, []);
  });

  test.after(async () => {
    await context.close();
    await browser.close();
    await p.stop();
  });

  test.run();
}
