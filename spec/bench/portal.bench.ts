// The portal's weight and first load: the shell's JavaScript (gzipped) against React and ReactDOM alone
// (a one-element app built the same way), and the first load to interactive on loopback in headless
// Chromium (a fresh browser context each time, nothing cached) against the identity provider's
// server-rendered login page: the sign-in page until its tenant field takes input, and a signed-in home
// page until its areas are listed; each area's JavaScript beyond the shell. And the event-trace search over
// 100,000 traced events (trace-search.bench.ts). The task search and the audit query through the portal
// are measured where their stores are seeded (workflow.bench.ts, audit.bench.ts: portal-proxy.ts).
// Run alone: node --import tsx -e "import('./spec/bench/portal.bench.ts').then(m => m.portalBench())"
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { CHROMIUM, ensurePortalBuilt, launchChromium } from '../../portal/spec/browser-kit.ts';
import { median, printRow, printSection } from './report.ts';
import { traceSearchBench } from './trace-search.bench.ts';

const LOADS = Number(process.env.BENCH_PORTAL_LOADS ?? 7);

/** React and ReactDOM rendering one element, built by Vite as the portal is: what any React shell starts from */
async function reactAloneGzip(): Promise<number> {
  const { build } = await import('vite');
  const react = (await import('@vitejs/plugin-react')).default;
  const dir = mkdtempSync(path.join(tmpdir(), 'portal-bench-react-'));
  try {
    writeFileSync(
      path.join(dir, 'index.html'),
      '<!doctype html><html lang="en"><title>x</title><div id="root"></div><script type="module" src="./main.jsx"></script></html>',
    );
    writeFileSync(
      path.join(dir, 'main.jsx'),
      "import { createRoot } from 'react-dom/client';\ncreateRoot(document.getElementById('root')).render(<p>hello</p>);\n",
    );
    await build({
      configFile: false,
      root: dir,
      logLevel: 'silent',
      plugins: [react()],
      resolve: {
        alias: { react: path.resolve('node_modules/react'), 'react-dom': path.resolve('node_modules/react-dom') },
      },
      build: { outDir: path.join(dir, 'dist'), rolldownOptions: { checks: { pluginTimings: false } } },
    });
    const assets = path.join(dir, 'dist', 'assets');
    return readdirSync(assets)
      .filter((f) => f.endsWith('.js'))
      .reduce((sum, f) => sum + gzipSync(readFileSync(path.join(assets, f)), { level: 9 }).length, 0);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export async function portalBench(): Promise<void> {
  printSection('portal');
  ensurePortalBuilt();
  const { areaSizes, bundleSizes } = await import('../../portal/scripts/bundle-size.ts');
  const sizes = bundleSizes();
  const reactAlone = await reactAloneGzip();
  const kb = (n: number) => Math.round((n / 1024) * 10) / 10;
  printRow({
    name: "portal: the shell's JavaScript, gzipped",
    figure: kb(sizes.shellJsGzip),
    unit: 'KB',
    baseline: { name: 'React + ReactDOM alone', figure: kb(reactAlone) },
    setup: `vite build, gzip level 9; the entry chunk and what index.html loads; all JavaScript ${kb(sizes.allJsGzip)} KB, CSS ${kb(sizes.cssGzip)} KB (areas load on demand)`,
    goal: { of: 'figure', op: '<=', value: 200 },
  });

  for (const a of areaSizes()) {
    printRow({
      name: `portal: the ${a.area} area's JavaScript beyond the shell, gzipped`,
      figure: kb(a.jsGzip),
      unit: 'KB',
      baseline: { name: "the shell's JavaScript", figure: kb(sizes.shellJsGzip) },
      setup: `the chunks its pages load on their first visit and what they import, less the shell's (Vite's manifest, gzip level 9); CSS ${kb(a.cssGzip)} KB; loaded later by its pages on demand ${kb(a.onDemandJsGzip)} KB${a.area === 'workflow' ? ' (bpmn-js, by the pages that draw a diagram)' : ''}; goal: the shell's own budget`,
      goal: { of: 'figure', op: '<=', value: 200 },
    });
  }

  await traceSearchBench();

  if (!existsSync(CHROMIUM)) {
    console.log('SKIPPED: the first-load figures (install the chromium package)');
    return;
  }
  const { ADMIN, portalSignIn, startPortalPlatform } = await import('../http/portal/portal-harness.ts');
  const p = await startPortalPlatform();
  const browser = await launchChromium();
  try {
    const cold = async (
      url: string,
      ready: (page: import('playwright-core').Page) => Promise<unknown>,
      cookies: Array<{ name: string; value: string }> = [],
    ) => {
      const times: number[] = [];
      for (let i = 0; i < LOADS; i++) {
        const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
        if (cookies.length > 0) await context.addCookies(cookies.map((c) => ({ ...c, url: `${p.base}/portal/` })));
        const page = await context.newPage();
        const started = performance.now();
        await page.goto(url, { waitUntil: 'commit' });
        await ready(page);
        times.push(performance.now() - started);
        await context.close();
      }
      return median(times);
    };
    const { jar } = await portalSignIn(p.base);
    const session = [{ name: 'portal_session', value: jar.cookies.get('portal_session')! }];
    const authorize = `${p.base}/cas/oidc/authorize?${new URLSearchParams({ client_id: 'portal.demo', response_type: 'code', scope: 'openid', state: 's', nonce: 'n', code_challenge: 'x'.repeat(43), code_challenge_method: 'S256', redirect_uri: `${p.base}/portal/auth/callback` })}`;
    const loginPage = await cold(authorize, (page) => page.getByLabel('Username').waitFor());
    const signIn = await cold(`${p.base}/portal/sign-in`, (page) => page.getByLabel('Tenant').waitFor());
    const home = await cold(
      `${p.base}/portal/`,
      (page) => page.getByRole('list', { name: 'Areas' }).waitFor(),
      session,
    );
    const setup = `headless Chromium on loopback, a fresh context per load (nothing cached), median of ${LOADS}; until the page takes input`;
    const baseline = { name: "the provider's login page (HTML, no script)", figure: Math.round(loginPage) };
    printRow({
      name: 'portal: first load of the sign-in page to interactive',
      figure: Math.round(signIn),
      unit: 'ms',
      baseline,
      setup,
    });
    printRow({
      name: 'portal: first load of the home page, signed in, to its areas',
      figure: Math.round(home),
      unit: 'ms',
      baseline,
      setup: `${setup}; the session lookup and the first render included (${ADMIN.username})`,
    });
  } finally {
    await browser.close();
    await p.stop();
  }
}
