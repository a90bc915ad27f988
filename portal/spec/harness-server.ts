// What the component specs share (not a spec itself): a harness page (an HTML file and the fixtures it
// loads) built with Vite into a temporary folder and served on loopback under the portal's
// Content-Security-Policy, and a Chromium page on it that collects what the CSP refused and every page
// error. Vite and the platform's router are loaded only when a harness is served, so that a spec that
// skips (no Chromium) or never serves one does not load them.
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser, BrowserContextOptions, Page } from 'playwright-core';

export type HarnessOptions = {
  /** the folder with the harness page and its fixtures */
  root: string;
  /** the harness page's file name in root (also what `/` answers) */
  html: string;
  /**
   * a fresh style nonce on every answer, as the platform gives the portal: in the CSP's style-src and in
   * place of each __CSP_NONCE__ in the page
   */
  nonce?: boolean;
  /** Vite's chunk size warning limit (kB), for a harness whose one chunk is large */
  chunkSizeWarningLimit?: number;
  /** asked first on every request: answers true when it has answered it (an API the fixtures call) */
  handle?: (req: IncomingMessage, res: ServerResponse) => boolean;
};

export type Harness = {
  /** the harness page's URL */
  base: string;
  /** stops the server and removes the build */
  close(): Promise<void>;
};

const contentType = (file: string): string =>
  file.endsWith('.js') ? 'text/javascript' : file.endsWith('.css') ? 'text/css' : 'text/html; charset=utf-8';

/** builds the harness page with Vite into a temporary folder and serves it on 127.0.0.1 under the portal's CSP */
export async function serveHarness(options: HarnessOptions): Promise<Harness> {
  const { root, html, nonce = false, chunkSizeWarningLimit, handle } = options;
  const { contentSecurityPolicy } = await import('../../http/portal/spa.router.ts');
  const { build } = await import('vite');
  const react = (await import('@vitejs/plugin-react')).default;

  const out = mkdtempSync(path.join(tmpdir(), `portal-${path.basename(root)}-`));
  await build({
    configFile: false,
    root,
    base: './',
    logLevel: 'warn',
    plugins: [react()],
    build: {
      outDir: out,
      emptyOutDir: true,
      assetsInlineLimit: 0,
      ...(chunkSizeWarningLimit === undefined ? {} : { chunkSizeWarningLimit }),
      rolldownOptions: { input: path.join(root, html), checks: { pluginTimings: false } },
    },
  });
  const server = createServer((req, res) => {
    if (handle?.(req, res)) return;
    const file = path.join(out, decodeURIComponent((req.url ?? '/').split(/[?#]/)[0]!).replace(/^\/$/, `/${html}`));
    if (!file.startsWith(out) || !existsSync(file)) {
      res.writeHead(404).end();
      return;
    }
    const type = contentType(file);
    const once = nonce ? randomBytes(16).toString('base64') : undefined;
    const body =
      once !== undefined && type.startsWith('text/html')
        ? readFileSync(file, 'utf8').replaceAll('__CSP_NONCE__', once)
        : readFileSync(file);
    res
      .writeHead(200, {
        'content-type': type,
        'content-security-policy': contentSecurityPolicy('http://127.0.0.1', once),
      })
      .end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}/${html}`,
    close: async () => {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      rmSync(out, { recursive: true, force: true });
    },
  };
}

export type HarnessPageOptions = BrowserContextOptions & {
  /** opened, and waited on until its first-level heading shows; without it the page stays blank */
  url?: string;
  /** granted to the origin of url (to every origin without one) */
  permissions?: string[];
  /** the context's default timeout (ms) */
  timeout?: number;
};

/**
 * A page in a fresh context (close it with page.context().close()). What the CSP refuses and every page
 * error is added to reports.
 */
export async function openHarnessPage(
  browser: Browser,
  reports: string[],
  { url, permissions, timeout, ...contextOptions }: HarnessPageOptions = {},
): Promise<Page> {
  const context = await browser.newContext(contextOptions);
  if (timeout !== undefined) context.setDefaultTimeout(timeout);
  if (permissions !== undefined) {
    await context.grantPermissions(permissions, url === undefined ? {} : { origin: new URL(url).origin });
  }
  const page = await context.newPage();
  page.on('console', (m) => {
    if (/Content Security Policy|Refused to/i.test(m.text())) reports.push(m.text());
  });
  page.on('pageerror', (e) => reports.push(`page error: ${e.message}`));
  if (url !== undefined) {
    await page.goto(url);
    await page.getByRole('heading', { level: 1 }).waitFor();
  }
  return page;
}
