// The portal's Audit area in Debian's headless Chromium: the demo admin queries records written through
// the portal's API proxy in page mode and scroll mode, opens one, exports the query and counts the
// downloaded file's records, manages modules and transactions (an XLSX import with a refused row, built
// with exceljs), and verifies the chain. Every page is scanned by axe-core and photographed at 1280 and
// 390 px (.screenshots/portal/). One platform in this process (temporary DATA_DIR, port 0), one browser.
import { existsSync, readFileSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { CHROMIUM } from './browser-kit.ts';

if (!existsSync(CHROMIUM)) {
  console.log('SKIPPED: the portal Audit area in Chromium (install the chromium package)');
} else {
  await run();
}

async function run() {
  const { ensurePortalBuilt, launchChromium, review } = await import('./browser-kit.ts');
  const { ADMIN, portalApi, portalSignIn, startPortalPlatform } = await import(
    '../../spec/http/portal/portal-harness.ts'
  );
  const ExcelJS = (await import('exceljs')).default;
  const Database = (await import('better-sqlite3')).default;
  const { createDirectoryCommands } = await import('../../commands/identity/directory.commands.ts');

  ensurePortalBuilt();
  // the system clock, moved ahead when the spec wants a scroll's idle time (300 s) over
  let skew = 0;
  const p = await startPortalPlatform({ clock: { now: () => new Date(Date.now() + skew) } });
  const browser: Browser = await launchChromium();
  const V3 = '/api/platform/audit/1.0/audit/v3';
  const RECORDS = 45;

  // the metadata and the records, through the portal's own proxy as the demo admin
  const { jar } = await portalSignIn(p.base);
  const apiCall = async (method: string, path: string, body?: unknown) => {
    const res = await portalApi(p.base, jar, path, {
      method,
      ...(body !== undefined && { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
    });
    const text = await res.text();
    if (!res.ok) throw new Error(`${method} ${path} answered ${res.status}: ${text}`);
    return text === '' ? null : JSON.parse(text);
  };
  await apiCall('POST', `${V3}/modules`, { module_name: 'policy', description: 'Policy administration' });
  await apiCall('POST', `${V3}/modules/policy/transactions`, {
    transaction_name: 'createPolicy',
    transaction_vendor: 'core',
  });
  let last = { id: '', sequence: 0 };
  for (let i = 1; i <= RECORDS; i++) {
    last = await apiCall('POST', `${V3}/log/sync`, {
      transaction_name: 'createPolicy',
      transaction_vendor: 'core',
      business_code: `PolicyNo:P-${i}`,
      client_ip: '10.1.2.3',
      new_data: JSON.stringify({ premium: i * 100, holder: { name: `Holder ${i}` } }),
      old_data: '',
      warning_type: i % 10 === 0 ? 'WARN' : 'INFO',
      tags: ['web'],
    });
  }
  // the query store has them all once verify says nothing is left to project
  for (let i = 0; i < 100; i++) {
    const v = await apiCall('GET', `${V3}/verify`);
    if (v.read_store.not_yet_projected === null && v.head_sequence >= last.sequence) break;
    await new Promise((r) => setTimeout(r, 50));
  }

  // a person of the platform tenant who may read audit logs (the seed makes only its machine user there)
  const OPERATOR = { username: 'auditor', password: 'platform auditor password' };
  await createDirectoryCommands({
    eventStore: p.platform.stores.eventStore,
    clock: { now: () => new Date() },
  }).registerUser(
    { ...OPERATOR, name: 'Platform Auditor', roles: ['audit:read'] },
    { tenant: 'platform', actor: 'spec' },
    'spec/platform-auditor',
  );

  const problems: string[] = [];
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, acceptDownloads: true });
  const page: Page = await context.newPage();
  const pageErrors: string[] = [];
  page.on('pageerror', (e) => pageErrors.push(e.message));
  const look = async (name: string) => {
    await page.waitForLoadState('networkidle');
    problems.push(...(await review(page, name)));
  };
  /** the page's heading, once the page (a chunk loaded on demand) is there */
  const heading = (name: string) => page.getByRole('heading', { level: 1, name, exact: true }).waitFor();
  const rows = () => page.getByRole('region', { name: 'Audit records' }).locator('tbody tr:not(.skeleton-row)');
  const firstSequence = async () => Number(await rows().first().getByRole('rowheader').textContent());
  /** the table's rows arrive a moment after the pager's count: wait for them */
  const rowCountIs = (on: Page, n: number) =>
    on.waitForFunction(
      (count) =>
        document.querySelectorAll('[aria-label="Audit records"] tbody tr:not(.skeleton-row) th').length === count,
      n,
    );
  const firstRowIs = (sequence: number) =>
    page.waitForFunction(
      (n) => document.querySelector('[aria-label="Audit records"] tbody tr th')?.textContent === String(n),
      sequence,
    );
  const query = new URLSearchParams({
    module_name: 'policy',
    transaction_name: 'createPolicy',
    start_time: '2000-01-01T00:00:00.000Z',
    end_time: '2100-01-01T00:00:00.000Z',
    return_size: '10',
  });

  const test = suite('the portal Audit area in Chromium');

  const signIn = async (on: Page, tenant: string, user: { username: string; password: string }) => {
    await on.goto(`${p.base}/portal/audit`);
    await on.getByLabel('Tenant').fill(tenant);
    await on.getByRole('button', { name: 'Continue to sign-in' }).click();
    await on.waitForURL((u) => u.pathname === '/cas/oidc/authorize');
    await on.getByLabel('Username').fill(user.username);
    await on.getByLabel('Password').fill(user.password);
    await on.getByRole('button', { name: 'Sign in' }).click();
    await on.waitForURL((u) => u.pathname === '/portal/audit/records');
  };

  test.before(async () => {
    await signIn(page, ADMIN.tenant, ADMIN);
  });
  test.after(async () => {
    await context.close();
    await browser.close();
    await p.stop();
  });

  test('the query form: a refusal marks its field and keeps the input; a query goes into the URL', async () => {
    await heading('Audit records');
    await page.getByLabel(/^Module/).fill('policy');
    await page.getByLabel(/^Transaction/).fill('createPolicy');
    await page.getByLabel('From (inclusive)').fill('2030-01-01T00:00:00.000Z');
    await page.getByLabel('To (exclusive)').fill('2029-01-01T00:00:00.000Z');
    await page.getByRole('button', { name: 'Search' }).click();
    const to = page.getByLabel('To (exclusive)');
    await page.waitForFunction(() => document.querySelector('[aria-invalid="true"]') !== null);
    assert.is(await to.getAttribute('aria-invalid'), 'true');
    assert.is(await to.inputValue(), '2029-01-01T00:00:00.000Z', 'the input stays');
    assert.match((await page.locator('.form-summary').textContent()) ?? '', /AUDIT_QUERY\.INVALID/);
    await look('audit-query-refused');

    await page.getByLabel('From (inclusive)').fill('2000-01-01T00:00:00.000Z');
    await to.fill('2100-01-01T00:00:00.000Z');
    await page.getByLabel('Records per request').selectOption('10');
    await page.getByRole('button', { name: 'Search' }).click();
    await page.waitForURL((u) => u.searchParams.get('module_name') === 'policy' && u.searchParams.get('page') === '1');
    await page.getByText(`Page 1 of 5 · ${RECORDS} records`).waitFor();
    await rowCountIs(page, 10);
    assert.is(await firstSequence(), last.sequence, 'newest first');
  });

  test('page mode: numbered pages and a jump to a page; a link reproduces the query', async () => {
    await page.goto(`${p.base}/portal/audit/records?${query}&mode=page&page=1`);
    await page.getByText(`Page 1 of 5 · ${RECORDS} records`).waitFor();
    await look('audit-records');
    await page.getByRole('button', { name: 'Page 3', exact: true }).click();
    await page.getByText('Page 3 of 5').waitFor();
    await firstRowIs(last.sequence - 20);
    assert.is(new URL(page.url()).searchParams.get('page'), '3');
    await page.getByLabel('Go to page').fill('5');
    await page.getByLabel('Go to page').press('Enter');
    await page.getByText('Page 5 of 5').waitFor();
    await page.waitForFunction(() => document.querySelectorAll('[aria-label="Audit records"] tbody tr').length === 5);
    await firstRowIs(last.sequence - 40);
    assert.is(await page.getByRole('button', { name: 'Next page' }).isDisabled(), true);
    // the same URL in a fresh load shows the same page
    await page.reload();
    await page.getByText('Page 5 of 5').waitFor();
    await firstRowIs(last.sequence - 40);
    // the area's own address leads to the records, with the query
    await page.goto(`${p.base}/portal/audit?${query}&mode=page&page=2`);
    await page.waitForURL((u) => u.pathname === '/portal/audit/records' && u.searchParams.get('page') === '2');
    await page.getByText('Page 2 of 5').waitFor();
  });

  test('keyboard only: a numbered page, a jump, the paging mode', async () => {
    await page.goto(`${p.base}/portal/audit/records?${query}&mode=page&page=1`);
    await page.getByText('Page 1 of 5').waitFor();
    const tabTo = async (what: (el: { label: string; text: string; tag: string }) => boolean, name: string) => {
      for (let i = 0; i < 80; i++) {
        await page.keyboard.press('Tab');
        const el = await page.evaluate(() => {
          const a = document.activeElement as HTMLElement | null;
          const label = a?.id ? (document.querySelector(`label[for="${a.id}"]`)?.textContent ?? '') : '';
          return { label: a?.getAttribute('aria-label') ?? label, text: a?.textContent ?? '', tag: a?.tagName ?? '' };
        });
        if (what(el)) return;
      }
      throw new Error(`Tab does not reach ${name}`);
    };
    await page.locator('h1').focus();
    await tabTo((el) => el.label === 'Page 2', 'Page 2');
    await page.keyboard.press('Enter');
    await page.getByText('Page 2 of 5').waitFor();
    await tabTo((el) => el.label === 'Go to page', 'Go to page');
    await page.keyboard.type('4');
    await page.keyboard.press('Enter');
    await page.getByText('Page 4 of 5').waitFor();
    await firstRowIs(last.sequence - 30);
    await page.locator('h1').focus();
    await tabTo((el) => el.tag === 'INPUT' && el.label === '' && el.text === '', 'the paging mode');
    await page.keyboard.press('ArrowRight');
    await page.getByText(`10 of ${RECORDS} records loaded`).waitFor();
  });

  test('scroll mode: Load more adds the next records below the ones loaded', async () => {
    await page.goto(`${p.base}/portal/audit/records?${query}&mode=page&page=1`);
    await page.getByText('Page 1 of 5').waitFor();
    await page.getByLabel('Scroll mode').check();
    await page.getByText(`10 of ${RECORDS} records loaded`).waitFor();
    assert.is(new URL(page.url()).searchParams.get('mode'), 'scroll');
    await page.getByRole('button', { name: 'Load more' }).click();
    await page.getByText(`20 of ${RECORDS} records loaded`).waitFor();
    await rowCountIs(page, 20);
    assert.is(await firstSequence(), last.sequence, 'the first rows stay');
    assert.is(Number(await rows().nth(19).getByRole('rowheader').textContent()), last.sequence - 19);
    for (let n = 30; n <= RECORDS + 5; n += 10) {
      await page.getByRole('button', { name: 'Load more' }).click();
      await page.getByText(`${Math.min(n, RECORDS)} of ${RECORDS} records loaded`).waitFor();
    }
    await rowCountIs(page, RECORDS);
    await page.getByRole('button', { name: 'All records loaded' }).waitFor();
    assert.is(await page.getByRole('button', { name: 'All records loaded' }).isDisabled(), true);
    await look('audit-records-scroll');
  });

  test('scroll mode: a scroll the API let expire starts over, and says so', async () => {
    const twenty = new URLSearchParams(query);
    twenty.set('return_size', '20');
    await page.goto(`${p.base}/portal/audit/records?${twenty}&mode=scroll`);
    await page.getByText(`20 of ${RECORDS} records loaded`).waitFor();
    skew += 301_000;
    try {
      await page.getByRole('button', { name: 'Load more' }).click();
      await page.getByText('The scroll had expired at the API').waitFor();
      await page.getByText(`40 of ${RECORDS} records loaded`).waitFor();
    } finally {
      // back to the system's time: the portal's client assertions are signed by it
      skew = 0;
    }
    await rowCountIs(page, 40);
    await firstRowIs(last.sequence);
  });

  test("a record's page: every field, the data pretty-printed", async () => {
    await page.goto(`${p.base}/portal/audit/records?${query}&mode=page&page=1`);
    await page.getByRole('link', { name: `Record ${last.sequence}` }).click();
    await page.waitForURL((u) => u.pathname === `/portal/audit/records/${last.id}`);
    await heading('Audit record');
    const fields = (await page.locator('.audit-fields').textContent()) ?? '';
    for (const text of [`PolicyNo:P-${RECORDS}`, '10.1.2.3', 'createPolicy', 'core', last.id, 'demo', 'web'])
      assert.ok(fields.includes(text), `the record shows ${text}`);
    const data = await page.getByRole('region', { name: 'New data (JSON)' }).textContent();
    assert.is(data, JSON.stringify({ premium: RECORDS * 100, holder: { name: `Holder ${RECORDS}` } }, null, 2));
    assert.is(await page.getByRole('region', { name: 'Old data (JSON)' }).textContent(), '(empty)');
    await look('audit-record');
    // an unknown id: the API's error in place
    await page.goto(`${p.base}/portal/audit/records/no-such-record`);
    await page.getByText('AUDIT_RECORD.NOT_FOUND').waitFor();
  });

  test("export: the API's streamed CSV of the whole query, downloaded with its records", async () => {
    await page.goto(`${p.base}/portal/audit/records?${query}&mode=page&page=1`);
    await page.getByText('Page 1 of 5').waitFor();
    const pending = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Export records' }).click();
    const file = await pending;
    assert.match(file.suggestedFilename(), /^audit-log-demo-policy-createPolicy\.csv$/);
    const text = readFileSync((await file.path())!, 'utf8');
    const lines = text.trim().split(/\r?\n/);
    assert.match(lines[0]!, /^sequence,time,id,/);
    assert.is(lines.length - 1, RECORDS, 'every record of the query, not one page');
    await page.getByText(`(${RECORDS} rows,`).waitFor();
  });

  test('modules and transactions: create, edit, an import with a refused row, export', async () => {
    await page.goto(`${p.base}/portal/audit/modules`);
    await heading('Modules and transactions');
    await page.getByRole('rowheader', { name: 'policy' }).waitFor();
    await look('audit-modules');

    await page.getByRole('button', { name: 'New module' }).click();
    await page.getByLabel('Module name').fill('bad name');
    await page.getByRole('button', { name: 'Create module' }).click();
    await page.waitForFunction(() => document.querySelector('[aria-invalid="true"]') !== null);
    assert.is(await page.getByLabel('Module name').getAttribute('aria-invalid'), 'true');
    assert.is(await page.getByLabel('Module name').inputValue(), 'bad name');
    await page.getByLabel('Module name').fill('claim');
    await page.getByLabel('Description').fill('Claims handling');
    await page.getByRole('button', { name: 'Create module' }).click();
    await page.getByRole('rowheader', { name: 'claim' }).waitFor();

    await page.getByRole('button', { name: 'Edit module claim' }).click();
    await page.getByLabel('Description').fill('Claims, first notice to settlement');
    await page.getByRole('button', { name: 'Save module' }).click();
    await page.getByRole('cell', { name: 'Claims, first notice to settlement' }).waitFor();

    await page.getByRole('link', { name: 'claim', exact: true }).click();
    await page.getByRole('heading', { name: 'Transactions of claim' }).waitFor();
    await page.getByRole('button', { name: 'New transaction' }).click();
    await page.getByLabel('Transaction name').fill('openClaim');
    await page.getByLabel('Vendor').fill('claims');
    await page.getByRole('button', { name: 'Create transaction' }).click();
    await page.getByRole('rowheader', { name: 'openClaim' }).waitFor();
    await page.getByRole('button', { name: 'Edit transaction openClaim' }).click();
    await page.getByLabel('Description').fill('First notice of loss');
    await page.getByRole('button', { name: 'Save transaction' }).click();
    await page.getByRole('cell', { name: 'First notice of loss' }).waitFor();

    // an XLSX with a bad module name in its third row: refused with its row and reason, nothing imported
    const sheet = async (rows: string[][]) => {
      const book = new ExcelJS.Workbook();
      const ws = book.addWorksheet('metadata');
      ws.addRow(['module_name', 'module_description', 'transaction_name', 'transaction_vendor']);
      for (const r of rows) ws.addRow(r);
      return Buffer.from(await book.xlsx.writeBuffer());
    };
    const xlsx = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
    await page.getByLabel('Spreadsheet (XLSX or CSV)').setInputFiles({
      name: 'metadata.xlsx',
      mimeType: xlsx,
      buffer: await sheet([
        ['billing', 'Billing', 'issueInvoice', 'finance'],
        ['bad module!', '', 'x', ''],
      ]),
    });
    await page.getByRole('button', { name: 'Import', exact: true }).click();
    const refused = page.getByRole('table', { name: 'Refused rows' });
    await refused.waitFor();
    const row = refused.getByRole('row').nth(1);
    assert.is(await row.getByRole('rowheader').textContent(), '3');
    assert.match((await row.textContent()) ?? '', /module_name.*must be 1-128 letters/);
    assert.match((await page.locator('.audit-import').textContent()) ?? '', /METADATA\.IMPORT_INVALID/);
    assert.not.match(JSON.stringify(await apiCall('GET', `${V3}/modules`)), /billing/, 'nothing imported');
    // the status messages of the steps before, dismissed (by their own buttons) for the photograph
    while ((await page.getByRole('button', { name: 'Dismiss message' }).count()) > 0)
      await page.getByRole('button', { name: 'Dismiss message' }).first().click();
    await look('audit-modules-import-refused');

    await page.getByLabel('Spreadsheet (XLSX or CSV)').setInputFiles({
      name: 'metadata.xlsx',
      mimeType: xlsx,
      buffer: await sheet([['billing', 'Billing', 'issueInvoice', 'finance']]),
    });
    await page.getByRole('button', { name: 'Import', exact: true }).click();
    await page.getByText('Accepted 1 row: 1 module(s) created').waitFor();
    await page.getByRole('rowheader', { name: 'billing' }).waitFor();

    await page.getByLabel('Format').selectOption('csv');
    const pending = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Export metadata' }).click();
    const file = await pending;
    const text = readFileSync((await file.path())!, 'utf8');
    assert.match(text, /^module_name,module_description,transaction_name,transaction_vendor,transaction_description/);
    assert.match(text, /claim,"?Claims, first notice to settlement"?,openClaim,claims,First notice of loss/);
    assert.match(text, /billing,Billing,issueInvoice,finance/);
  });

  test('chain verification: intact, with the count checked, for the whole chain and a range', async () => {
    await page.goto(`${p.base}/portal/audit/verify`);
    await heading('Chain verification');
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.getByRole('heading', { name: 'Intact' }).waitFor();
    assert.match(
      (await page.locator('.audit-verdict').textContent()) ?? '',
      new RegExp(`${last.sequence} records checked in the log, ${last.sequence} in the query store`),
    );
    await look('audit-verify');
    await page.getByLabel('From sequence').fill('10');
    await page.getByLabel('To sequence').fill('20');
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.getByText('11 records checked in the log').waitFor();

    // a record changed behind the API's back in the query store: the first broken one, linked to its page
    const reads = new Database(`${p.config.dataDir}/read-models.sqlite`);
    try {
      reads
        .prepare(
          `UPDATE "coll_audit.records__records__g1" SET doc = json_set(doc, '$.business_code', 'forged') WHERE json_extract(doc, '$.tenant') = 'demo' AND json_extract(doc, '$.sequence') = 7`,
        )
        .run();
    } finally {
      reads.close();
    }
    await page.getByLabel('From sequence').fill('');
    await page.getByLabel('To sequence').fill('');
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.getByRole('heading', { name: 'Broken' }).waitFor();
    assert.match(
      (await page.locator('.audit-verdict').textContent()) ?? '',
      new RegExp(`In the query store.*${last.sequence} records checked`),
    );
    await look('audit-verify-broken');
    await page.getByRole('link', { name: 'sequence 7' }).click();
    await page.waitForURL((u) => u.pathname === '/portal/audit/chain/7');
    await heading('Audit record at sequence 7');
    assert.match((await page.locator('.audit-fields').textContent()) ?? '', /Business codeforged/);
  });

  test("a platform administrator reads another tenant's log as the target tenant; their own by default", async () => {
    const other = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const op = await other.newPage();
    op.on('pageerror', (e) => pageErrors.push(e.message));
    await signIn(op, 'platform', OPERATOR);
    // their own tenant: no such module there, so no records
    await op.goto(`${p.base}/portal/audit/records?${query}&mode=page&page=1`);
    await op.getByText('The operations log of tenant platform').waitFor();
    await op.getByText('No records match this query.').waitFor();
    // tenant demo as the target tenant: demo's records, a record's page and verify keep it
    await op.goto(`${p.base}/portal/audit/records?${query}&mode=page&page=1&tenant=demo`);
    await op.getByText('The operations log of tenant demo').waitFor();
    await op.getByText(`Page 1 of 5 · ${RECORDS} records`).waitFor();
    await rowCountIs(op, 10);
    assert.ok(
      (await op.locator('[aria-label="Audit records"] tbody').textContent())?.includes(`PolicyNo:P-${RECORDS}`),
      "demo's records",
    );
    await op.getByRole('link', { name: `Record ${last.sequence}` }).click();
    await op.waitForURL((u) => u.pathname === `/portal/audit/records/${last.id}`);
    assert.is(new URL(op.url()).searchParams.get('tenant'), 'demo');
    assert.match((await op.locator('.audit-fields').textContent()) ?? '', /Tenantdemo/);
    await op.getByRole('navigation', { name: 'Areas' }).getByRole('link', { name: 'Chain verification' }).click();
    await op.waitForURL((u) => u.pathname === '/portal/audit/verify');
    await op.getByRole('button', { name: 'Verify' }).click();
    await op.getByRole('heading', { name: 'Broken' }).waitFor();
    assert.match((await op.locator('.audit-verdict').textContent()) ?? '', /tenant demo/);
    // metadata is each tenant's own, and needs audit:admin: not offered
    await op.getByRole('navigation', { name: 'Areas' }).getByRole('link', { name: 'Modules and transactions' }).click();
    await op.getByText('needs the role audit:admin').waitFor();
    assert.is(await op.getByRole('button', { name: 'New module' }).count(), 0);
    await other.close();
  });

  test('no serious or critical accessibility violation, no page error', () => {
    assert.equal(problems, []);
    assert.equal(pageErrors, []);
  });

  test.run();
}
