// The hub's customer-policy pages in Debian's headless Chromium: the demo admin sets an ALLOW and then a
// DENY preference for a recipient and sees the gate's answer change (CHANNEL, then EXACT), removes both
// behind the confirmation and the default answers again; sets a frequency cap and sees it listed readably
// with the recipient's usage, deletes it; sets overnight quiet hours by keyboard only (a time the API
// refuses is shown beside its window, fixed, saved), deletes them. What the pages show is checked against
// the API. Every page is scanned by axe-core and photographed at 1280 and 390 px (.screenshots/portal/);
// nothing may be refused by the CSP.
import { existsSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { CHROMIUM } from './browser-kit.ts';

if (!existsSync(CHROMIUM)) {
  console.log('SKIPPED: the hub customer-policy pages in Chromium (install the chromium package)');
} else {
  await run();
}

async function run() {
  const { ensurePortalBuilt, launchChromium, review } = await import('./browser-kit.ts');
  const { ADMIN, portalApi, portalSignIn, startPortalPlatform } = await import(
    '../../spec/http/portal/portal-harness.ts'
  );

  ensurePortalBuilt();
  const p = await startPortalPlatform();
  const browser: Browser = await launchChromium();
  const { jar } = await portalSignIn(p.base);
  const hubGet = async (path: string) => {
    const r = await portalApi(p.base, jar, `/comm/v1${path}`);
    assert.is(r.status, 200, `${path}: ${await r.clone().text()}`);
    return (await r.json()) as Record<string, unknown>;
  };

  const problems: string[] = [];
  const refusals: string[] = [];
  const look = async (page: Page, name: string) => {
    await page.waitForLoadState('networkidle');
    problems.push(...(await review(page, name)));
  };
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  page.on('console', (m) => {
    if (/Content Security Policy|Refused to/i.test(m.text())) refusals.push(m.text());
  });
  page.on('pageerror', (e) => refusals.push(`page error: ${e.message}`));

  /** Tab (forward) until the focused element's text or label is `name`: how a keyboard user gets there */
  const tabTo = async (name: string | RegExp) => {
    for (let i = 0; i < 80; i++) {
      await page.keyboard.press('Tab');
      const focused = await page.evaluate(() => {
        const e = document.activeElement as HTMLElement | null;
        if (e === null) return '';
        const label = e.id !== '' ? document.querySelector(`label[for="${e.id}"]`)?.textContent : null;
        return (label ?? e.textContent ?? '').trim();
      });
      if (typeof name === 'string' ? focused === name : name.test(focused)) return;
    }
    throw new Error(`Tab never reached ${String(name)}`);
  };

  const test = suite('the hub customer-policy pages in Chromium');

  test('preferences: ALLOW then DENY change what the gate answers; removing them brings the default back', async () => {
    await page.goto(`${p.base}/portal/hub/preferences`);
    await page.getByRole('button', { name: 'Continue to sign-in' }).click();
    await page.waitForURL((u) => u.pathname === '/cas/oidc/authorize');
    await page.getByLabel('Username').fill(ADMIN.username);
    await page.getByLabel('Password').fill(ADMIN.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { level: 1, name: 'Customer preferences' }).waitFor();
    await page.getByText('Enter a recipient ID').waitFor();
    await page.getByLabel('Recipient ID').fill('C-7');
    await page.getByRole('button', { name: 'Look up' }).click();
    await page.waitForURL((u) => u.searchParams.get('RecipientId') === 'C-7');
    await page.getByText('No stored preference').waitFor();

    const gate = page.getByRole('region', { name: 'What the gate answers now' });
    await gate.getByLabel('Channel').fill('EMAIL');
    await gate.getByLabel('Notification class').fill('TRANSACTIONAL');
    await gate.getByRole('button', { name: 'Ask the gate' }).click();
    const answer = gate.getByRole('definition');
    await gate.getByText('Not allowed').waitFor();
    await gate.getByText('DEFAULT', { exact: true }).waitFor();
    await look(page, 'hub-preferences-empty');

    const set = page.getByRole('region', { name: 'Set a preference' });
    await set.getByLabel('Channel').fill('EMAIL');
    await set.getByLabel('Decision').selectOption('ALLOW');
    await set.getByRole('button', { name: 'Set preference' }).click();
    await page.getByRole('rowheader', { name: 'EMAIL' }).waitFor();
    // the answer already shown is asked again: the channel's * ALLOW applies
    await gate.getByText('Allowed', { exact: true }).waitFor();
    await gate.getByText('CHANNEL', { exact: true }).waitFor();

    await set.getByLabel('Notification class').fill('TRANSACTIONAL');
    await set.getByLabel('Decision').selectOption('DENY');
    await set.getByRole('button', { name: 'Set preference' }).click();
    await page.getByRole('button', { name: 'Remove EMAIL TRANSACTIONAL' }).waitFor();
    await gate.getByText('Not allowed').waitFor();
    await gate.getByText('EXACT', { exact: true }).waitFor();
    assert.match((await answer.allTextContents()).join(' '), /DENY on TRANSACTIONAL/);
    const stored = await hubGet('/preferences?recipientId=C-7');
    assert.equal(
      (stored.Items as Array<{ NotificationClass: string; Decision: string }>)
        .map((x) => `${x.NotificationClass}:${x.Decision}`)
        .sort(),
      ['*:ALLOW', 'TRANSACTIONAL:DENY'],
    );

    // a refused input stays and its field is marked
    await set.getByLabel('Channel').fill('e-mail');
    await set.getByRole('button', { name: 'Set preference' }).click();
    await set.getByRole('alert').waitFor();
    assert.is(await set.getByLabel('Channel').getAttribute('aria-invalid'), 'true');
    assert.is(await set.getByLabel('Channel').inputValue(), 'e-mail');
    await look(page, 'hub-preferences');

    await page.getByRole('button', { name: 'Remove EMAIL TRANSACTIONAL' }).click();
    const dialog = page.getByRole('dialog', { name: /Remove the preference on EMAIL, TRANSACTIONAL/ });
    await dialog.waitFor();
    await dialog.getByRole('button', { name: 'Remove preference' }).click();
    await page.getByRole('button', { name: 'Remove EMAIL TRANSACTIONAL' }).waitFor({ state: 'detached' });
    await gate.getByText('CHANNEL', { exact: true }).waitFor();
    await page.getByRole('button', { name: 'Remove EMAIL *' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Remove preference' }).click();
    await page.getByText('No stored preference').waitFor();
    await gate.getByText('DEFAULT', { exact: true }).waitFor();
    assert.equal((await hubGet('/preferences?recipientId=C-7')).Items, []);
  });

  test('frequency caps: a cap set is listed readably, with a recipient’s usage; deleted again', async () => {
    await page.getByRole('link', { name: 'Frequency caps' }).click();
    await page.getByRole('heading', { level: 1, name: 'Frequency caps' }).waitFor();
    await page.getByText('No frequency cap').waitFor();
    await page.getByLabel('Category').fill('TRANSACTIONAL');
    await page.getByLabel('Limit (messages)').fill('3');
    await page.getByLabel('Window length').fill('1');
    await page.getByLabel('Window unit').selectOption({ label: 'days' });
    await page.getByRole('button', { name: 'Save cap' }).click();
    const row = page.getByRole('row', { name: /TRANSACTIONAL/ });
    await row.getByRole('cell', { name: '3 per 1 day' }).waitFor();
    const caps = (await hubGet('/frequency-caps')).Items as Array<Record<string, unknown>>;
    assert.equal(
      caps.map((c) => [c.Category, c.Limit, c.WindowSeconds]),
      [['TRANSACTIONAL', 3, 86400]],
    );

    // a limit the API refuses marks its field and keeps the input
    await page.getByLabel('Limit (messages)').fill('many');
    await page.getByRole('button', { name: 'Save cap' }).click();
    await page.getByRole('alert').filter({ hasText: 'Not saved' }).waitFor();
    assert.is(await page.getByLabel('Limit (messages)').getAttribute('aria-invalid'), 'true');
    assert.is(await page.getByLabel('Limit (messages)').inputValue(), 'many');

    await page.getByLabel('Recipient ID for usage').fill('C-7');
    await page.getByRole('button', { name: 'Show usage' }).click();
    const usage = page.getByRole('table', { name: 'Usage of C-7 now' });
    await usage.getByRole('cell', { name: '3 per 1 day' }).waitFor();
    assert.equal(await usage.getByRole('row').nth(1).getByRole('cell').allTextContents(), ['3 per 1 day', '0', '3']);
    await look(page, 'hub-caps');

    await page.getByRole('button', { name: 'Delete TRANSACTIONAL' }).click();
    await page.getByRole('dialog', { name: /Delete the cap of TRANSACTIONAL/ }).waitFor();
    await page.getByRole('button', { name: 'Delete cap' }).click();
    await page.getByText('No frequency cap').waitFor();
    assert.equal((await hubGet('/frequency-caps')).Items, []);
  });

  test('quiet hours by keyboard only: an overnight window, a refused time shown beside it, fixed, saved, deleted', async () => {
    await page.getByRole('link', { name: 'Quiet hours' }).click();
    const heading = page.getByRole('heading', { level: 1, name: 'Quiet hours' });
    await heading.waitFor();
    await page.getByText('No channel has quiet hours').waitFor();
    await page.getByText(/Times are local to the tenant's time zone/).waitFor();
    await look(page, 'hub-quiet-hours-empty');

    await heading.focus(); // where the shell puts the focus after a navigation
    await tabTo('New quiet hours');
    await page.keyboard.press('Enter');
    await tabTo('Channel *');
    await page.keyboard.type('EMAIL');
    await tabTo('Start of window 1');
    await page.keyboard.press('ControlOrMeta+a');
    await page.keyboard.type('22:00');
    await page.keyboard.press('Tab');
    await page.keyboard.press('ControlOrMeta+a');
    await page.keyboard.type('7:00');
    await tabTo('Save quiet hours');
    await page.keyboard.press('Enter');

    const end = page.getByLabel('End of window 1');
    await page.getByRole('alert').filter({ hasText: 'QUIET_HOURS.INVALID' }).waitFor();
    await page.getByText('End must be a local time HH:mm', { exact: true }).waitFor();
    assert.is(await end.getAttribute('aria-invalid'), 'true');
    assert.ok(await end.evaluate((e) => e === document.activeElement), 'the refused End takes the focus');
    assert.is(await end.inputValue(), '7:00');
    await look(page, 'hub-quiet-hours-refused');

    await page.keyboard.press('ControlOrMeta+a');
    await page.keyboard.type('07:00');
    await page.getByText('Overnight: from 22:00 until 07:00 the next morning').waitFor();
    await tabTo('Save quiet hours');
    await page.keyboard.press('Enter');
    const row = page.getByRole('row', { name: /EMAIL/ });
    await row.getByText('22:00–07:00').waitFor();
    assert.equal((await hubGet('/quiet-hours/EMAIL')).Windows, [{ Start: '22:00', End: '07:00' }]);
    await look(page, 'hub-quiet-hours');

    await heading.focus();
    await tabTo('Delete EMAIL');
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'Delete the quiet hours of EMAIL?' });
    await dialog.waitFor();
    assert.ok(
      await dialog.getByRole('button', { name: 'Cancel' }).evaluate((e) => e === document.activeElement),
      'the dialog opens on its safe choice',
    );
    await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');
    await page.getByText('No channel has quiet hours').waitFor();
    assert.equal((await hubGet('/quiet-hours')).Items, []);
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
