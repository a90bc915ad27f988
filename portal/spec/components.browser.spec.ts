// The shared building blocks in Chromium, under the portal's Content-Security-Policy: PagedTable (pages
// through the API's paging, sorts by the API, reserves the page's height while loading, shows empty and
// refused lists in place), Form (keeps the input the server refused and marks the fields its details
// name), ConfirmDialog (keyboard), CopyButton and the status messages. The fixtures
// (components/harness.tsx) are built with Vite into a temporary folder and served on loopback.
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { CHROMIUM } from './browser-kit.ts';

if (!existsSync(CHROMIUM)) {
  console.log('SKIPPED: the portal components in Chromium (install the chromium package)');
} else {
  await run();
}

async function run() {
  const { launchChromium, openHarnessPage, review, serveHarness } = await import('./browser-kit.ts');

  const harness = await serveHarness({ root: path.join(import.meta.dirname, 'components'), html: 'harness.html' });
  const browser: Browser = await launchChromium();
  const problems: string[] = [];
  const reports: string[] = [];

  const open = (fixture: string): Promise<Page> =>
    openHarnessPage(browser, reports, {
      url: `${harness.base}#${fixture}`,
      viewport: { width: 1280, height: 900 },
      permissions: ['clipboard-read', 'clipboard-write'],
    });
  const release = (page: Page) => page.evaluate(() => window.releasePages());

  const test = suite('portal components in Chromium');

  test('PagedTable: a page at a time through the API paging, sorted by the API, no shift when the rows arrive', async () => {
    const page = await open('tables');
    const things = page.getByRole('table', { name: 'Things' });
    const pager = page.getByRole('navigation', { name: 'Pages of Things' });
    // loading: a full page of placeholder rows holds the height
    await page.locator('.skeleton-row').first().waitFor();
    const before = (await pager.boundingBox())!.y;
    assert.is(await release(page), 1);
    await things.getByRole('rowheader', { name: 'item 01' }).waitFor();
    assert.is((await pager.boundingBox())!.y, before, 'the pager did not move when the rows arrived');
    assert.is(await things.getByRole('row').count(), 21);
    assert.match((await pager.textContent()) ?? '', /1–20 of 45/);
    problems.push(...(await review(page, 'components-table')));

    await pager.getByRole('button', { name: 'Next page' }).click();
    await release(page);
    await things.getByRole('rowheader', { name: 'item 21' }).waitFor();
    assert.match((await pager.textContent()) ?? '', /21–40 of 45/);
    await pager.getByRole('button', { name: 'Next page' }).click();
    await release(page);
    await things.getByRole('rowheader', { name: 'item 45' }).waitFor();
    assert.match((await pager.textContent()) ?? '', /41–45 of 45/);
    assert.ok(await pager.getByRole('button', { name: 'Next page' }).isDisabled());

    // sorting asks the API (back to the first page); the header says how it is sorted
    await things.getByRole('button', { name: /Name/ }).click();
    await release(page);
    assert.is(await things.getByRole('columnheader', { name: /Name/ }).getAttribute('aria-sort'), 'ascending');
    await things.getByRole('button', { name: /Name/ }).click();
    await release(page);
    await things.getByRole('rowheader', { name: 'item 45' }).waitFor();
    assert.is(await things.getByRole('columnheader', { name: /Name/ }).getAttribute('aria-sort'), 'descending');
    const requests = await page.evaluate(() => window.pageRequests);
    assert.equal(requests.at(-1), { offset: 0, limit: 20, sort: { key: 'name', direction: 'desc' } });
    assert.equal(
      requests.slice(0, 3).map((r) => r.offset),
      [0, 20, 40],
    );

    // refused and empty lists, in place
    const refused = page.getByRole('table', { name: 'Refused' }).getByRole('alert');
    await refused.waitFor();
    assert.match((await refused.textContent()) ?? '', /AUTH\.INSUFFICIENT_SCOPE.*lacks the scope bridge:admin/);
    assert.match((await page.getByRole('table', { name: 'Empty' }).textContent()) ?? '', /No things yet\./);
    await page.context().close();
  });

  test('Form: the refused input stays, the fields the details name are marked, the rest is summarized', async () => {
    const page = await open('forms');
    await page.getByLabel('Name').fill('orders');
    await page.getByLabel('URL').fill('http://orders.example');
    await page.getByRole('button', { name: 'Save target' }).click();
    const url = page.getByLabel('URL');
    await page.waitForFunction(() => document.activeElement?.getAttribute('aria-invalid') === 'true');
    assert.is(await url.getAttribute('aria-invalid'), 'true');
    assert.is(await url.inputValue(), 'http://orders.example', 'the input is kept');
    assert.is(await page.getByLabel('Name').inputValue(), 'orders');
    assert.is(await page.getByLabel('Name').getAttribute('aria-invalid'), null);
    const describedBy = (await url.getAttribute('aria-describedby'))!.split(' ');
    const texts = await Promise.all(describedBy.map((id) => page.locator(`[id="${id}"]`).textContent()));
    assert.ok(texts.includes('must be an https URL'), JSON.stringify(texts));
    assert.ok(texts.includes('Where the target delivers (https)'));
    const summary = page.locator('.form-summary').getByRole('alert');
    assert.match((await summary.textContent()) ?? '', /TARGET\.INVALID/);
    assert.match((await page.locator('.form-problems').textContent()) ?? '', /retry\.attempts must be at most 10/);
    problems.push(...(await review(page, 'components-form')));

    await url.fill('https://orders.example');
    await page.getByRole('button', { name: 'Save target' }).click();
    await page.getByText('saved orders').waitFor();
    assert.is(await url.getAttribute('aria-invalid'), null, 'the marks go with the next submit');
    await page.context().close();
  });

  test('ConfirmDialog by keyboard; CopyButton copies and says so', async () => {
    const page = await open('dialogs');
    const opener = page.getByRole('button', { name: 'Delete bus' });
    await opener.focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'Delete bus orders?' });
    await dialog.waitFor();
    assert.is(
      await page.evaluate(() => document.activeElement?.textContent),
      'Cancel',
      'the safe choice has the focus',
    );
    problems.push(...(await review(page, 'components-dialog')));
    await page.keyboard.press('Escape');
    await page.getByText('cancelled').waitFor();
    assert.is(await dialog.count(), 0);
    assert.is(
      await page.evaluate(() => document.activeElement?.textContent),
      'Delete bus',
      'the focus is back on the opener',
    );
    await page.keyboard.press('Enter');
    await dialog.waitFor();
    await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');
    await page.getByText('deleted').waitFor();

    await page.getByRole('button', { name: 'Copy secret' }).click();
    await page.getByRole('status').getByText('Copied to the clipboard').waitFor();
    assert.is(await page.evaluate(() => navigator.clipboard.readText()), 's3cr3t-shown-once');
    await page.context().close();
  });

  test('no serious or critical accessibility violation, and the CSP refused nothing', () => {
    assert.equal(problems, []);
    assert.equal(reports, []);
  });

  test.after(async () => {
    await browser.close();
    await harness.close();
  });
  test.run();
}
