import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import express, { type Response, Router } from 'express';
import { PORTAL_API_BASE, PORTAL_AUTH_BASE, PORTAL_BASE } from './portal.paths.ts';

/**
 * The built single-page application (`npm run build:portal` writes portal/dist): hashed assets with a
 * long cache, and `index.html` for every other `/portal/…` path (a reload of a deep link shows its page),
 * never cached. Every answer carries the portal's Content-Security-Policy: scripts and styles of this
 * origin only (no inline script), nothing framed, forms to this origin or the issuer. Styles may also
 * carry the page's nonce, which index.html names in `<meta name="csp-nonce">` for editors that insert
 * style elements (CodeMirror's EditorView.cspNonce).
 *
 * Without a build the portal answers 503 naming the command that makes it.
 */
export type SpaRouterDeps = {
  /** portal/dist */
  distDir: string;
  /** the issuer (PUBLIC_BASE_URL): the sign-in form leads there */
  issuer: string;
  /** the sign-in page's tenant field starts with it (SEED_TENANT) */
  defaultTenant: string;
};

export const NONCE_PLACEHOLDER = '__CSP_NONCE__';
export const DEFAULT_TENANT_PLACEHOLDER = '__DEFAULT_TENANT__';
const attribute = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export function contentSecurityPolicy(issuer: string, nonce?: string): string {
  return [
    "default-src 'self'",
    "script-src 'self'",
    nonce === undefined ? "style-src 'self'" : `style-src 'self' 'nonce-${nonce}'`,
    "img-src 'self' data:",
    "font-src 'self'",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "frame-ancestors 'none'",
    `form-action 'self' ${issuer}`,
  ].join('; ');
}

const securityHeaders = (res: Response, issuer: string, nonce?: string) =>
  res.set({
    'Content-Security-Policy': contentSecurityPolicy(issuer, nonce),
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'same-origin',
    'X-Frame-Options': 'DENY',
    'Cross-Origin-Opener-Policy': 'same-origin',
  });

export function createSpaRouter(deps: SpaRouterDeps): Router {
  const { distDir, issuer } = deps;
  const router = Router();
  const indexFile = path.join(distDir, 'index.html');

  // read once per build: a rebuild while the server runs is picked up by its mtime
  let cached: { mtimeMs: number; html: string } | undefined;
  const indexHtml = (): string | null => {
    if (!existsSync(indexFile)) return null;
    const { mtimeMs } = statSync(indexFile);
    if (cached?.mtimeMs !== mtimeMs) cached = { mtimeMs, html: readFileSync(indexFile, 'utf8') };
    return cached.html;
  };

  // `/portal` to `/portal/` (express's routing would also match `/portal/` here: only the bare path moves)
  router.get(PORTAL_BASE, (req, res, next) =>
    req.path === PORTAL_BASE ? res.redirect(302, `${PORTAL_BASE}/${req.url.slice(PORTAL_BASE.length)}`) : next(),
  );

  router.use(
    `${PORTAL_BASE}/assets`,
    (_req, res, next) => {
      securityHeaders(res, issuer);
      next();
    },
    express.static(path.join(distDir, 'assets'), {
      index: false,
      fallthrough: false,
      immutable: true,
      maxAge: '365d',
      setHeaders: (res) => res.set('Cross-Origin-Resource-Policy', 'same-origin'),
    }),
  );

  router.get([`${PORTAL_BASE}/`, `${PORTAL_BASE}/*splat`], (req, res, next) => {
    // the backend's own paths are answered (or refused) by their routers, never by the page
    if (req.path.startsWith(`${PORTAL_API_BASE}/`) || req.path.startsWith(`${PORTAL_AUTH_BASE}/`)) return next();
    const html = indexHtml();
    if (html === null) {
      res
        .status(503)
        .set({ 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store', 'Retry-After': '30' })
        .send('The portal is not built: run `npm run build:portal` (npm ci builds it too), then reload this page.\n');
      return;
    }
    // files of the build's root (favicon, robots.txt) as they are; any other path is a page of the app
    const file = path.join(distDir, path.normalize(req.path.slice(PORTAL_BASE.length)));
    if (
      file.startsWith(distDir + path.sep) &&
      file !== indexFile &&
      path.dirname(file) === distDir &&
      existsSync(file) &&
      statSync(file).isFile()
    ) {
      securityHeaders(res, issuer);
      res.set('Cache-Control', 'public, max-age=3600').sendFile(file);
      return;
    }
    const nonce = randomBytes(16).toString('base64');
    securityHeaders(res, issuer, nonce)
      .set({ 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-cache' })
      .send(
        html.replaceAll(NONCE_PLACEHOLDER, nonce).replaceAll(DEFAULT_TENANT_PLACEHOLDER, attribute(deps.defaultTenant)),
      );
  });

  return router;
}
