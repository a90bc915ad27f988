// The bridge's operations pages in Debian's headless Chromium, against the whole platform in this process
// and a real HTTP receiver on loopback: an event is found in its bus's trace by id and by time range and
// seen delivered; deliveries the receiver fails (HTTP 500, every retry) land in the dead-letter queue and
// are redriven, one and then many, to the receiver answering 200 again; a connection's secret is never
// shown again; an API destination's signing secret is shown once; a schema version is uploaded,
// downloaded and checked against a good and a bad event. The platform's clock runs ahead on demand so
// the retries' waits (10–20 s each) pass at once. Every page is scanned by axe-core and photographed.
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { CHROMIUM } from './browser-kit.ts';

if (!existsSync(CHROMIUM)) {
  console.log('SKIPPED: the bridge operations pages in Chromium (install the chromium package)');
} else {
  await run();
}

async function run() {
  const { ensurePortalBuilt, launchChromium, review } = await import('./browser-kit.ts');
  const { ADMIN, portalApi, portalSignIn } = await import('../../spec/http/portal/portal-harness.ts');
  const { loadConfig } = await import('../../infra/core/config.ts');
  const { startPlatform } = await import('../../infra/main.ts');
  const { eventually } = await import('../../spec/core/eventually.ts');
  const { pino } = await import('pino');

  // the receiver: answers 200 or 500 as the test says, and keeps what it got
  let failing = false;
  const received: Array<{ deliveryId: string; body: string }> = [];
  const receiver: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => {
      body += c.toString();
    });
    req.on('end', () => {
      received.push({ deliveryId: String(req.headers['x-delivery-id']), body });
      res.statusCode = failing ? 500 : 200;
      res.end();
    });
  });
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
  const hook = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;

  // the system clock, moved ahead by `skew` when a spec wants the retries' waits over
  let skew = 0;
  const clock = { now: () => new Date(Date.now() + skew) };
  const dir = mkdtempSync(path.join(tmpdir(), 'portal-bridge-ops-'));
  ensurePortalBuilt();
  const platform = await startPlatform({
    config: loadConfig({
      PORT: '0',
      HOST: '127.0.0.1',
      PUBLIC_BASE_URL: 'http://127.0.0.1:0',
      DATA_DIR: dir,
      LOG_LEVEL: 'silent',
      SEED_TENANT: ADMIN.tenant,
      SEED_ADMIN_USERNAME: ADMIN.username,
      SEED_ADMIN_PASSWORD: ADMIN.password,
      SERVICE_REGISTRY: `receiver=${hook}`,
      OUTBOUND_ALLOW: '127.0.0.1',
      DELIVERY_POLL_MS: '50',
    }),
    log: pino({ level: 'silent' }),
    clock,
  });
  const base = platform.publicBaseUrl;
  const browser: Browser = await launchChromium();

  // set-up through the portal's own API proxy, as the demo admin
  const { jar } = await portalSignIn(base);
  const B = '/api/platform/platform-pub/eventBridge';
  const apiCall = async (method: string, p: string, body?: unknown) => {
    const r = await portalApi(base, jar, p, {
      method,
      ...(body !== undefined && { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
    });
    const text = await r.text();
    return { status: r.status, text, body: text === '' ? undefined : JSON.parse(text) };
  };
  const must = async (method: string, p: string, body?: unknown) => {
    const r = await apiCall(method, p, body);
    if (r.status >= 300) throw new Error(`${method} ${p} answered ${r.status}: ${r.text}`);
    return r.body;
  };
  await must('POST', `${B}/admin/v1/buses`, { name: 'orders' });
  await must('POST', `${B}/admin/v1/rules`, {
    id: 'to-receiver',
    bus: 'orders',
    name: 'to the receiver',
    pattern: { source: ['shop:checkout'] },
    targets: [
      {
        Id: 1,
        TypeId: 3,
        ErrorTolerance: 'ALL',
        DeadLetterRecord: true,
        Params: [
          { ResourceKey: 'SERVICE_NAME', Form: 'CONSTANT', Value: 'receiver' },
          { ResourceKey: 'BODY', Form: 'ORIGINAL', Value: '' },
        ],
      },
    ],
  });
  let seq = 0;
  const publish = async () => {
    const id = `order-${++seq}`;
    const r = await must('POST', `${B}/event/v1/putEvent`, {
      id,
      source: 'shop:checkout',
      type: 'shop:Order:Placed',
      subject: 'orders:eu',
      time: '2026-03-01T10:00:00',
      dataContentType: 'application/json',
      eventBusName: 'orders',
      data: { orderId: seq },
    });
    return { id, eventId: String(r.eventId) };
  };
  const trace = (eventId: string) => apiCall('GET', `${B}/admin/v1/trace/events/${eventId}`);
  const lastStatus = async (eventId: string) => {
    const t = await trace(eventId);
    const steps = (t.body?.delivery ?? []) as Array<{ status: string }>;
    return steps.at(-1)?.status;
  };

  const problems: string[] = [];
  const pageErrors: string[] = [];
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, timezoneId: 'UTC' });
  const page: Page = await context.newPage();
  page.on('console', (m) => {
    if (/Content Security Policy|Refused to/i.test(m.text())) pageErrors.push(m.text());
  });
  page.on('pageerror', (e) => pageErrors.push(`page error: ${e.message}`));
  const look = async (name: string) => {
    await page.waitForLoadState('networkidle');
    problems.push(...(await review(page, name)));
  };
  const heading = () => page.getByRole('heading', { level: 1 });
  const main = () => page.locator('main');

  const test = suite('the bridge operations pages in Chromium');

  test.before(async () => {
    await page.goto(`${base}/portal/bridge/dead-letters`);
    await page.getByRole('button', { name: 'Continue to sign-in' }).click();
    await page.waitForURL((u) => u.pathname === '/cas/oidc/authorize');
    await page.getByLabel('Username').fill(ADMIN.username);
    await page.getByLabel('Password').fill(ADMIN.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL((u) => u.pathname === '/portal/bridge/dead-letters');
    await page.getByText('No dead letters.').waitFor();
  });

  test.after(async () => {
    await browser.close();
    await platform.stop();
    await new Promise((r) => receiver.close(r));
    rmSync(dir, { recursive: true, force: true });
  });

  test('the trace finds an event by id and by time range, and shows it delivered, stage by stage', async () => {
    const from = new Date(Date.now() - 1000).toISOString().slice(0, 19);
    const e = await publish();
    await eventually(async () => (await lastStatus(e.eventId)) === 'succeeded', 'the event delivered');
    assert.ok(
      received.some((r) => r.body.includes('order-1')),
      'the receiver got the event',
    );

    await page.goto(`${base}/portal/bridge/buses/orders/trace`);
    await heading().filter({ hasText: 'Event trace of orders' }).waitFor();
    await page.getByLabel('Event ID').fill(e.eventId);
    await page.getByRole('button', { name: 'Search' }).click();
    const row = page.getByRole('row', { name: /order-1/ });
    await row.waitFor();
    assert.match((await row.textContent()) ?? '', /to-receiver → target 1: delivered/);

    // by time range: from before the publication to a minute after it
    await page.getByLabel('Event ID').fill('');
    await page.getByLabel('Received from').fill(from);
    await page.getByLabel('Received before').fill(new Date(Date.now() + 60_000).toISOString().slice(0, 19));
    await page.getByRole('button', { name: 'Search' }).click();
    await page.getByRole('row', { name: /order-1/ }).waitFor();
    // a range that ends before it finds nothing
    await page.getByLabel('Received before').fill(from);
    await page.getByRole('button', { name: 'Search' }).click();
    await page.getByText('No events on this bus in this time range.').waitFor();
    await page.getByLabel('Received before').fill('');
    await page.getByRole('button', { name: 'Search' }).click();
    await page.getByRole('row', { name: /order-1/ }).waitFor();
    await look('bridge-trace');

    await page.getByRole('link', { name: 'order-1' }).click();
    await page.waitForURL((u) => u.pathname === `/portal/bridge/trace/${e.eventId}`);
    await heading().filter({ hasText: 'Event order-1' }).waitFor();
    const receipt = (await page.getByRole('region', { name: 'The event as received' }).textContent()) ?? '';
    assert.match(receipt, /"orderId": 1/);
    assert.match((await main().textContent()) ?? '', /1 matched \(tenant rules applied\)/);
    const stages = page.getByRole('region', { name: 'Delivery to to-receiver target 1' });
    const succeeded = stages.getByRole('row', { name: /succeeded/ });
    assert.match((await succeeded.textContent()) ?? '', /\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3} UTC.*succeeded.*1.*200/);
    await look('bridge-trace-event');
    await page.getByRole('link', { name: 'Event trace' }).click();
    await page.waitForURL((u) => u.pathname === '/portal/bridge/buses/orders/trace');
  });

  test('failed deliveries land in the dead-letter queue; one is redriven, then many, and delivered', async () => {
    failing = true;
    const events = [await publish(), await publish(), await publish()];
    // the retries' waits pass as the clock runs ahead
    await eventually(
      async () => {
        const dl = await must('GET', `${B}/admin/v1/dead-letters`);
        if (dl.total === 3) return true;
        skew += 21_000;
        return undefined;
      },
      { what: 'three dead letters', intervalMs: 300, timeoutMs: 40_000 },
    );
    failing = false;

    await page.goto(`${base}/portal/bridge/dead-letters`);
    for (const e of events) await page.getByRole('rowheader', { name: e.id }).waitFor();
    assert.match((await page.getByRole('row', { name: /order-2/ }).textContent()) ?? '', /http-5xx.*4/);
    await look('bridge-dead-letters');

    // one, from its detail
    await page.getByRole('link', { name: 'order-2' }).click();
    await heading().filter({ hasText: 'Dead letter of order-2' }).waitFor();
    assert.match((await main().textContent()) ?? '', /HTTP status500/);
    await look('bridge-dead-letter');
    await page.getByRole('button', { name: 'Redrive' }).click();
    const dialog = page.getByRole('dialog', { name: 'Redrive this dead letter?' });
    await dialog.getByRole('button', { name: 'Redrive' }).click();
    await page.getByText('Redriven. Follow the delivery').waitFor();
    await page.getByRole('link', { name: "event's trace" }).click();
    await page.waitForURL((u) => u.pathname === `/portal/bridge/trace/${events[0]!.eventId}`);
    // the trace page looks again every few seconds
    await page.getByRole('heading', { name: /Rule to-receiver, target 1: delivered/ }).waitFor({ timeout: 20_000 });
    assert.match(
      (await page.getByRole('region', { name: 'Delivery to to-receiver target 1' }).textContent()) ?? '',
      /dead-lettered.*redriven.*succeeded/,
    );

    // many: the two left, ticked and redriven at once
    await page.goto(`${base}/portal/bridge/dead-letters`);
    await eventually(async () => (await page.getByRole('rowheader').count()) === 2, 'the redriven one gone');
    for (const e of events.slice(1)) await page.getByRole('checkbox', { name: new RegExp(`${e.id} for`) }).check();
    await page.getByRole('button', { name: 'Redrive selected (2)' }).click();
    await page
      .getByRole('dialog', { name: 'Redrive 2 dead letters?' })
      .getByRole('button', { name: 'Redrive' })
      .click();
    await page.getByText('Redriven: 2. Skipped (no longer dead letters): 0.').waitFor();
    for (const e of events.slice(1))
      await eventually(async () => (await lastStatus(e.eventId)) === 'succeeded', `${e.id} delivered`);
    await page.getByText('No dead letters.').waitFor({ timeout: 10_000 });
  });

  test('a connection secret is never shown again, in the page or in the API answer', async () => {
    const secret = 'sk-live-very-secret-0123';
    await page.goto(`${base}/portal/bridge/connections`);
    await page.getByText('No connections yet.').waitFor();
    await page.getByRole('link', { name: 'New connection' }).click();
    await page.getByRole('textbox', { name: 'Name', exact: true }).fill('crm');
    await page.getByLabel('Authentication').selectOption('API_KEY');
    await page.getByLabel('Header name').fill('X-Api-Key');
    const key = page.getByLabel(/^Key/);
    assert.is(await key.getAttribute('type'), 'password');
    await key.fill(secret);
    await look('bridge-connection-new');
    await page.getByRole('button', { name: 'Create connection' }).click();
    await page.waitForURL((u) => u.pathname === '/portal/bridge/connections/crm');
    await heading().filter({ hasText: 'Connection crm' }).waitFor();
    await page.getByText('Set. Leave empty to keep it').waitFor();
    assert.is(await page.getByLabel(/^Key/).inputValue(), '');
    assert.not.ok((await page.content()).includes(secret), 'the page holds no secret');
    const answer = await apiCall('GET', `${B}/admin/v1/connections/crm`);
    assert.not.ok(answer.text.includes(secret), 'the API answers no secret');
    await look('bridge-connection');

    // a change that leaves the secret empty keeps it
    await page.getByLabel('Description').fill('the CRM');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByText('Connection crm saved').waitFor();
    const after = await apiCall('GET', `${B}/admin/v1/connections/crm`);
    assert.is(after.body.description, 'the CRM');
    assert.is(after.body.auth.value, '******', 'the secret is kept (masked)');

    // a second one of the same name is refused; the form keeps what was typed
    await page.goto(`${base}/portal/bridge/connections/new`);
    await page.getByRole('textbox', { name: 'Name', exact: true }).fill('crm');
    await page.getByLabel('Authentication').selectOption('API_KEY');
    await page.getByLabel('Header name').fill('X-Other');
    await page.getByLabel(/^Key/).fill('another');
    await page.getByRole('button', { name: 'Create connection' }).click();
    await page.getByRole('alert').filter({ hasText: 'CONNECTION.EXISTS' }).waitFor();
    assert.is(await page.getByLabel('Header name').inputValue(), 'X-Other');
    assert.ok(page.url().endsWith('/portal/bridge/connections/new'));

    await page.getByRole('link', { name: 'Connections' }).first().click();
    const row = page.getByRole('row', { name: /crm/ });
    await row.waitFor();
    assert.match((await row.textContent()) ?? '', /API key header\s*set/);
    await look('bridge-connections');
  });

  test('an API destination shows its signing secret once; a rotation shows the new one once', async () => {
    await page.goto(`${base}/portal/bridge/api-destinations/new`);
    await page.getByRole('textbox', { name: 'Name', exact: true }).fill('crm-hook');
    await page.getByLabel('URL').fill('https://crm.example/hooks/orders');
    await page.getByLabel('Connection').selectOption('crm');
    await page.getByRole('button', { name: 'Create API destination' }).click();
    const once = page.getByRole('status').filter({ hasText: 'Signing secret, shown this once' });
    await once.waitFor();
    const secret = ((await once.locator('code').textContent()) ?? '').trim();
    assert.match(secret, /^whsec_/);
    await page.getByRole('link', { name: 'Open crm-hook' }).click();
    await heading().filter({ hasText: 'API destination crm-hook' }).waitFor();
    assert.not.ok((await page.content()).includes(secret), 'not shown again');
    await look('bridge-api-destination');
    await page.getByRole('button', { name: 'Rotate signing secret' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Rotate' }).click();
    const rotated = page.getByRole('status').filter({ hasText: 'Signing secret, shown this once' });
    await rotated.waitFor();
    const next = ((await rotated.locator('code').textContent()) ?? '').trim();
    assert.match(next, /^whsec_/);
    assert.is.not(next, secret);
    await page.goto(`${base}/portal/bridge/api-destinations`);
    await page.getByRole('rowheader', { name: 'crm-hook' }).waitFor();
    await look('bridge-api-destinations');
  });

  test('the schema registry: upload a version, download it, validate a good and a bad event', async () => {
    const doc = (version: string, required: string[]) => ({
      openapi: '3.0.3',
      info: { title: 'Order placed', version },
      paths: {},
      components: {
        schemas: {
          Cloudevents: {
            type: 'object',
            required: ['id', 'source', 'subject', 'time', 'type', 'data'],
            properties: {
              id: { type: 'string' },
              source: { type: 'string' },
              subject: { type: 'string' },
              time: { type: 'string' },
              type: { type: 'string' },
              data: { $ref: '#/components/schemas/Order' },
            },
          },
          Order: {
            type: 'object',
            required,
            properties: { orderId: { type: 'integer' }, region: { type: 'string' } },
          },
        },
      },
    });
    await page.goto(`${base}/portal/bridge/schemas/new`);
    await page.getByLabel('OpenAPI 3.0 document').fill(JSON.stringify(doc('1.0.0', ['orderId'])));
    await page.getByRole('button', { name: 'Create schema' }).click();
    await heading().filter({ hasText: 'Schema Order placed' }).waitFor();

    // the second version from a file
    const v2 = JSON.stringify(doc('2.0.0', ['orderId', 'region']), null, 2);
    await page
      .getByLabel('Document file (JSON)')
      .setInputFiles({ name: 'order-2.json', mimeType: 'application/json', buffer: Buffer.from(v2) });
    await eventually(
      async () => (await page.getByLabel('OpenAPI 3.0 document').inputValue()).includes('2.0.0'),
      'the file read',
    );
    await page.getByRole('button', { name: 'Upload version' }).click();
    await page.getByRole('rowheader', { name: '2.0.0' }).waitFor();

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Download version 2.0.0' }).click(),
    ]);
    assert.match(download.suggestedFilename(), /^schema-\d+-2\.0\.0\.json$/);
    const saved = path.join(dir, 'downloaded.json');
    await download.saveAs(saved);
    assert.equal(JSON.parse(readFileSync(saved, 'utf8')), JSON.parse(v2));

    // validate against 2.0.0 (the newest, chosen first)
    const event = (data: unknown) => JSON.stringify({ source: 'shop:checkout', type: 'shop:Order:Placed', data });
    await page.getByLabel('Event (JSON)').fill(event({ orderId: 7, region: 'eu' }));
    await page.getByRole('button', { name: 'Validate' }).click();
    await page.getByText('The event follows version 2.0.0.').waitFor();
    await page.getByLabel('Event (JSON)').fill(event({ orderId: 'seven' }));
    await page.getByRole('button', { name: 'Validate' }).click();
    await page.getByText('The event does not follow version 2.0.0:').waitFor();
    const listed = (await page.locator('.result-panel').textContent()) ?? '';
    assert.match(listed, /data\.orderId/);
    assert.match(listed, /data\.region\s*is required/);
    await look('bridge-schema');
    // not JSON: the field is marked, its text stays
    await page.getByLabel('Event (JSON)').fill('{ not json');
    await page.getByRole('button', { name: 'Validate' }).click();
    await page.locator('.field-error', { hasText: 'is not JSON' }).waitFor();
    assert.is(await page.getByLabel('Event (JSON)').getAttribute('aria-invalid'), 'true');
    assert.is(await page.getByLabel('Event (JSON)').inputValue(), '{ not json');
    await page.getByRole('link', { name: 'Schema registry' }).first().click();
    await page.getByRole('rowheader', { name: 'Order placed' }).waitFor();
    await look('bridge-schemas');
  });

  test('the trace pages through the API: next page and back', async () => {
    const more: Array<{ id: string; eventId: string }> = [];
    for (let i = 0; i < 20; i++) more.push(await publish());
    await eventually(async () => (await lastStatus(more.at(-1)!.eventId)) !== undefined, 'the last one routed');
    await page.goto(`${base}/portal/bridge/buses/orders/trace`);
    await page.getByRole('button', { name: 'Search' }).click();
    const pages = page.getByRole('navigation', { name: 'Pages of Events on orders' });
    await pages.getByText('1–20 (more on the next page)').waitFor();
    await page.getByRole('rowheader', { name: more.at(-1)!.id, exact: true }).waitFor();
    assert.is(
      await page.getByRole('rowheader', { name: 'order-1', exact: true }).count(),
      0,
      'the oldest is not on the first page',
    );
    await pages.getByRole('button', { name: 'Next page' }).click();
    await pages.getByText('21–24').waitFor();
    await page.getByRole('rowheader', { name: 'order-1', exact: true }).waitFor();
    await pages.getByRole('button', { name: 'Previous page' }).click();
    await pages.getByText('1–20 (more on the next page)').waitFor();
  });

  test('no serious or critical accessibility violation, no CSP refusal, no page error', () => {
    assert.equal(problems, []);
    assert.equal(pageErrors, []);
  });

  test.run();
}
