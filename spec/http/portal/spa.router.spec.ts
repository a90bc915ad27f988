// The built application as the platform serves it: index.html for every page of the app with the
// Content-Security-Policy and a fresh nonce, hashed assets with a long cache, 503 without a build.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import express from 'express';
import { pino } from 'pino';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { errorHandler } from '../../../http/core/errors.ts';
import { createSpaRouter } from '../../../http/portal/spa.router.ts';

const ISSUER = 'https://platform.example';
const dir = mkdtempSync(path.join(tmpdir(), 'portal-spa-'));
const dist = path.join(dir, 'dist');
let server: Server;
let base = '';
const test = suite('portal SPA router');

test.before(async () => {
  mkdirSync(path.join(dist, 'assets'), { recursive: true });
  writeFileSync(
    path.join(dist, 'index.html'),
    '<!doctype html><html><head><meta name="csp-nonce" content="__CSP_NONCE__"><meta name="portal-default-tenant" content="__DEFAULT_TENANT__"><script type="module" src="/portal/assets/index-abc123.js"></script></head><body></body></html>',
  );
  writeFileSync(path.join(dist, 'assets', 'index-abc123.js'), 'console.log(1)');
  writeFileSync(path.join(dist, 'robots.txt'), 'User-agent: *\n');
  const app = express();
  app.use(createSpaRouter({ distDir: dist, issuer: ISSUER, defaultTenant: 'demo' }));
  app.use((_req, res) => res.status(404).json({ code: 'ROUTE.NOT_FOUND' }));
  app.use(errorHandler(pino({ level: 'silent' })));
  await new Promise<void>((resolve) => {
    server = app.listen(0, '127.0.0.1', () => resolve());
  });
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
test.after(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
  rmSync(dir, { recursive: true, force: true });
});

test('every page of the app is index.html, not cached, with a strict CSP and a fresh nonce', async () => {
  const nonces = new Set<string>();
  for (const page of [
    '/portal/',
    '/portal/bridge',
    '/portal/bridge/rules/r-1',
    '/portal/sso/applications/portal.demo?tenant=acme',
  ]) {
    const res = await fetch(`${base}${page}`);
    assert.is(res.status, 200, page);
    assert.match(res.headers.get('content-type') ?? '', /text\/html/);
    assert.is(res.headers.get('cache-control'), 'no-cache');
    const csp = res.headers.get('content-security-policy') ?? '';
    for (const d of [
      "default-src 'self'",
      "script-src 'self'",
      "object-src 'none'",
      "base-uri 'none'",
      "frame-ancestors 'none'",
      `form-action 'self' ${ISSUER}`,
    ])
      assert.ok(csp.includes(d), `${d} in ${csp}`);
    assert.not.ok(csp.includes('unsafe-inline'));
    const html = await res.text();
    const nonce = /name="csp-nonce" content="([^"]+)"/.exec(html)![1]!;
    assert.ok(csp.includes(`'nonce-${nonce}'`), 'the style nonce is the page one');
    assert.match(html, /name="portal-default-tenant" content="demo"/);
    nonces.add(nonce);
  }
  assert.is(nonces.size, 4, 'a nonce per answer');
});

test('hashed assets are cached for a year; a missing asset is 404, never the page', async () => {
  const js = await fetch(`${base}/portal/assets/index-abc123.js`);
  assert.is(js.status, 200);
  assert.match(js.headers.get('cache-control') ?? '', /max-age=31536000/);
  assert.match(js.headers.get('cache-control') ?? '', /immutable/);
  assert.ok(js.headers.get('content-security-policy'));
  const missing = await fetch(`${base}/portal/assets/gone-000.js`);
  assert.is(missing.status, 404);
  assert.not.match(await missing.text(), /<html/);
  const robots = await fetch(`${base}/portal/robots.txt`);
  assert.is(await robots.text(), 'User-agent: *\n');
  const traversal = await fetch(`${base}/portal/..%2f..%2fpackage.json`);
  assert.match(
    traversal.headers.get('content-type') ?? '',
    /text\/html/,
    'a path out of the build is a page of the app',
  );
});

test('/portal moves to /portal/; the backend paths are not pages', async () => {
  const bare = await fetch(`${base}/portal?tenant=acme`, { redirect: 'manual' });
  assert.is(bare.status, 302);
  assert.is(bare.headers.get('location'), '/portal/?tenant=acme');
  for (const p of ['/portal/auth/whatever', '/portal/api/cas/admin/v1/users'])
    assert.is((await fetch(`${base}${p}`)).status, 404, p);
});

test('without a build the portal answers 503 naming the command that makes it', async () => {
  const app = express();
  app.use(createSpaRouter({ distDir: path.join(dir, 'missing'), issuer: ISSUER, defaultTenant: 'demo' }));
  const s = await new Promise<Server>((resolve) => {
    const x = app.listen(0, '127.0.0.1', () => resolve(x));
  });
  try {
    const res = await fetch(`http://127.0.0.1:${(s.address() as AddressInfo).port}/portal/bridge`);
    assert.is(res.status, 503);
    assert.match(await res.text(), /npm run build:portal/);
  } finally {
    await new Promise<void>((resolve) => s.close(() => resolve()));
  }
});

test.run();
