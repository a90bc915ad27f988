// The bridge editors' logic in Chromium, under the portal's Content-Security-Policy with a style nonce
// (CodeMirror's styles must carry it): the pattern editor's states as the user types (valid, not JSON,
// refused with the API's code and message and the place marked, unavailable, empty; one check per pause,
// not per keystroke) and the conversion preview (the body shown, a conversion that does not convert, a
// refusal marking its field, nothing asked while the input is not JSON, the newest answer winning). The
// fixtures (bridge-components/harness.tsx) are built with Vite into a temporary folder, served on loopback.
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { CHROMIUM } from './browser-kit.ts';

if (!existsSync(CHROMIUM)) {
  console.log('SKIPPED: the bridge editors in Chromium (install the chromium package)');
} else {
  await run();
}

async function run() {
  const { launchChromium, openHarnessPage, review, serveHarness } = await import('./browser-kit.ts');

  const harness = await serveHarness({
    root: path.join(import.meta.dirname, 'bridge-components'),
    html: 'harness.html',
    nonce: true,
    // one chunk with React and CodeMirror, for this harness only
    chunkSizeWarningLimit: 4000,
  });
  const browser: Browser = await launchChromium();
  const problems: string[] = [];
  const reports: string[] = [];

  const open = (fixture: string, colorScheme: 'light' | 'dark' = 'light'): Promise<Page> =>
    openHarnessPage(browser, reports, {
      url: `${harness.base}#${fixture}`,
      viewport: { width: 1280, height: 900 },
      colorScheme,
      timeout: 10_000,
    });
  const typeInto = async (page: Page, label: string, text: string, delay = 0) => {
    await page.getByRole('textbox', { name: label, exact: true }).click();
    await page.keyboard.press('ControlOrMeta+a');
    await page.keyboard.press('Delete');
    await page.keyboard.type(text, { delay });
  };

  const test = suite('bridge editors in Chromium');

  test('pattern editor: valid, not JSON, refused by the API in place, unavailable, empty', async () => {
    const page = await open('pattern');
    const editor = page.getByRole('textbox', { name: 'Event pattern', exact: true });
    await page.getByText('The pattern is valid.').waitFor();
    // CodeMirror's styles applied under the nonce: its gutter is laid out beside the text
    assert.ok(await page.locator('.cm-gutters').isVisible());
    assert.is(await editor.getAttribute('aria-invalid'), null);

    await typeInto(page, 'Event pattern', '{"source": ["a"');
    await page.getByText(/^Not JSON:/).waitFor();
    assert.is(await editor.getAttribute('aria-invalid'), 'true');

    const before = await page.evaluate(() => window.validated.length);
    await typeInto(page, 'Event pattern', '{"source": ["a"], "bad": [true]}', 20);
    const refused = page.locator('[data-code="PATTERN.INVALID"]');
    await refused.waitFor();
    assert.match((await refused.textContent()) ?? '', /PATTERN\.INVALID\s*Invalid pattern at bad\[0\]/);
    const calls = (await page.evaluate(() => window.validated.length)) - before;
    assert.ok(calls >= 1 && calls <= 3, `one check per pause, not per keystroke (${calls} for 32 keys)`);
    // the API's path, found in the text and underlined there
    assert.is(await page.locator('.cm-lintRange-error').textContent(), 'true');
    assert.is(await editor.getAttribute('aria-invalid'), 'true');
    // the message is what the editor is described by
    const described = (await editor.getAttribute('aria-describedby')) ?? '';
    const description = await page.evaluate(
      (ids) =>
        ids
          .split(' ')
          .map((id) => document.getElementById(id)?.textContent ?? '')
          .join(' '),
      described,
    );
    assert.match(description, /Invalid pattern at bad\[0\]/);
    problems.push(...(await review(page, 'components-pattern-refused')));

    await typeInto(page, 'Event pattern', '{"source": ["a"]}');
    await page.getByText('The pattern is valid.').waitFor();
    assert.is(await refused.count(), 0);
    assert.is(await page.locator('.cm-lintRange-error').count(), 0);

    await typeInto(page, 'Event pattern', '{"down": ["a"]}');
    await page.locator('[data-code="SERVICE.UNAVAILABLE"]').waitFor();
    await typeInto(page, 'Event pattern', '');
    await page.getByText('Enter a pattern.').waitFor();
    await typeInto(page, 'Event pattern', '["a"]');
    await page.getByText('Not JSON: A pattern is a JSON object.').waitFor();
    // Tab is not captured: a keyboard user leaves the editor with it
    await editor.focus();
    await page.keyboard.press('Tab');
    assert.is(await page.evaluate(() => document.activeElement?.classList.contains('cm-content')), false);
    assert.is(await editor.textContent(), '["a"]', 'the Tab typed nothing');
    await page.context().close();
  });

  test('conversion preview: the body, no conversion, a refused field, nothing asked for bad JSON, newest wins', async () => {
    const page = await open('conversion');
    const release = (order?: 'in-order' | 'newest-first') => page.evaluate((o) => window.releasePreviews(o), order);
    const body = page.locator('.preview-body');
    await page.waitForFunction(() => window.previews.length === 1);
    await release();
    await body.waitFor();
    assert.equal(JSON.parse((await body.textContent()) ?? ''), {
      id: 's-1',
      source: 'shop:orders',
      data: { amount: 5 },
    });

    await page.getByLabel('Conversion', { exact: true }).selectOption('partial');
    await page.getByLabel('JSONPath', { exact: true }).fill('$.nothing');
    await page.waitForFunction(() => window.previews.some((p) => (p as { path?: string }).path === '$.nothing'));
    await release();
    await page.getByText('Does not convert: JSONPath $.nothing: path matched nothing').waitFor();

    await page.getByLabel('JSONPath', { exact: true }).fill('data');
    await page.waitForFunction(() => window.previews.some((p) => (p as { path?: string }).path === 'data'));
    await release();
    await page.getByText('must start with $', { exact: true }).waitFor();
    assert.is(await page.getByLabel('JSONPath', { exact: true }).getAttribute('aria-invalid'), 'true');
    problems.push(...(await review(page, 'components-conversion-refused')));

    // a constant that is not JSON yet: said in place, the API not asked
    await page.getByLabel('Conversion', { exact: true }).selectOption('constant');
    await page.getByLabel('Constant (JSON)').fill('{"a": ');
    await page
      .getByText(/^Not JSON:/)
      .first()
      .waitFor();
    // counted once the text is not JSON: the kind's own preview, asked for on the select, is sent or dropped by now
    const asked = await page.evaluate(() => window.previews.length);
    await page.getByLabel('Constant (JSON)').fill('{"a": [');
    await page.waitForTimeout(200); // longer than the preview's pause after typing
    assert.is(await page.evaluate(() => window.previews.length), asked);

    // two answers outstanding, the older arriving last: the newest input's body is shown
    await page.getByLabel('Constant (JSON)').fill('{"n": 1}');
    await page.waitForFunction(() => window.previews.some((p) => JSON.stringify(p).includes('"n":1')));
    await page.getByLabel('Constant (JSON)').fill('{"n": 2}');
    await page.waitForFunction(() => window.previews.some((p) => JSON.stringify(p).includes('"n":2')));
    await release('newest-first');
    await body.waitFor();
    await page.waitForTimeout(100);
    assert.equal(JSON.parse((await body.textContent()) ?? ''), { n: 2 });
    await page.context().close();
  });

  test('dark: the editor follows the system colours (axe checks the contrast)', async () => {
    const page = await open('pattern', 'dark');
    await page.getByText('The pattern is valid.').waitFor();
    const colours = await page.evaluate(() => {
      const content = getComputedStyle(document.querySelector('.cm-content')!).color;
      const body = getComputedStyle(document.body).color;
      return { content, body };
    });
    assert.is(colours.content, colours.body);
    problems.push(...(await review(page, 'components-pattern-dark')));
    await page.context().close();
  });

  test('no serious or critical accessibility problem, nothing the CSP refused', () => {
    assert.equal(problems, []);
    assert.equal(reports, []);
  });

  test.after(async () => {
    await browser.close();
    await harness.close();
  });

  test.run();
}
