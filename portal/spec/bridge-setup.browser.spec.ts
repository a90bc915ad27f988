// The event bridge's set-up pages as the demo admin uses them, in Debian's headless Chromium: a custom bus
// created, a source registered on it and edited, another bus deleted, a rule written in the rule editor (the pattern's error from the
// API's own validation shown as it is typed and gone once fixed, the sample event's Match and No match,
// the conversion's preview) with an API-destination target to a real loopback receiver; an event
// published through the portal's proxy reaches the receiver converted; a platform rule opted out and in
// again. Every page visited is scanned by axe-core and photographed at 1280 and 390 px.
import { existsSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, Page } from 'playwright-core';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { CHROMIUM } from './browser-kit.ts';

if (!existsSync(CHROMIUM)) {
  console.log('SKIPPED: the bridge set-up pages in Chromium (install the chromium package)');
} else {
  await run();
}

async function run() {
  const { ensurePortalBuilt, launchChromium, review } = await import('./browser-kit.ts');
  const { ADMIN, portalApi, portalSignIn, startPortalPlatform } = await import(
    '../../spec/http/portal/portal-harness.ts'
  );
  const E = '/api/platform/platform-pub/eventBridge';

  // the receiver the rule delivers to: a real HTTP server on loopback, which the bridge may call because
  // OUTBOUND_ALLOW names 127.0.0.1 (its SSRF guard refuses loopback otherwise)
  const received: Array<{ path: string; body: string }> = [];
  const receiver: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      received.push({ path: req.url ?? '', body });
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/orders`;

  ensurePortalBuilt();
  const p = await startPortalPlatform({ env: { OUTBOUND_ALLOW: '127.0.0.1', DELIVERY_POLL_MS: '20' } });
  const browser: Browser = await launchChromium();
  const { jar } = await portalSignIn(p.base);
  const json = (body: unknown): RequestInit => ({
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  // connections and API destinations have pages of their own; the rule editor offers the ones that exist
  const destination = await portalApi(
    p.base,
    jar,
    `${E}/admin/v1/api-destinations`,
    json({ name: 'order-receiver', url: receiverUrl, method: 'POST' }),
  );
  if (destination.status !== 201) throw new Error(`the destination: ${destination.status} ${await destination.text()}`);

  const problems: string[] = [];
  const reports: string[] = [];
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  context.setDefaultTimeout(10_000);
  const page: Page = await context.newPage();
  page.on('console', (m) => {
    if (/Content Security Policy|Refused to/i.test(m.text())) reports.push(m.text());
  });
  page.on('pageerror', (e) => reports.push(`page error: ${e.message}`));
  const look = async (name: string) => {
    await page.waitForLoadState('networkidle');
    problems.push(...(await review(page, name)));
  };
  /** replaces a CodeMirror editor's text by typing, as a person would */
  const typeInto = async (label: string, text: string) => {
    const editor = page.getByRole('textbox', { name: label, exact: true });
    await editor.click();
    await page.keyboard.press('ControlOrMeta+a');
    await page.keyboard.press('Delete');
    await page.keyboard.type(text);
  };

  const test = suite('the bridge set-up pages in Chromium');

  test.before(async () => {
    await page.goto(`${p.base}/portal/bridge`);
    await page.getByLabel('Tenant').fill(ADMIN.tenant);
    await page.getByRole('button', { name: 'Continue to sign-in' }).click();
    await page.waitForURL((u) => u.pathname === '/cas/oidc/authorize');
    await page.getByLabel('Username').fill(ADMIN.username);
    await page.getByLabel('Password').fill(ADMIN.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL((u) => u.pathname === '/portal/bridge');
  });

  test('a custom bus is created and its source registered with its event types', async () => {
    await page.getByRole('rowheader', { name: 'baseline-claim' }).waitFor();
    await look('bridge-buses');
    await page.getByRole('button', { name: 'Create bus' }).click();
    await page.getByRole('textbox', { name: 'Name', exact: true }).fill('orders');
    await page.getByLabel('Description').fill('Orders of the web shop');
    await page.getByRole('button', { name: 'Create bus' }).click();
    await page.waitForURL((u) => u.pathname === '/portal/bridge/buses/orders');
    await page.getByRole('heading', { level: 1, name: 'Bus orders' }).waitFor();
    await page.getByText('Orders of the web shop').waitFor();
    const tabs = page.getByRole('navigation', { name: 'Bus views' });
    assert.is(
      await tabs.getByRole('link', { name: 'Event Trace' }).getAttribute('href'),
      '/portal/bridge/buses/orders/trace',
    );

    await page.getByRole('button', { name: 'Register source' }).click();
    await page.getByLabel('Source name').fill('shop:orders');
    await page.getByLabel('Event types').fill('shop:Order:Placed\nshop:Order:Cancelled');
    await page.getByRole('button', { name: 'Register source' }).click();
    const row = page.getByRole('row', { name: /shop:orders/ });
    await row.waitFor();
    assert.match((await row.textContent()) ?? '', /shop:Order:Placed.*shop:Order:Cancelled/);
    await page.getByText('No rules yet.').waitFor();
    await look('bridge-bus');

    // editing registers the source again with what the form holds (the API's replace)
    await page.getByRole('button', { name: 'Edit shop:orders' }).click();
    assert.match(await page.getByLabel('Event types').inputValue(), /shop:Order:Placed\nshop:Order:Cancelled/);
    await page.getByLabel('Event types').fill('shop:Order:Placed');
    await page.getByRole('button', { name: 'Save source' }).click();
    await page.getByRole('button', { name: 'Save source' }).waitFor({ state: 'detached' });
    await page.getByRole('row', { name: /shop:orders/ }).waitFor();
    assert.not.match((await page.getByRole('row', { name: /shop:orders/ }).textContent()) ?? '', /Cancelled/);
  });

  test('a bus is deleted after a confirmation', async () => {
    await page.getByRole('navigation', { name: 'Areas' }).getByRole('link', { name: 'Event buses' }).click();
    await page.getByRole('button', { name: 'Create bus' }).click();
    await page.getByRole('textbox', { name: 'Name', exact: true }).fill('scratch');
    await page.getByRole('button', { name: 'Create bus' }).click();
    await page.getByRole('heading', { level: 1, name: 'Bus scratch' }).waitFor();
    await page.getByRole('button', { name: 'Delete bus' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
    await page.getByRole('heading', { level: 1, name: 'Event buses' }).waitFor();
    await page.getByRole('rowheader', { name: 'orders' }).waitFor();
    assert.is(await page.getByRole('rowheader', { name: 'scratch' }).count(), 0);
    // a platform bus is the platform administrators': a tenant admin is not offered its changes
    await page.getByRole('link', { name: 'platform-batch', exact: true }).click();
    await page.getByRole('heading', { level: 1, name: 'Bus platform-batch' }).waitFor();
    await page.getByRole('row', { name: /batchv2:job/ }).waitFor();
    assert.is(await page.getByRole('button', { name: 'Delete bus' }).count(), 0);
    assert.is(await page.getByRole('button', { name: 'Register source' }).count(), 0);
    await page.getByRole('navigation', { name: 'Areas' }).getByRole('link', { name: 'Event buses' }).click();
    await page.getByRole('link', { name: 'orders', exact: true }).click();
    await page.getByRole('heading', { level: 1, name: 'Bus orders' }).waitFor();
  });

  test('the rule editor: the API pattern error as typed, Match and No match, the conversion preview', async () => {
    await page.getByRole('link', { name: 'New rule' }).click();
    await page.waitForURL((u) => u.pathname === '/portal/bridge/buses/orders/rules/new');
    await page.getByRole('heading', { level: 1, name: 'New rule' }).waitFor();
    await page.getByRole('textbox', { name: 'Name', exact: true }).fill('Orders to the receiver');
    await page.getByLabel('Rule id').fill('orders-to-receiver');

    // a pattern the API refuses: its own code and message appear under the editor, and go once fixed
    await typeInto('Event pattern', '{"source": ["shop:orders"], "data": {"amount": [{"numeric": [">", "x"]}]}}');
    const problem = page.locator('[data-code="PATTERN.INVALID"]');
    await problem.waitFor();
    assert.match((await problem.textContent()) ?? '', /PATTERN\.INVALID.*Invalid pattern at data\.amount\[0\]/);
    assert.ok(await page.locator('.cm-lintRange-error').count(), 'the problem is marked in the text');
    await typeInto('Event pattern', '{"source": ["shop:orders"], "data": {"amount": [{"numeric": [">", 100]}]}}');
    await page.getByText('The pattern is valid.').waitFor();
    assert.is(await problem.count(), 0, 'the message is gone once the pattern is fixed');

    // the sample event (amount 120) matches; 80 does not
    const result = page
      .getByRole('status')
      .filter({ hasText: /Match|No match|Testing|Waiting/ })
      .first();
    await page.getByText('Match', { exact: true }).waitFor();
    const sample = await page.getByRole('textbox', { name: 'Sample event' }).textContent();
    await typeInto('Sample event', (sample ?? '').replace('"amount": 120', '"amount": 80'));
    await page.getByText('No match', { exact: true }).waitFor();
    assert.match((await result.textContent()) ?? '', /No match/);
    await typeInto('Sample event', (sample ?? '').replace(/\s+/g, ' '));
    await page.getByText('Match', { exact: true }).waitFor();

    // the target: the API destination, its body by a template, previewed for the sample
    const target = page.getByRole('group', { name: /Target 1/ });
    await target.getByLabel('Target type').selectOption({ label: 'API destination' });
    await target.getByRole('combobox', { name: 'NAME', exact: true }).selectOption('order-receiver');
    await target.getByLabel('Conversion', { exact: true }).selectOption('template');
    await target
      .getByLabel('Variables (JSON)', { exact: true })
      .fill('{"order": "$.data.orderId", "amount": "$.data.amount"}');
    await target.getByLabel('Template', { exact: true }).fill('{"order":"${order}","amount":${amount}}');
    const preview = target.locator('.preview-body');
    await preview.waitFor();
    await page.waitForFunction(() => document.querySelector('.preview-body')?.textContent?.includes('"A-1"'));
    assert.equal(JSON.parse((await preview.textContent()) ?? ''), { order: 'A-1', amount: 120 });
    // JSONPath that matches nothing: the delivery's own message
    await target.getByLabel('Conversion', { exact: true }).selectOption('partial');
    await target.getByLabel('JSONPath', { exact: true }).fill('$.data.nothing');
    await target.getByText('Does not convert: JSONPath $.data.nothing: path matched nothing').waitFor();
    await target.getByLabel('Conversion', { exact: true }).selectOption('template');
    await target.locator('.preview-body').waitFor();

    // up to five targets: the sixth is not offered
    for (let i = 0; i < 4; i++) await page.getByRole('button', { name: 'Add target' }).click();
    assert.is(await page.getByRole('button', { name: 'Add target' }).count(), 0);
    await page.getByText('A rule has at most 5 targets.').waitFor();
    for (let i = 5; i >= 2; i--) await page.getByRole('button', { name: `Remove target ${i}` }).click();
    await look('bridge-rule-editor');

    // a refused save keeps every input and marks the field the API names
    const name = page.getByRole('textbox', { name: 'Name', exact: true });
    await name.fill('');
    await page.getByRole('button', { name: 'Create rule' }).click();
    await page.waitForFunction(() => document.activeElement?.getAttribute('aria-invalid') === 'true');
    assert.is(await name.getAttribute('aria-invalid'), 'true');
    assert.match((await page.getByRole('alert').first().textContent()) ?? '', /REQUEST\.INVALID/);
    assert.match(
      (await page.getByRole('textbox', { name: 'Event pattern', exact: true }).textContent()) ?? '',
      /numeric/,
    );
    assert.is(await target.getByRole('combobox', { name: 'NAME', exact: true }).inputValue(), 'order-receiver');
    await name.fill('Orders to the receiver');
    await page.getByRole('button', { name: 'Create rule' }).click();
    await page.waitForURL((u) => u.pathname === '/portal/bridge/rules/orders-to-receiver');
    await page.getByRole('heading', { level: 1, name: 'Orders to the receiver' }).waitFor();
    await page.getByText('The pattern is valid.').waitFor();
  });

  test('an event published on the bus reaches the loopback receiver, converted', async () => {
    const event = {
      id: 'o-1',
      source: 'shop:orders',
      type: 'shop:Order:Placed',
      time: '2026-01-01T10:00:00',
      dataContentType: 'application/json',
      eventBusName: 'orders',
      data: { orderId: 'A-7', amount: 250 },
    };
    const put = await portalApi(p.base, jar, `${E}/event/v1/putEvent`, json(event));
    assert.is(put.status, 200, await put.clone().text());
    const small = await portalApi(
      p.base,
      jar,
      `${E}/event/v1/putEvent`,
      json({ ...event, id: 'o-2', data: { orderId: 'A-8', amount: 5 } }),
    );
    assert.is(small.status, 200);
    const deadline = Date.now() + 15_000;
    while (received.length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    assert.is(received.length, 1, 'one delivery: the small order does not match');
    assert.is(received[0]!.path, '/orders');
    assert.equal(JSON.parse(received[0]!.body), { order: 'A-7', amount: 250 });
  });

  test('the rule is changed, disabled and enabled again; it is listed on its bus and among all rules', async () => {
    await page.getByRole('textbox', { name: 'Description', exact: true }).fill('Big orders only');
    await page.getByRole('button', { name: 'Save rule' }).click();
    await page.getByText('Rule saved').waitFor();
    const saved = await portalApi(p.base, jar, `${E}/admin/v1/rules/orders-to-receiver`);
    const rule = (await saved.json()) as { description: string; targets: Array<{ conversion: { kind: string } }> };
    assert.is(rule.description, 'Big orders only');
    assert.is(rule.targets[0]!.conversion.kind, 'template', 'the target is kept as it was');
    await page.getByRole('button', { name: 'Disable rule' }).click();
    await page.getByRole('button', { name: 'Enable rule' }).waitFor();
    await page.getByRole('button', { name: 'Enable rule' }).click();
    await page.getByRole('button', { name: 'Disable rule' }).waitFor();
    await page.getByRole('link', { name: 'orders', exact: true }).click();
    await page.getByRole('rowheader', { name: 'Orders to the receiver' }).waitFor();
    await page.getByRole('navigation', { name: 'Areas' }).getByRole('link', { name: 'Rules', exact: true }).click();
    await page.getByRole('heading', { level: 1, name: 'Rules' }).waitFor();
    const row = page.getByRole('row', { name: /Orders to the receiver/ });
    await row.waitFor();
    assert.match((await row.textContent()) ?? '', /orders-to-receiver.*orders.*API destination.*Enabled/);
    await look('bridge-rules');
  });

  test('platform rules: the tenant opts out and in again', async () => {
    await page.getByRole('navigation', { name: 'Areas' }).getByRole('link', { name: 'Platform rules' }).click();
    await page.waitForURL((u) => u.pathname === '/portal/bridge/platform-rules');
    const row = page.getByRole('row', { name: /platform-batch-job-alert|Applies/ }).first();
    await row.getByRole('button', { name: /Opt out of/ }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('button', { name: 'Opt out' }).click();
    await page.getByRole('cell', { name: /Opted out since/ }).waitFor();
    await look('bridge-platform-rules');
    const state = await portalApi(p.base, jar, `${E}/admin/v1/platform-rules`);
    assert.ok(((await state.json()) as { items: Array<{ optedOut: boolean }> }).items.some((r) => r.optedOut));
    await page.getByRole('button', { name: /Opt in to/ }).click();
    await page.getByRole('cell', { name: 'Applies' }).waitFor();
  });

  test('no serious or critical accessibility problem, nothing the CSP refused', () => {
    assert.equal(problems, []);
    assert.equal(reports, []);
  });

  test.after(async () => {
    await browser.close();
    await p.stop();
    await new Promise((r) => receiver.close(r));
  });

  test.run();
}
