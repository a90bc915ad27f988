// The Audit area's download in Chromium, under the portal's Content-Security-Policy: a streamed export
// shows its progress (bytes and records received, of how many) while the body arrives, can be cancelled
// (no file), completes as a file with the whole body, and a refusal shows the API's code in place. The
// fixture (audit-components/harness.tsx) is built with Vite and served on loopback beside a real
// streaming endpoint that sends a line at a time.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { CHROMIUM } from './browser-kit.ts';

if (!existsSync(CHROMIUM)) {
  console.log('SKIPPED: the audit download in Chromium (install the chromium package)');
} else {
  await run();
}

async function run() {
  const { launchChromium, openHarnessPage, review, serveHarness } = await import('./browser-kit.ts');

  const LINES = ['sequence,business_code', '5,P-5', '4,P-4', '3,P-3', '2,P-2', '1,P-1'];
  /** the streamed answer's lines are sent when the spec says so */
  let sendNext: Array<() => void> = [];
  const bodies: string[] = [];
  const sendLine = () => {
    const next = sendNext.shift();
    if (next === undefined) throw new Error('no line waiting');
    next();
  };
  const harness = await serveHarness({
    root: path.join(import.meta.dirname, 'audit-components'),
    html: 'harness.html',
    handle: (req, res) => {
      const url = req.url ?? '/';
      if (url.startsWith('/portal/api/slow')) {
        let body = '';
        req.on('data', (c: Buffer) => (body += c.toString()));
        req.on('end', () => {
          bodies.push(`${req.headers['x-portal']} ${url} ${body}`);
          res.writeHead(200, {
            'content-type': 'text/csv; charset=utf-8',
            'content-disposition': 'attachment; filename="audit-log-demo.csv"',
          });
          let i = 0;
          const push = () => {
            if (i >= LINES.length) return void res.end();
            res.write(`${LINES[i++]}\n`);
            sendNext.push(push);
          };
          push();
        });
        return true;
      }
      if (url.startsWith('/portal/api/refused')) {
        res.writeHead(403, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ code: 'AUTH.INSUFFICIENT_SCOPE', message: 'the token lacks the scope audit:read' }));
        return true;
      }
      return false;
    },
  });
  const browser: Browser = await launchChromium();
  const reports: string[] = [];
  const problems: string[] = [];
  const page: Page = await openHarnessPage(browser, reports, {
    viewport: { width: 1280, height: 800 },
    acceptDownloads: true,
  });
  const streamed = page.getByRole('region', { name: 'Streamed' });
  const progress = streamed.locator('.audit-download-progress');
  const waitLines = (n: number) =>
    page.waitForFunction(
      (text) => document.querySelector('[aria-label="Streamed"] .audit-download-progress')?.textContent?.includes(text),
      `${n} of 5 records`,
    );
  const waitForWaitingLine = async () => {
    for (let i = 0; i < 200 && sendNext.length === 0; i++) await new Promise((r) => setTimeout(r, 10));
  };

  const test = suite('the audit download in Chromium');

  test.after(async () => {
    await browser.close();
    await harness.close();
  });

  test('progress while the body streams, then Cancel: no file, and the button is back', async () => {
    await page.goto(harness.base);
    await page.getByRole('heading', { name: 'Downloads' }).waitFor();
    let downloads = 0;
    page.on('download', () => downloads++);
    await streamed.getByRole('button', { name: 'Export records' }).click();
    await waitForWaitingLine();
    await waitLines(0); // the header line: no record yet
    await waitForWaitingLine();
    sendLine();
    await waitLines(1);
    await waitForWaitingLine();
    sendLine();
    await waitLines(2);
    assert.match((await progress.textContent()) ?? '', /\d+ B received · 2 of 5 records/);
    assert.equal(
      await progress.locator('progress').evaluate((el: HTMLProgressElement) => [el.value, el.max]),
      [2, 5],
      'the bar stands at the records received of the records expected',
    );
    assert.match(
      bodies[0]!,
      /^1 \/portal\/api\/slow\?format=csv \{"q":1\}$/,
      'the portal header, the format and the body',
    );
    problems.push(...(await review(page, 'audit-download-progress')));
    await streamed.getByRole('button', { name: 'Cancel download' }).click();
    await page.getByText('Download cancelled').waitFor();
    await streamed.getByRole('button', { name: 'Export records' }).waitFor();
    assert.is(await progress.textContent(), '');
    assert.is(downloads, 0, 'a cancelled download gives no file');
  });

  test('a download that completes is a file with the whole body, and says how many rows', async () => {
    sendNext = [];
    const pending = page.waitForEvent('download');
    await streamed.getByRole('button', { name: 'Export records' }).click();
    for (let i = 1; i < LINES.length; i++) {
      await waitForWaitingLine();
      sendLine();
    }
    await waitForWaitingLine();
    sendLine(); // the end
    const file = await pending;
    assert.is(file.suggestedFilename(), 'audit-log-demo.csv');
    assert.is(readFileSync((await file.path())!, 'utf8'), `${LINES.join('\n')}\n`);
    await page.getByText('Downloaded audit-log-demo.csv (5 rows,').waitFor();
  });

  test("a refusal shows the API's code and message in place", async () => {
    await page.getByRole('button', { name: 'Export refused' }).click();
    const alert = page.getByRole('region', { name: 'Refused' }).getByRole('alert');
    await alert.waitFor();
    assert.match((await alert.textContent()) ?? '', /AUTH\.INSUFFICIENT_SCOPE.*lacks the scope audit:read/);
  });

  test('no serious or critical accessibility violation, no CSP refusal', () => {
    assert.equal(problems, []);
    assert.equal(reports, []);
  });

  test.run();
}
