// What the portal's browser specs share (not a spec itself): Debian's headless Chromium through
// playwright-core, a fresh build of the portal when portal/dist is missing or older than its sources, an
// axe-core scan of each page (no serious or critical violation), and a screenshot of each page at 1280 and
// 390 px under .screenshots/portal/ (git-ignored) for a reviewer to look at; and, for the component
// specs, a harness page built and served under the portal's CSP with a page on it (harness-server.ts).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { Browser, BrowserContextOptions, Page } from 'playwright-core';

export { CHROMIUM, launchChromium } from '../../spec/core/chromium.ts';
export {
  type Harness,
  type HarnessOptions,
  type HarnessPageOptions,
  openHarnessPage,
  serveHarness,
} from './harness-server.ts';
export const ROOT = path.resolve(import.meta.dirname, '..', '..');
const PORTAL = path.join(ROOT, 'portal');
export const SCREENSHOTS = path.join(ROOT, '.screenshots', 'portal');
export const WIDTHS = [1280, 390] as const;

const newest = (p: string): number => {
  const s = statSync(p);
  if (!s.isDirectory()) return s.mtimeMs;
  return readdirSync(p).reduce((m, name) => Math.max(m, newest(path.join(p, name))), s.mtimeMs);
};

/** builds the portal unless portal/dist is newer than everything it is built from */
export function ensurePortalBuilt(): void {
  const index = path.join(PORTAL, 'dist', 'index.html');
  const sources = Math.max(
    newest(path.join(PORTAL, 'src')),
    newest(path.join(PORTAL, 'index.html')),
    newest(path.join(PORTAL, 'vite.config.ts')),
  );
  if (existsSync(index) && statSync(index).mtimeMs >= sources) return;
  const vite = path.join(ROOT, 'node_modules', 'vite', 'bin', 'vite.js');
  const run = spawnSync(process.execPath, [vite, 'build', '--config', 'portal/vite.config.ts', '--logLevel', 'warn'], {
    cwd: ROOT,
    encoding: 'utf8',
  });
  if (run.status !== 0) throw new Error(`the portal build failed:\n${run.stdout}\n${run.stderr}`);
}

// injected as an evaluation, not a <script>: the portal's Content-Security-Policy refuses inline scripts
// (addScriptTag's), which is what the CSP is for
const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

type AxeViolation = { id: string; impact: string | null; help: string; nodes: Array<{ target: unknown[] }> };

/** the serious and critical violations axe-core finds on the page as it is */
export async function axeViolations(page: Page): Promise<string[]> {
  if (!(await page.evaluate(() => 'axe' in globalThis))) await page.evaluate(AXE_SOURCE);
  const violations = await page.evaluate(async () => {
    const axe = (globalThis as unknown as { axe: { run(o: object): Promise<{ violations: AxeViolation[] }> } }).axe;
    return (await axe.run({ resultTypes: ['violations'] })).violations;
  });
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.impact} ${v.id}: ${v.help} (${v.nodes.map((n) => JSON.stringify(n.target)).join(', ')})`);
}

/**
 * A page as a reviewer sees it: at each width, an axe scan and a screenshot
 * (.screenshots/portal/<name>-<width>.png). Answers every serious or critical violation found.
 */
export async function review(page: Page, name: string): Promise<string[]> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  const before = page.viewportSize() ?? { width: 1280, height: 800 };
  const problems: string[] = [];
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: width > 600 ? 800 : 844 });
    problems.push(...(await axeViolations(page)).map((v) => `${name} at ${width}px: ${v}`));
    await page.screenshot({ path: path.join(SCREENSHOTS, `${name}-${width}.png`), fullPage: true });
  }
  await page.setViewportSize(before);
  return problems;
}

/**
 * A page in a fresh context that collects what a spec asserts empty at its end: the axe problems of every
 * page it `look`s at (review's scan and screenshots, once the network is idle), and every refusal by the
 * CSP and page error.
 */
export async function watchedPage(
  browser: Browser,
  options: BrowserContextOptions = { viewport: { width: 1280, height: 800 } },
) {
  const problems: string[] = [];
  const refusals: string[] = [];
  const context = await browser.newContext(options);
  const page = await context.newPage();
  page.on('console', (m) => {
    if (/Content Security Policy|Refused to/i.test(m.text())) refusals.push(m.text());
  });
  page.on('pageerror', (e) => refusals.push(`page error: ${e.message}`));
  const look = async (on: Page, name: string) => {
    await on.waitForLoadState('networkidle');
    problems.push(...(await review(on, name)));
  };
  return { context, page, problems, refusals, look };
}
