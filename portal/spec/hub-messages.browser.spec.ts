// The hub's notification search, notification and message pages in Debian's headless Chromium, against the
// whole platform and a real webhook receiver on loopback. The hub's configuration (channel, REST_WEBHOOK
// service, template, context, definition and rule) is made through the portal's API proxy as the demo
// admin, and so are the sends. A delivered send is found in the search, its notification opened, its
// message's timeline read (attempt, acceptance, the receiver's receipt). A send the receiver refuses (400:
// a definite final failure, a dead letter) is retried from the message page through the confirmation once
// the receiver answers again, and its verified outcome is recorded there (a manual receipt): both land in the
// timeline. What the pages show is checked against the API. Every page is scanned by axe-core and
// photographed at 1280 and 390 px (.screenshots/portal/); nothing may be refused by the CSP.
import { existsSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { CHROMIUM } from './browser-kit.ts';

if (!existsSync(CHROMIUM)) {
  console.log('SKIPPED: the hub notification and message pages in Chromium (install the chromium package)');
} else {
  await run();
}

async function run() {
  const { ensurePortalBuilt, launchChromium, review } = await import('./browser-kit.ts');
  const { ADMIN, portalApi, portalSignIn, startPortalPlatform } = await import(
    '../../spec/http/portal/portal-harness.ts'
  );
  const { aSend, configure, HUB } = await import('../../spec/http/hub/hub-harness.ts');
  const { sendReceipt, startWebhookReceiver } = await import('../../spec/http/hub/fixtures/webhook-receiver.ts');
  const { eventually } = await import('../../spec/core/eventually.ts');

  /** what the receiver answers now: the spec switches it from refusing to accepting */
  let answer = 200;
  const rx = await startWebhookReceiver(() => answer);
  ensurePortalBuilt();
  // the hub calls loopback only where the operator allows it
  const p = await startPortalPlatform({ env: { OUTBOUND_ALLOW: '127.0.0.1' } });
  const browser: Browser = await launchChromium();
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
  const stateOf = async (messageId: string): Promise<string> =>
    (await call('GET', `${HUB}/messages/getById?messageId=${messageId}`)).body.State;
  const s = await configure({ token: async () => '', call }, ADMIN.tenant, {
    receiverUrl: rx.url,
    preferencePolicy: 'BYPASS',
    retry: { MaxAttempts: 1, RetryInitialDelaySeconds: 1, RetryBackoffMultiplier: 1, RetryMaxDelaySeconds: 1 },
  });

  // a send the receiver accepts and then confirms with its receipt
  const good = aSend(s.code);
  const sent = await call('POST', `${HUB}/notifications/send`, { body: good });
  assert.is(sent.status, 201, JSON.stringify(sent.body));
  const notificationId: string = sent.body.NotificationId;
  const messageId: string = sent.body.Messages[0].MessageId;
  const [submission] = await rx.waitFor(1);
  await eventually(async () => ((await stateOf(messageId)) === 'ACCEPTED' ? true : undefined), { timeoutMs: 20_000 });
  const receipt = await sendReceipt(p.base, String(submission!.headers['x-comm-callback-id']), {
    Status: 'DELIVERED',
    ProviderRef: 'provider-77',
  });
  assert.ok(receipt.status < 300, JSON.stringify(receipt.body));
  await eventually(async () => ((await stateOf(messageId)) === 'DELIVERED' ? true : undefined), { timeoutMs: 20_000 });
  // the search reads a projection: the notification appears there a moment after its acceptance
  await eventually(
    async () => {
      const r = await call('GET', `${HUB}/notifications/search?requestId=${good.RequestId}`);
      return r.body.Items?.length === 1 ? true : undefined;
    },
    { timeoutMs: 20_000 },
  );

  const problems: string[] = [];
  const refusals: string[] = [];
  const look = async (page: Page, name: string) => {
    await page.waitForLoadState('networkidle');
    problems.push(...(await review(page, name)));
  };
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, timezoneId: 'UTC' });
  const page = await context.newPage();
  page.on('console', (m) => {
    if (/Content Security Policy|Refused to/i.test(m.text())) refusals.push(m.text());
  });
  page.on('pageerror', (e) => refusals.push(`page error: ${e.message}`));
  const timeline = () => page.getByRole('region', { name: 'Message timeline' });
  const eventRow = (type: string) => timeline().locator(`tr[data-type="${type}"]`);

  const test = suite('the hub notification and message pages in Chromium');

  test.after(async () => {
    await browser.close();
    await p.stop();
    await rx.close();
  });

  test('the search finds the notification by its request; no match and a refused filter are said in place', async () => {
    await page.goto(`${p.base}/portal/hub/notifications`);
    await page.getByRole('button', { name: 'Continue to sign-in' }).click();
    await page.waitForURL((u) => u.pathname === '/cas/oidc/authorize');
    await page.getByLabel('Username').fill(ADMIN.username);
    await page.getByLabel('Password').fill(ADMIN.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { level: 1, name: 'Notifications' }).waitFor();
    await page.getByRole('link', { name: notificationId }).waitFor();

    await page.getByLabel('Notification code').fill('no-such-code');
    await page.getByRole('button', { name: 'Search' }).click();
    await page.waitForURL((u) => u.searchParams.get('notificationCode') === 'no-such-code');
    await page.getByText('No notification matches every filter').waitFor();

    await page.getByRole('button', { name: 'Clear' }).click();
    await page.getByLabel('Accepted from').fill('yesterday');
    await page.getByRole('button', { name: 'Search' }).click();
    const refusal = page.getByRole('alert').filter({ hasText: 'REQUEST.INVALID' });
    await refusal.waitFor();
    assert.match((await refusal.textContent()) ?? '', /acceptedFrom/);

    await page.getByRole('button', { name: 'Clear' }).click();
    await page.getByLabel('Request ID').fill(good.RequestId);
    await page.getByRole('button', { name: 'Search' }).click();
    await page.waitForURL((u) => u.searchParams.get('requestId') === good.RequestId);
    const rows = page.getByRole('table', { name: 'Matching notifications' }).locator('tbody tr');
    await rows.getByRole('link', { name: notificationId }).waitFor();
    assert.is(await rows.count(), 1, 'exactly the one notification of the request');
    const row = (await rows.textContent()) ?? '';
    assert.ok(row.includes(s.code) && row.includes('C-1'), row);
    // the filters are in the URL: a reload shows the same search with its input
    await page.reload();
    await page.getByRole('heading', { level: 1, name: 'Notifications' }).waitFor();
    await rows.getByRole('link', { name: notificationId }).waitFor();
    assert.is(await page.getByLabel('Request ID').inputValue(), good.RequestId);
    await look(page, 'hub-notifications');
  });

  test('the notification: its progress and its message, which opens the message page', async () => {
    await page.getByRole('link', { name: notificationId }).click();
    await page.getByRole('heading', { level: 1, name: `Notification ${notificationId}` }).waitFor();
    const messages = page.getByRole('region', { name: 'Messages of the notification' });
    await messages.getByRole('link', { name: messageId }).waitFor();
    assert.match((await messages.textContent()) ?? '', /DELIVERED/);
    assert.match((await page.locator('.fact-box').textContent()) ?? '', /Completed: 1 DELIVERED/);
    await look(page, 'hub-notification');
    await messages.getByRole('link', { name: messageId }).click();
    await page.getByRole('heading', { level: 1, name: `Message ${messageId}` }).waitFor();
  });

  test('the message: state, recipient, attempts and a readable timeline (attempt, acceptance, receipt)', async () => {
    await eventRow('MessageDelivered').waitFor();
    const api = (await call('GET', `${HUB}/messages/timeline?messageId=${messageId}`)).body;
    const types = await timeline()
      .locator('tbody tr')
      .evaluateAll((trs) => trs.map((tr) => tr.getAttribute('data-type')));
    assert.equal(
      types,
      api.Events.map((e: { Type: string }) => e.Type),
      'every event of the API, in its order',
    );
    for (const t of ['MessagePrepared', 'AttemptStarted', 'MessageAccepted', 'MessageDelivered'])
      assert.ok(types.includes(t), `${t} in the timeline`);
    assert.match(
      (await eventRow('AttemptStarted').textContent()) ?? '',
      new RegExp(`Attempt 1 \\(AUTO\\w*\\) through ${s.serviceId}`),
    );
    assert.match(
      (await eventRow('MessageDelivered').textContent()) ?? '',
      /from a receipt, provider reference provider-77/,
    );
    const facts = (await page.locator('.fact-box').textContent()) ?? '';
    assert.ok(facts.includes('jane@example.com') || facts.includes('j***'), facts);
    assert.match(facts, /StateDELIVERED/);
    // a delivered message offers no action: each is disabled with the API's reason
    for (const name of ['Retry', 'Cancel', 'Resolve outcome'])
      assert.ok(await page.getByRole('button', { name }).isDisabled(), `${name} disabled`);
    await page.getByText('TERMINAL').first().waitFor();
    await look(page, 'hub-message');
  });

  test('a dead letter: retried through the confirmation, its verified outcome recorded, both in the timeline', async () => {
    answer = 400;
    const bad = await call('POST', `${HUB}/notifications/send`, { body: aSend(s.code) });
    assert.is(bad.status, 201, JSON.stringify(bad.body));
    const failedId: string = bad.body.Messages[0].MessageId;
    await eventually(async () => ((await stateOf(failedId)) === 'FAILED' ? true : undefined), { timeoutMs: 20_000 });
    await page.goto(`${p.base}/portal/hub/messages/${failedId}`);
    await page.getByRole('heading', { level: 1, name: `Message ${failedId}` }).waitFor();
    await eventRow('MessageFailed').waitFor();
    assert.match(
      (await eventRow('MessageFailed').textContent()) ?? '',
      /Permanent failure from the receiver's answer \(HTTP 400\)/,
    );
    const retry = page.getByRole('button', { name: 'Retry', exact: true });
    assert.ok(await retry.isEnabled(), 'a final failure may be retried');
    await look(page, 'hub-message-failed');

    // the receiver answers again; the retry asks for its reason first
    answer = 200;
    const before = rx.received.length;
    await retry.click();
    const dialog = page.getByRole('dialog', { name: 'Retry this message now?' });
    await dialog.waitFor();
    await dialog.getByRole('button', { name: 'Retry' }).click();
    await dialog.getByText('Give the reason').waitFor();
    assert.is(rx.received.length, before, 'nothing sent without the reason');
    await dialog.getByLabel('Reason').fill('the receiver was fixed');
    await look(page, 'hub-message-retry-dialog');
    await dialog.getByRole('button', { name: 'Retry' }).click();
    await dialog.waitFor({ state: 'detached' });
    await eventRow('MessageAccepted').waitFor();
    assert.is(rx.received.length, before + 1, 'exactly one manual attempt reached the receiver');
    const manual = eventRow('AttemptStarted').last();
    assert.match((await manual.textContent()) ?? '', /Attempt 2 \(MANUAL\).*reason: the receiver was fixed/);
    assert.is(await stateOf(failedId), 'ACCEPTED');

    // accepted and awaiting its receipt: the operator records the outcome the provider confirmed
    const resolve = page.getByRole('button', { name: 'Resolve outcome' });
    await eventually(async () => ((await resolve.isEnabled()) ? true : undefined), { timeoutMs: 10_000 });
    await resolve.click();
    const receiptDialog = page.getByRole('dialog', { name: 'Record the verified outcome?' });
    await receiptDialog.getByLabel('How it was verified').fill('confirmed by the provider');
    await receiptDialog.getByLabel('Evidence reference').fill('ticket-9');
    await receiptDialog.getByRole('button', { name: 'Resolve outcome' }).click();
    await receiptDialog.waitFor({ state: 'detached' });
    await eventRow('MessageDelivered').waitFor();
    assert.match(
      (await eventRow('MessageDelivered').textContent()) ?? '',
      /from an operator's verified evidence.*Verified: confirmed by the provider \(evidence ticket-9\)/,
    );
    assert.is(await stateOf(failedId), 'DELIVERED');
    await page.getByText('DELIVERED', { exact: true }).first().waitFor();
    await look(page, 'hub-message-retried');
  });

  test('a message that does not exist: its refusal is shown in place', async () => {
    await page.goto(`${p.base}/portal/hub/messages/no-such-message`);
    await page.getByRole('heading', { level: 1, name: 'Message no-such-message' }).waitFor();
    await page.getByRole('alert').filter({ hasText: 'The message cannot be read' }).waitFor();
  });

  test('no serious accessibility problem, no CSP refusal', () => {
    assert.equal(problems, []);
    assert.equal(refusals, []);
  });

  test.run();
}
