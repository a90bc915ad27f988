// The Operations area in Debian's headless Chromium: the demo admin sees the projections, rebuilds one
// from the page and watches its progress bar until the switch, retries a projection's parked events and
// reads readiness with the work engines' backlogs; a user without ops:admin is not offered the area.
// Every page is scanned by axe-core and photographed at 1280 and 390 px (.screenshots/portal/).
import { existsSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { CHROMIUM } from './browser-kit.ts';

if (!existsSync(CHROMIUM)) {
  console.log('SKIPPED: the Operations area in Chromium (install the chromium package)');
} else {
  await run();
}

async function run() {
  const { ensurePortalBuilt, launchChromium, review } = await import('./browser-kit.ts');
  const { ADMIN, portalApi, portalSignIn, startPortalPlatform } = await import(
    '../../spec/http/portal/portal-harness.ts'
  );
  const { streamName } = await import('../../domain/core/stream-name.ts');
  const { parkedEvents } = await import('../../projections/core/parked-events.ts');

  ensurePortalBuilt();
  // small rebuild pages: the rebuild of the seeded log takes long enough for its progress to be seen
  process.env.OPS_REBUILD_PAGE_SIZE = '50';
  const p = await startPortalPlatform();
  const browser: Browser = await launchChromium();
  const BRIDGE_USER = { username: 'bridget', password: 'bridge only password' };

  // a few thousand events for the stream catalog to rebuild from
  const now = new Date().toISOString();
  for (let i = 0; i < 4000; i += 500) {
    await p.platform.stores.eventStore.appendMany(
      Array.from({ length: 500 }, (_, j) => ({
        stream: streamName('opsbrowser', 'demo', `s${i + j}`),
        expected: 'any' as const,
        events: [
          {
            id: `ops-browser-${i + j}`,
            type: 'Seeded',
            data: {},
            metadata: { tenant: 'demo', occurredAt: now, schemaVersion: 1 },
          },
        ],
      })),
    );
  }
  // one parked event of the stream catalog, which applies when retried
  const [event] = await p.platform.stores.eventStore.readStream(streamName('opsbrowser', 'demo', 's0'));
  await parkedEvents(p.platform.stores.readStore).upsert({
    id: `core.streams@${event!.position}`,
    projection: 'core.streams',
    position: event!.position,
    eventId: event!.id,
    stream: event!.stream,
    revision: 0,
    type: event!.type,
    error: 'the read store was full',
    parkedAt: now,
    retries: 0,
  });
  const { jar } = await portalSignIn(p.base);
  {
    const created = await portalApi(p.base, jar, '/cas/admin/v1/users', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ ...BRIDGE_USER, name: 'Bridget Only', roles: ['bridge:admin'] }),
    });
    if (created.status !== 201) throw new Error(`creating the user answered ${created.status}`);
  }

  const problems: string[] = [];
  const look = async (page: Page, name: string) => {
    await page.waitForLoadState('networkidle');
    problems.push(...(await review(page, name)));
  };
  const signIn = async (page: Page, user: { username: string; password: string }, path: string) => {
    await page.goto(`${p.base}${path}`);
    await page.getByRole('button', { name: 'Continue to sign-in' }).click();
    await page.waitForURL((u) => u.pathname === '/cas/oidc/authorize');
    await page.getByLabel('Username').fill(user.username);
    await page.getByLabel('Password').fill(user.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL((u) => u.pathname === path || u.pathname === `${path}/projections`);
  };

  const test = suite('the Operations area in Chromium');

  test('the demo admin sees the projections, rebuilds one and watches it switch', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    await signIn(page, ADMIN, '/portal/operations');
    await page.getByRole('heading', { level: 1, name: 'Projections' }).waitFor();
    const row = page.getByRole('row', { name: /core\.streams/ });
    await row.waitFor();
    assert.match((await row.textContent()) ?? '', /core\.streams\s*1\s*1/, 'version 1, generation 1');
    await page.getByRole('rowheader', { name: 'bridge.trace' }).waitFor();
    await look(page, 'operations-projections');

    // by keyboard: the confirmation opens on its safe choice, Escape cancels and gives the focus back
    const rebuildButton = page.getByRole('button', { name: 'Rebuild core.streams' });
    await rebuildButton.focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'Rebuild core.streams?' });
    await dialog.waitFor();
    assert.ok(await dialog.getByRole('button', { name: 'Cancel' }).evaluate((b) => b === document.activeElement));
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    assert.ok(await rebuildButton.evaluate((b) => b === document.activeElement), 'the focus is back on Rebuild');
    const listed = (await (await portalApi(p.base, jar, '/ops/v1/projections')).json()) as {
      items: Array<{ name: string; rebuild: unknown }>;
    };
    assert.is(
      listed.items.find((i) => i.name === 'core.streams')?.rebuild ?? null,
      null,
      'a cancelled rebuild starts nothing',
    );

    await page.keyboard.press('Enter');
    await dialog.waitFor();
    await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');

    const bar = page.getByRole('progressbar', { name: /Rebuild of core\.streams/ });
    await bar.waitFor();
    const seen = new Set<number>();
    const outcome = page.getByRole('status').filter({ hasText: /Switched|Failed/ });
    for (let i = 0; i < 600 && (await outcome.count()) === 0; i++) {
      seen.add(Number(await bar.getAttribute('aria-valuenow')));
      await page.waitForTimeout(50);
    }
    assert.match((await outcome.textContent()) ?? '', /Switched: generation 2 serves now/);
    assert.is(await bar.getAttribute('aria-valuenow'), '100');
    assert.ok(
      [...seen].some((v) => v > 0 && v < 100),
      `the bar moved through the rebuild: ${[...seen].join(', ')}`,
    );
    const figures = (await page.locator('.rebuild-figures').textContent()) ?? '';
    assert.match(figures, /100 %/);
    assert.match(figures, /events\/s/);
    assert.match(figures, /ETA/);
    // the table reads the new generation
    await page.waitForFunction(() =>
      /core\.streams\s*1\s*2/.test(
        [...document.querySelectorAll('tr')].find((r) => r.textContent?.includes('core.streams'))?.textContent ?? '',
      ),
    );
    await look(page, 'operations-rebuild');
    await context.close();
  });

  test('parked events: listed, then retried through the confirmation', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    await signIn(page, ADMIN, '/portal/operations');
    await page.getByRole('link', { name: '1 parked events of core.streams' }).click();
    await page.waitForURL((u) => u.pathname === '/portal/operations/projections/core.streams');
    await page.getByRole('heading', { level: 1, name: 'Parked events of core.streams' }).waitFor();
    await page.getByRole('cell', { name: 'the read store was full' }).waitFor();
    await look(page, 'operations-parked');

    await page.getByRole('button', { name: 'Retry parked events' }).click();
    const dialog = page.getByRole('dialog', { name: /Retry the parked events/ });
    await dialog.getByRole('button', { name: 'Retry' }).click();
    await page.getByText('1 parked event(s) applied, 0 still failing').waitFor();
    await page.getByText('No parked events: every event applied.').waitFor();
    await context.close();
  });

  test('readiness: each check and the work engines with their backlogs', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    await signIn(page, ADMIN, '/portal/operations/readiness');
    await page.getByRole('rowheader', { name: 'eventStore' }).waitFor();
    await page.getByRole('rowheader', { name: 'projection:core.streams' }).waitFor();
    const engines = page.getByRole('region', { name: 'Work engines' });
    assert.ok((await engines.getByRole('row').count()) > 2, 'the engines are listed');
    assert.match((await engines.textContent()) ?? '', /DueLeased/);
    assert.match((await page.getByRole('status').first().textContent()) ?? '', /Ready|Not ready/);
    await look(page, 'operations-readiness');
    await context.close();
  });

  test('a user without ops:admin is not offered the area', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    await signIn(page, BRIDGE_USER, '/portal/');
    const nav = page.getByRole('navigation', { name: 'Areas' });
    await nav.getByRole('link', { name: 'Event buses' }).waitFor();
    assert.not.match((await nav.textContent()) ?? '', /Operations|Projections|Readiness/);
    await page.goto(`${p.base}/portal/operations`);
    await page
      .getByText(/not available/i)
      .first()
      .waitFor();
    await context.close();
  });

  test('no serious or critical accessibility violation on any page', () => {
    assert.equal(problems, []);
  });

  test.after(async () => {
    await browser.close();
    await p.stop();
  });

  test.run();
}
