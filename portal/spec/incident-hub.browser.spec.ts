// The incident view across a hub send in Debian's headless Chromium, against the whole platform and a real
// webhook receiver on loopback that refuses every submission (400: a definite failure, no retry, no
// fallback). The hub's configuration is made through the portal's API proxy as the demo admin; the send
// carries a correlation id. The view shows, in one timeline, the hub's notification and message events and
// the bridge's dead-letter alert event, and the message's id opens its page in the hub area. Scanned by
// axe-core, photographed at 1280 and 390 px.
import { existsSync } from 'node:fs';
import type { Browser } from 'playwright-core';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { CHROMIUM } from './browser-kit.ts';

if (!existsSync(CHROMIUM)) {
  console.log('SKIPPED: the incident view across a hub send in Chromium (install the chromium package)');
} else {
  await run();
}

async function run() {
  const { ensurePortalBuilt, launchChromium, review, watchedPage } = await import('./browser-kit.ts');
  const { ADMIN, portalApi, portalSignIn, startPortalPlatform } = await import(
    '../../spec/http/portal/portal-harness.ts'
  );
  const { aSend, configure, HUB } = await import('../../spec/http/hub/hub-harness.ts');
  const { startWebhookReceiver } = await import('../../spec/http/hub/fixtures/webhook-receiver.ts');
  const { eventually } = await import('../../spec/core/eventually.ts');
  const { ALERT_TYPE } = await import('../../domain/hub/hub-alerts.constants.ts');

  const rx = await startWebhookReceiver(() => 400);
  ensurePortalBuilt();
  const p = await startPortalPlatform({ env: { OUTBOUND_ALLOW: '127.0.0.1' } });
  const browser: Browser = await launchChromium();
  const CORRELATION = 'incident-hub-send-1';
  const { jar } = await portalSignIn(p.base);
  /** the portal's API proxy as the demo admin, in the shape the hub's configuration helper calls */
  const call = async (method: string, path: string, o: { body?: unknown; headers?: Record<string, string> } = {}) => {
    const r = await portalApi(p.base, jar, path, {
      method,
      headers: { ...(o.body !== undefined && { 'content-type': 'application/json' }), ...o.headers },
      ...(o.body !== undefined && { body: JSON.stringify(o.body) }),
    });
    const text = await r.text();
    return { status: r.status, body: text === '' ? undefined : JSON.parse(text), headers: r.headers };
  };
  const s = await configure({ token: async () => '', call }, ADMIN.tenant, {
    receiverUrl: rx.url,
    preferencePolicy: 'BYPASS',
    retry: { MaxAttempts: 1, RetryInitialDelaySeconds: 1, RetryBackoffMultiplier: 1, RetryMaxDelaySeconds: 1 },
  });
  const sent = await call('POST', `${HUB}/notifications/send`, {
    body: aSend(s.code),
    headers: { 'x-correlation-id': CORRELATION },
  });
  assert.is(sent.status, 201, JSON.stringify(sent.body));
  const notificationId: string = sent.body.NotificationId;
  const messageId: string = sent.body.Messages[0].MessageId;
  await rx.waitFor(1); // the receiver itself refuses it (not the outbound guard)
  // the alert reaches the bridge once the receiver refused the message
  await eventually(
    async () => {
      const r = await call('GET', `/ops/v1/timeline?correlation=${CORRELATION}&limit=200`);
      return (r.body.items as Array<{ data?: { event?: { type?: string } } }>).some(
        (i) => i.data?.event?.type === ALERT_TYPE,
      )
        ? true
        : undefined;
    },
    { timeoutMs: 20_000 },
  );

  const {
    page,
    problems,
    refusals: pageErrors,
  } = await watchedPage(browser, { viewport: { width: 1280, height: 800 }, timezoneId: 'UTC' });
  const timeline = () => page.getByRole('region', { name: 'Timeline' });

  const test = suite('the incident view across a hub send in Chromium');

  test.after(async () => {
    await browser.close();
    await p.stop();
    await rx.close();
  });

  test('one timeline: the hub notification and its message, the bridge’s dead-letter alert', async () => {
    await page.goto(`${p.base}/portal/operations/incident?correlation=${CORRELATION}`);
    await page.getByRole('button', { name: 'Continue to sign-in' }).click();
    await page.waitForURL((u) => u.pathname === '/cas/oidc/authorize');
    await page.getByLabel('Username').fill(ADMIN.username);
    await page.getByLabel('Password').fill(ADMIN.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { level: 1, name: 'Incident view' }).waitFor();
    await timeline().getByText('AlertRaised').first().waitFor();
    assert.is(await page.getByRole('textbox', { name: 'Correlation id' }).inputValue(), CORRELATION);
    const text = (await timeline().textContent()) ?? '';
    for (const type of ['NotificationAccepted', 'AttemptStarted', 'MessageFailed', 'AlertRaised', 'EventAccepted'])
      assert.ok(text.includes(type), `${type} in the timeline`);
    assert.ok(text.includes(`hubNotification-${ADMIN.tenant}.${notificationId}`), 'the notification’s stream');
    // the bridge's event of the alert: its row links the trace and the message the alert is about
    const alertRow = timeline()
      .locator('tr', { has: page.locator('.service-bridge') })
      .filter({ has: page.locator(`a[href="/portal/hub/messages/${messageId}"]`) });
    assert.is(await alertRow.count(), 1, 'one bridge event names the message');
    assert.match((await alertRow.textContent()) ?? '', /EventAccepted/);
    for (const service of ['hub', 'bridge'])
      assert.ok((await timeline().locator(`.service-${service}`).count()) > 0, `an event of ${service}`);
    await page.waitForLoadState('networkidle');
    problems.push(...(await review(page, 'operations-incident-hub')));
  });

  test('the hub’s ids open their pages: the notification, the message', async () => {
    const hrefs = await timeline()
      .getByRole('link')
      .evaluateAll((as) => as.map((a) => a.getAttribute('href')));
    assert.ok(hrefs.includes(`/portal/hub/notifications/${notificationId}`), hrefs.join());
    assert.ok(hrefs.includes(`/portal/hub/messages/${messageId}`), hrefs.join());
    await timeline()
      .getByRole('link', { name: `message ${messageId}` })
      .first()
      .click();
    await page.waitForURL((u) => u.pathname === `/portal/hub/messages/${messageId}`);
    await page.getByRole('heading', { level: 1 }).waitFor();
  });

  test('no serious accessibility problem, no CSP refusal', () => {
    assert.equal(problems, []);
    assert.equal(pageErrors, []);
  });

  test.run();
}
