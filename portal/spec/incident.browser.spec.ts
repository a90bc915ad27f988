// The incident view in Debian's headless Chromium, against the whole platform and a real HTTP receiver on
// loopback: under one correlation id a bridge event is published to a rule that delivers it to the
// receiver, an audit record is written and an application is registered; the view shows the events of
// each service in one timeline, folds the state after one, and its ids open the other areas' pages. A
// connection's secret shows sealed, never in clear. Scanned by axe-core, photographed at 1280 and 390 px.
import { existsSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser } from 'playwright-core';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { CHROMIUM } from './browser-kit.ts';

if (!existsSync(CHROMIUM)) {
  console.log('SKIPPED: the incident view in Chromium (install the chromium package)');
} else {
  await run();
}

async function run() {
  const { ensurePortalBuilt, launchChromium, review, watchedPage } = await import('./browser-kit.ts');
  const { ADMIN, portalApi, portalSignIn, startPortalPlatform } = await import(
    '../../spec/http/portal/portal-harness.ts'
  );
  const { eventually } = await import('../../spec/core/eventually.ts');

  let delivered = 0;
  const receiver: Server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      delivered++;
      res.end();
    });
  });
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
  const hook = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;

  ensurePortalBuilt();
  const p = await startPortalPlatform({
    env: { SERVICE_REGISTRY: `receiver=${hook}`, OUTBOUND_ALLOW: '127.0.0.1', DELIVERY_POLL_MS: '50' },
  });
  const browser: Browser = await launchChromium();

  const CORRELATION = 'incident-browser-1';
  const SECRET = 'incident-browser-api-key';
  const B = '/api/platform/platform-pub/eventBridge';
  const { jar } = await portalSignIn(p.base);
  /** the portal's own API proxy as the demo admin, the incident's correlation id on every request */
  const must = async (method: string, path: string, body?: unknown) => {
    const r = await portalApi(p.base, jar, path, {
      method,
      headers: { 'x-correlation-id': CORRELATION, ...(body !== undefined && { 'content-type': 'application/json' }) },
      ...(body !== undefined && { body: JSON.stringify(body) }),
    });
    const text = await r.text();
    if (r.status >= 300) throw new Error(`${method} ${path} answered ${r.status}: ${text}`);
    return text === '' ? undefined : JSON.parse(text);
  };
  await must('POST', `${B}/admin/v1/buses`, { name: 'claims' });
  await must('POST', `${B}/admin/v1/rules`, {
    id: 'claims-to-receiver',
    bus: 'claims',
    name: 'claims to the receiver',
    pattern: { source: ['claims:intake'] },
    targets: [
      {
        Id: 1,
        TypeId: 3,
        ErrorTolerance: 'ALL',
        Params: [
          { ResourceKey: 'SERVICE_NAME', Form: 'CONSTANT', Value: 'receiver' },
          { ResourceKey: 'BODY', Form: 'ORIGINAL', Value: '' },
        ],
      },
    ],
  });
  const published = await must('POST', `${B}/event/v1/putEvent`, {
    id: 'claim-1',
    source: 'claims:intake',
    type: 'claims:Claim:Filed',
    subject: 'claims:eu',
    time: '2026-03-01T10:00:00',
    dataContentType: 'application/json',
    eventBusName: 'claims',
    data: { claimId: 1 },
  });
  const eventId = String(published.eventId);
  await must('POST', `${B}/admin/v1/connections`, {
    name: 'claims-api',
    auth: { kind: 'API_KEY', headerName: 'X-Api-Key', value: SECRET },
  });
  const V3 = '/api/platform/audit/1.0/audit/v3';
  await must('POST', `${V3}/modules`, { module_name: 'claims', description: 'Claims' });
  await must('POST', `${V3}/modules/claims/transactions`, {
    transaction_name: 'fileClaim',
    transaction_vendor: 'core',
  });
  const record = await must('POST', `${V3}/log/sync`, {
    transaction_name: 'fileClaim',
    transaction_vendor: 'core',
    business_code: 'ClaimNo:C-1',
    client_ip: '10.1.2.3',
    new_data: JSON.stringify({ amount: 100 }),
    old_data: '',
    warning_type: 'INFO',
    tags: ['web'],
  });
  const client = await must('POST', '/cas/admin/v1/clients', {
    grant_type: 'client_credentials',
    default_user: ADMIN.username,
    scopes: ['openid'],
  });
  await eventually(() => delivered >= 1, { timeoutMs: 15_000 });

  const {
    page,
    problems,
    refusals: pageErrors,
  } = await watchedPage(browser, { viewport: { width: 1280, height: 800 }, timezoneId: 'UTC' });
  const timeline = () => page.getByRole('region', { name: 'Timeline' });

  const test = suite('the incident view in Chromium');

  test.after(async () => {
    await browser.close();
    await p.stop();
    await new Promise((r) => receiver.close(r));
  });

  test('one timeline across the services for a correlation id, secrets sealed', async () => {
    await page.goto(`${p.base}/portal/operations/incident`);
    await page.getByRole('button', { name: 'Continue to sign-in' }).click();
    await page.waitForURL((u) => u.pathname === '/cas/oidc/authorize');
    await page.getByLabel('Username').fill(ADMIN.username);
    await page.getByLabel('Password').fill(ADMIN.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { level: 1, name: 'Incident view' }).waitFor();

    // by keyboard: the refusal of an empty id stays on the form, its field marked
    const id = page.getByRole('textbox', { name: 'Correlation id' });
    await id.focus();
    await page.keyboard.press('Enter');
    await page.locator('[aria-invalid="true"]').first().waitFor();
    await id.fill(CORRELATION);
    await page.keyboard.press('Enter');
    await timeline().locator('tbody tr:not(.skeleton-row) th').first().waitFor();
    assert.is(new URL(page.url()).searchParams.get('correlation'), CORRELATION, 'the selection is in the URL');
    const text = (await timeline().textContent()) ?? '';
    for (const service of ['bridge', 'audit', 'identity'])
      assert.ok(
        (await timeline().locator(`.service-${service}`).count()) > 0,
        `an event of ${service} in the timeline`,
      );
    assert.match(text, /EventAccepted/);
    assert.match(text, /Delivery\w+/, 'the delivery to the receiver');
    assert.match(text, /AuditRecorded/);
    assert.match(text, /connection-demo\.claims-api@0/);
    assert.ok(text.includes('[sealed]'), 'the secret shows sealed');
    assert.not.ok(text.includes(SECRET), 'the secret never shows in clear');
    await page.waitForLoadState('networkidle');
    problems.push(...(await review(page, 'operations-incident')));
  });

  test('the state after an event, on demand and sealed', async () => {
    await page.getByRole('button', { name: 'State after connection-demo.claims-api@0' }).click();
    const state = page.locator('.state-json');
    await state.waitFor();
    const json = (await state.textContent()) ?? '';
    assert.match(json, /claims-api/);
    assert.ok(json.includes('[sealed]'), json);
    assert.not.ok(json.includes(SECRET));
    await page.getByText('After ConnectionCreated (revision 0):').waitFor();
    problems.push(...(await review(page, 'operations-incident-state')));
  });

  test('its ids open their pages in the other areas', async () => {
    const links = timeline().getByRole('link');
    const hrefs = await links.evaluateAll((as) => as.map((a) => a.getAttribute('href')));
    assert.ok(hrefs.includes(`/portal/bridge/trace/${eventId}`), hrefs.join());
    assert.ok(hrefs.includes(`/portal/audit/records/${record.id}`), hrefs.join());
    assert.ok(hrefs.includes(`/portal/sso/applications/${client.client_id}`), hrefs.join());
    assert.ok(hrefs.includes('/portal/bridge/rules/claims-to-receiver'), hrefs.join());
    await timeline()
      .getByRole('link', { name: `audit record ${record.id}` })
      .first()
      .click();
    await page.waitForURL((u) => u.pathname === `/portal/audit/records/${record.id}`);
    // the record's page, once the audit's query store has it
    await page.locator('main').getByText('ClaimNo:C-1').first().waitFor({ timeout: 15_000 });
  });

  test('a time window with a category, a refused window kept on the form, a correlation id followed', async () => {
    await page.goto(`${p.base}/portal/operations/incident`);
    await page.getByRole('heading', { level: 1, name: 'Incident view' }).waitFor();
    await page.getByRole('combobox', { name: 'Find by' }).selectOption('window');
    const from = page.getByRole('textbox', { name: 'From' });
    await from.fill('2026-12-31T00:00:00Z');
    await page.getByRole('textbox', { name: 'To' }).fill('2026-01-01T00:00:00Z');
    await page.getByRole('button', { name: 'Show timeline' }).click();
    await page.getByText('REQUEST.INVALID').first().waitFor();
    assert.is(await from.inputValue(), '2026-12-31T00:00:00Z', 'the input stays');
    assert.is(await from.getAttribute('aria-invalid'), 'true');
    await from.fill(new Date(Date.now() - 3_600_000).toISOString());
    await page.getByRole('textbox', { name: 'To' }).fill(new Date(Date.now() + 60_000).toISOString());
    await page.getByRole('textbox', { name: 'Category' }).fill('connection');
    await page.getByRole('button', { name: 'Show timeline' }).click();
    await timeline().getByText('connection-demo.claims-api@0').waitFor();
    const categories = await timeline()
      .locator('.incident-stream')
      .evaluateAll((cs) => cs.map((c) => (c.textContent ?? '').split('-')[0]));
    assert.ok(categories.length >= 1 && categories.every((c) => c === 'connection'), categories.join());
    // an event's correlation id opens the timeline of its request
    await timeline()
      .getByRole('link', { name: `request ${CORRELATION.slice(0, 8)}…` })
      .first()
      .click();
    await page.waitForURL((u) => u.searchParams.get('correlation') === CORRELATION);
    await timeline().locator('.service-audit').first().waitFor();
    assert.is(await page.getByRole('textbox', { name: 'Correlation id' }).inputValue(), CORRELATION);
  });

  test('no serious accessibility problem, no CSP refusal', () => {
    assert.equal(problems, []);
    assert.equal(pageErrors, []);
  });

  test.run();
}
