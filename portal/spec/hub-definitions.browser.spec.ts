// The Notification hub's context definitions, definitions, delivery rules and snapshots in Debian's
// headless Chromium: a context definition is made through its form and the extraction and masking
// preview of its sample payload shows the sensitive fields masked (a bad alias path refused beside its
// field first); a definition version and a delivery rule are made through their forms (an invalid FEEL
// condition refused with its reason beside the field, fixed, saved) and the unsaved rule previewed; after
// a send through the API (to a loopback receiver) the version lists its snapshot, which opens with its
// notification, followed to its message's timeline (the attempt, the receiver's acceptance). Every page is scanned by axe-core and photographed at 1280 and 390 px; nothing may be
// refused by the CSP.
import { existsSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, Page } from 'playwright-core';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { CHROMIUM } from './browser-kit.ts';

if (!existsSync(CHROMIUM)) {
  console.log('SKIPPED: the hub definitions pages in Chromium (install the chromium package)');
} else {
  await run();
}

async function run() {
  const { ensurePortalBuilt, launchChromium, review } = await import('./browser-kit.ts');
  const { ADMIN, portalApi, portalSignIn, startPortalPlatform } = await import(
    '../../spec/http/portal/portal-harness.ts'
  );
  const { eventually } = await import('../../spec/core/eventually.ts');

  // the receiver the delivery service posts to: it takes every message
  const received: string[] = [];
  const receiver = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => {
      body += c.toString('utf8');
    });
    req.on('end', () => {
      received.push(body);
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/notify`;

  ensurePortalBuilt();
  const p = await startPortalPlatform({ env: { OUTBOUND_ALLOW: '127.0.0.1' } });
  const browser: Browser = await launchChromium();
  const { jar } = await portalSignIn(p.base);
  const hub = async (method: string, path: string, body?: unknown) => {
    const res = await portalApi(p.base, jar, `/comm/v1${path}`, {
      method,
      ...(body !== undefined && { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
    });
    const text = await res.text();
    return { status: res.status, body: text === '' ? null : JSON.parse(text) };
  };

  const problems: string[] = [];
  const refusals: string[] = [];
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  context.setDefaultTimeout(15_000);
  const page: Page = await context.newPage();
  page.on('console', (m) => {
    if (/Content Security Policy|Refused to/i.test(m.text())) refusals.push(m.text());
  });
  page.on('pageerror', (e) => refusals.push(`page error: ${e.message}`));
  const look = async (name: string) => {
    await page.waitForLoadState('networkidle');
    problems.push(...(await review(page, name)));
  };
  /** the control of exactly this label (a required field's label ends in its marker, " *") */
  const byLabel = (label: string) =>
    page.getByLabel(new RegExp(`^${label.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}( \\*)?$`));
  /** replaces a CodeMirror editor's text by typing, as a person would */
  const typeInto = async (label: string, text: string) => {
    await page.getByRole('textbox', { name: label, exact: true }).click();
    await page.keyboard.press('ControlOrMeta+a');
    await page.keyboard.press('Delete');
    await page.keyboard.type(text);
  };
  const sample = {
    policyNo: 'P-7',
    customer: { id: 'C-7', name: 'Jane Roe', email: 'jane@example.com' },
  };

  const test = suite('the hub definitions pages in Chromium');

  test.before(async () => {
    // the channel, delivery service and template the rule names, through the API
    for (const [path, body] of [
      ['/channels', { Code: 'EMAIL' }],
      [
        '/delivery-services',
        {
          ServiceId: 'mail-e2e',
          DriverType: 'REST_WEBHOOK',
          Channel: 'EMAIL',
          Settings: { Url: receiverUrl, SupportedChannels: ['EMAIL'], SupportedContentTypes: ['TEXT'] },
          ReceiptMode: 'ACCEPTANCE_ONLY',
        },
      ],
      [
        '/templates',
        {
          TemplateCode: 'welcome',
          Channel: 'EMAIL',
          LanguageId: 'en_US',
          ContentType: 'TEXT',
          Subject: 'Policy ${PolicyNo}',
          Body: 'Dear ${Name}',
          Status: 'ACTIVE',
        },
      ],
    ] as const) {
      const r = await hub('POST', path, body);
      assert.is(r.status, 201, `${path}: ${JSON.stringify(r.body)}`);
    }
    await page.goto(`${p.base}/portal/hub/context-definitions`);
    await page.getByRole('button', { name: 'Continue to sign-in' }).click();
    await page.waitForURL((u) => u.pathname === '/cas/oidc/authorize');
    await page.getByLabel('Username').fill(ADMIN.username);
    await page.getByLabel('Password').fill(ADMIN.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { level: 1, name: 'Context definitions' }).waitFor();
  });

  test('a context definition made through the form previews its sample extracted and masked', async () => {
    await page.getByText('No context definitions yet.').waitFor();
    await page.getByRole('link', { name: 'New context definition' }).click();
    await page.getByRole('heading', { level: 1, name: 'New context definition' }).waitFor();
    await byLabel('Id').fill('welcome-ctx');
    await byLabel('Name').fill('Welcome letters');
    await page.getByRole('button', { name: 'Add alias' }).click();
    await byLabel('Alias 1').fill('customer');
    // a path that does not parse: the preview's refusal is shown beside the alias's path
    await byLabel('JSONPath of alias 1').fill('$.customer[');
    const aliasPath = byLabel('JSONPath of alias 1');
    await eventually(async () => (await aliasPath.getAttribute('aria-invalid')) === 'true', 'the bad path marked');
    const aliasError = await page.locator('.hd-row', { has: aliasPath }).locator('.field-error').textContent();
    assert.ok((aliasError ?? '').length > 0, 'the reason is beside the field');
    await aliasPath.fill('$.customer');
    for (const [i, [name, source]] of [
      ['Name', 'Context.customer.name'],
      ['Email', 'Context.customer.email'],
      ['CustomerId', 'Context.customer.id'],
      ['PolicyNo', 'Payload.policyNo'],
    ].entries()) {
      await page.getByRole('button', { name: 'Add variable' }).click();
      await byLabel(`Variable ${i + 1}`).fill(name!);
      await byLabel(`Source of variable ${i + 1}`).fill(source!);
    }
    await page.getByRole('button', { name: 'Add sensitive field' }).click();
    await byLabel('Sensitive field 1 path').fill('$.customer.email');
    await byLabel('Sensitive field 1 method').selectOption('EMAIL');
    await page.getByRole('button', { name: 'Add sensitive field' }).click();
    await byLabel('Sensitive field 2 path').fill('Context.customer.name');
    await byLabel('Sensitive field 2 method').selectOption('NAME');
    await typeInto('Sample payload', JSON.stringify(sample));

    // the extraction: every variable with its source, the sensitive ones masked
    const variables = page.getByRole('table', { name: 'Extracted variables' });
    const emailRow = variables.getByRole('row').filter({ hasText: 'Context.customer.email' });
    await emailRow.getByText('masked', { exact: true }).waitFor();
    const shownEmail = (await emailRow.locator('td').nth(1).textContent()) ?? '';
    assert.not.match(shownEmail, /jane@example\.com/);
    assert.match(shownEmail, /@example\.com/);
    await variables.getByRole('row').filter({ hasText: 'P-7' }).waitFor();
    const maskedPayload = page.getByTestId('masked-payload');
    await eventually(async () => /J\*+ R\*+/.test((await maskedPayload.textContent()) ?? ''), 'the name masked');
    assert.not.match((await maskedPayload.textContent()) ?? '', /jane@example\.com|Jane Roe/);
    // each sensitive field masked alone (previewMasking), beside its row
    await eventually(
      async () =>
        /Sample jane@example\.com → masked j\*+@example\.com/.test(
          (await page.getByTestId('mask-preview-1').textContent()) ?? '',
        ),
      'the email field masked alone',
    );
    await page.getByTestId('mask-preview-2').getByText('Jane Roe').waitFor();
    await look('hub-context-definition');

    await page.getByRole('button', { name: 'Create context definition' }).click();
    await page.getByRole('heading', { level: 1, name: 'Context definition welcome-ctx' }).waitFor();
    assert.is(await byLabel('Variable 4').inputValue(), 'PolicyNo', 'the saved definition is shown');
    await page.getByRole('link', { name: 'All context definitions' }).click();
    await page.getByRole('heading', { level: 1, name: 'Context definitions' }).waitFor();
    await page.getByRole('link', { name: 'welcome-ctx' }).waitFor();
    await look('hub-context-definitions');
  });

  test('a version and a delivery rule through their forms: the FEEL refusal beside its field, the preview', async () => {
    // the hub's entry (the workflow's navigation has a Definitions too)
    await page.locator('a.nav-link[href="/portal/hub/definitions"]').click();
    await page.getByRole('heading', { level: 1, name: 'Definitions' }).waitFor();
    await page.getByText('No definitions yet').waitFor();
    await page.getByRole('link', { name: 'New definition' }).click();
    await page.getByRole('heading', { level: 1, name: 'New definition' }).waitFor();
    await byLabel('Notification code').fill('welcome');
    await byLabel('Effective from').fill('2020-01-01T00:00:00Z');
    await byLabel('Context definition').selectOption('welcome-ctx');
    await byLabel('Default language').fill('en_US');
    // no customer preference is stored: the version bypasses them, so that the send reaches the receiver
    await byLabel('Preference policy').selectOption('BYPASS');
    await page.getByRole('button', { name: 'Create version' }).click();
    await page.getByRole('heading', { level: 1, name: 'welcome v1' }).waitFor();
    await page.getByText('No rules yet').waitFor();

    await page.getByRole('button', { name: 'New rule' }).click();
    // the service, channel and template set up through the API are offered as they are typed
    await eventually(
      async () =>
        (await page.locator('datalist option[value="mail-e2e"], datalist option[value="welcome"]').count()) === 2,
      'the suggestions',
    );
    await byLabel('Rule key').fill('email');
    await byLabel('Role').fill('Customer');
    await byLabel('Channel').fill('EMAIL');
    await byLabel('Identity variable').fill('CustomerId');
    await byLabel('Address variable').fill('Email');
    await byLabel('Condition (FEEL)').fill('PolicyNo = "P-7" and');
    await byLabel('Template code').fill('welcome');
    await byLabel('Delivery service').fill('mail-e2e');
    await page.getByRole('button', { name: 'Create rule' }).click();
    const condition = byLabel('Condition (FEEL)');
    await eventually(async () => (await condition.getAttribute('aria-invalid')) === 'true', 'the condition marked');
    const why = page.locator('.field', { has: condition }).locator('.field-error');
    assert.ok(((await why.textContent()) ?? '').length > 0, 'the reason is beside the condition');
    assert.match((await page.locator('.form-summary').textContent()) ?? '', /DELIVERY_RULE\.CONDITION_INVALID/);
    assert.is(await byLabel('Template code').inputValue(), 'welcome', 'the input is kept');
    await look('hub-definition-rule-refused');

    await condition.fill('PolicyNo = "P-7"');
    // the rule previewed unsaved, on the context's own sample
    await page.getByRole('button', { name: 'Preview rule' }).click();
    const preview = page.getByTestId('rule-preview');
    await preview.getByText('matched', { exact: true }).waitFor();
    assert.match((await preview.textContent()) ?? '', /OutcomePLANNED/);
    assert.match((await preview.textContent()) ?? '', /j\*+@example\.com/);
    assert.not.match((await preview.textContent()) ?? '', /jane@example\.com/);
    await look('hub-definition-rule-preview');

    await page.getByRole('button', { name: 'Create rule' }).click();
    const rules = page.getByRole('table', { name: 'Rules of welcome:1' });
    await rules.getByRole('rowheader', { name: 'email' }).waitFor();
    assert.match((await rules.textContent()) ?? '', /PolicyNo = "P-7"/);
  });

  test('after a send, the version lists its snapshot, which opens with its notification, and its message’s timeline', async () => {
    const sent = await hub('POST', '/notifications/send', {
      RequestId: 'r-defs-1',
      NotificationCode: 'welcome',
      Payload: sample,
    });
    assert.is(sent.status, 201, JSON.stringify(sent.body));
    const { SnapshotId, NotificationId } = sent.body as { SnapshotId: string; NotificationId: string };
    await eventually(() => received.length > 0, 'the receiver got the message');

    // the snapshot listing is a read model: read the page again until it is there
    const link = page.getByRole('link', { name: SnapshotId });
    await eventually(async () => {
      await page.reload();
      await page.getByRole('heading', { level: 1, name: 'welcome v1' }).waitFor();
      await page.getByRole('table', { name: 'Snapshots of welcome:1' }).getByRole('row').nth(1).waitFor();
      return (await link.count()) > 0;
    }, 'the snapshot listed');
    await look('hub-definition');

    await link.click();
    await page.getByRole('heading', { level: 1, name: `Snapshot ${SnapshotId}` }).waitFor();
    const uses = page.getByRole('table', { name: 'Notifications accepted with this snapshot' });
    const notification = uses.getByRole('link', { name: NotificationId });
    await notification.waitFor();
    assert.is(await notification.getAttribute('href'), `/portal/hub/notifications/${NotificationId}`);
    await page
      .getByRole('table', { name: 'Captured rules' })
      .getByRole('rowheader', { name: 'welcome:1:email' })
      .waitFor();
    await page.getByRole('table', { name: 'Captured delivery services' }).getByText('mail-e2e').waitFor();
    await look('hub-snapshot');

    // the send configured through these forms, followed to its message's timeline
    await notification.click();
    await page.getByRole('heading', { level: 1, name: `Notification ${NotificationId}` }).waitFor();
    await page.getByRole('link', { name: `${NotificationId}.m1` }).click();
    await page.getByRole('heading', { level: 1, name: `Message ${NotificationId}.m1` }).waitFor();
    const timeline = page.getByRole('region', { name: 'Message timeline' });
    await timeline.locator('tr[data-type="AttemptStarted"]').waitFor();
    await timeline.locator('tr[data-type="MessageAccepted"]').waitFor();
  });

  test('a version overlapping an enabled one is refused beside its window; disabled it is kept and drawn', async () => {
    await page.goto(`${p.base}/portal/hub/definitions`);
    await page.getByRole('heading', { level: 1, name: 'Definitions' }).waitFor();
    await page.getByRole('link', { name: 'New version of welcome' }).click();
    await page.getByRole('heading', { level: 1, name: 'New version of welcome' }).waitFor();
    assert.is(await byLabel('Notification code').inputValue(), 'welcome', 'the code comes with the link');
    await byLabel('Effective from').fill('2031-01-01T00:00:00Z');
    await byLabel('Context definition').selectOption('welcome-ctx');
    await page.getByRole('button', { name: 'Create version' }).click();
    const start = byLabel('Effective from');
    await eventually(async () => (await start.getAttribute('aria-invalid')) === 'true', 'the window marked');
    assert.match(
      (await page.locator('.field', { has: start }).locator('.field-error').textContent()) ?? '',
      /overlaps enabled version welcome:1/,
    );
    assert.match((await page.locator('.form-summary').textContent()) ?? '', /DEFINITION\.OVERLAP/);
    await look('hub-definition-overlap');
    await byLabel('Enabled (selectable)').uncheck();
    await page.getByRole('button', { name: 'Create version' }).click();
    await page.getByRole('heading', { level: 1, name: 'welcome v2' }).waitFor();

    await page.locator('a.nav-link[href="/portal/hub/definitions"]').click();
    await page.getByRole('heading', { level: 1, name: 'Definitions' }).waitFor();
    const versions = page.getByRole('table', { name: 'Versions of welcome' });
    await eventually(async () => {
      if ((await versions.getByRole('link', { name: 'v2 of welcome' }).count()) > 0) return true;
      await page.reload();
      await page.getByRole('heading', { level: 1, name: 'Definitions' }).waitFor();
      return false;
    }, 'v2 listed');
    assert.is(await page.getByTestId('definition-timeline').locator('.hd-bar').count(), 2);
    assert.is(await page.getByTestId('definition-timeline').locator('.hd-bar-disabled').count(), 1);
    await look('hub-definitions');
  });

  test('a version and its rule edited in place; deleting a version says its rules go with it', async () => {
    const versions = page.getByRole('table', { name: 'Versions of welcome' });
    await versions.getByRole('link', { name: 'v1 of welcome' }).click();
    await page.getByRole('heading', { level: 1, name: 'welcome v1' }).waitFor();
    const rules = page.getByRole('table', { name: 'Rules of welcome:1' });
    await rules.getByRole('rowheader', { name: 'email' }).waitFor();

    await page.getByRole('button', { name: 'Edit version' }).click();
    await byLabel('Description').fill('Welcome letters to new customers');
    await page.getByRole('button', { name: 'Save version' }).click();
    await page.getByText('Welcome letters to new customers').waitFor();
    assert.is((await hub('GET', '/definitions/welcome:1')).body.Description, 'Welcome letters to new customers');
    await page.getByRole('button', { name: 'Edit rule email' }).click();
    await byLabel('Order').fill('3');
    await page.getByRole('button', { name: 'Save rule' }).click();
    await rules
      .getByRole('row')
      .filter({ hasText: 'Customer' })
      .getByRole('cell', { name: '3', exact: true })
      .waitFor();
    assert.is((await hub('GET', '/delivery-rules/welcome:1:email')).body.OrderNo, 3);
    await page.getByRole('button', { name: 'Delete version' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete welcome:1?' });
    assert.match((await dialog.textContent()) ?? '', /deletes its 1 delivery rule with it/);
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'detached' });

    await page.goto(`${p.base}/portal/hub/definitions/welcome:2`);
    await page.getByRole('heading', { level: 1, name: 'welcome v2' }).waitFor();
    await page.getByText('No rules yet').waitFor();
    await page.getByRole('button', { name: 'Delete version' }).click();
    const second = page.getByRole('dialog', { name: 'Delete welcome:2?' });
    assert.match((await second.textContent()) ?? '', /deletes its 0 delivery rules with it/);
    await second.getByRole('button', { name: 'Delete version and rules' }).click();
    await page.getByRole('heading', { level: 1, name: 'Definitions' }).waitFor();
    assert.is((await hub('GET', '/definitions/welcome:2')).status, 404);
  });

  test('a context definition is deleted behind a confirmation', async () => {
    await page.goto(`${p.base}/portal/hub/context-definitions/welcome-ctx`);
    await page.getByRole('heading', { level: 1, name: 'Context definition welcome-ctx' }).waitFor();
    await page.getByRole('button', { name: 'Delete', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete context definition welcome-ctx?' });
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'detached' });
    assert.is((await hub('GET', '/context-definitions/welcome-ctx')).status, 200, 'a cancel keeps it');
    await page.getByRole('button', { name: 'Delete', exact: true }).click();
    await dialog.getByRole('button', { name: 'Delete' }).click();
    await page.getByRole('heading', { level: 1, name: 'Context definitions' }).waitFor();
    assert.is((await hub('GET', '/context-definitions/welcome-ctx')).status, 404);
  });

  test('no serious or critical accessibility violation, nothing refused by the CSP, no page error', () => {
    assert.equal(problems, []);
    assert.equal(refusals, []);
  });

  test.after(async () => {
    await context.close();
    await browser.close();
    await p.stop();
    await new Promise<void>((resolve) => receiver.close(() => resolve()));
  });

  test.run();
}
