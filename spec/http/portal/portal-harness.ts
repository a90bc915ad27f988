// Shared set-up for the portal backend's specs (not a spec itself): the whole platform on 127.0.0.1 port
// 0 with real SQLite stores and the system clock, seeded with a known admin password, and a fetch-driven
// "browser" that signs in through the portal.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pino } from 'pino';
import type { Clock } from '../../../infra/core/clock.port.ts';
import { type Config, loadConfig } from '../../../infra/core/config.ts';
import { type RunningPlatform, type ServiceName, startPlatform } from '../../../infra/main.ts';
import { CookieJar, formFields } from '../identity/identity-harness.ts';

export { CookieJar } from '../identity/identity-harness.ts';

export const ADMIN = { tenant: 'demo', username: 'admin', password: 'correct horse battery staple' };

export type PortalPlatform = { platform: RunningPlatform; base: string; config: Config; stop(): Promise<void> };

export async function startPortalPlatform(
  o: { services?: ServiceName[]; env?: Record<string, string>; clock?: Clock } = {},
): Promise<PortalPlatform> {
  const dir = mkdtempSync(path.join(tmpdir(), 'portal-spec-'));
  const config = loadConfig({
    PORT: '0',
    HOST: '127.0.0.1',
    PUBLIC_BASE_URL: 'http://127.0.0.1:0',
    DATA_DIR: dir,
    LOG_LEVEL: 'silent',
    SEED_TENANT: ADMIN.tenant,
    SEED_ADMIN_USERNAME: ADMIN.username,
    SEED_ADMIN_PASSWORD: ADMIN.password,
    ...o.env,
  });
  const platform = await startPlatform({
    config,
    log: pino({ level: 'silent' }),
    ...(o.services !== undefined && { services: o.services }),
    ...(o.clock !== undefined && { clock: o.clock }),
  });
  return {
    platform,
    base: platform.publicBaseUrl,
    config,
    async stop() {
      await platform.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * A browser's sign-in through the portal, by hand: /portal/auth/login, the provider's login form, the
 * callback. Answers the jar (with the session cookie) and the callback's answer.
 */
export async function portalSignIn(
  base: string,
  o: { tenant?: string; username?: string; password?: string; returnTo?: string; jar?: CookieJar } = {},
) {
  const jar = o.jar ?? new CookieJar();
  const q = new URLSearchParams({
    tenant: o.tenant ?? ADMIN.tenant,
    ...(o.returnTo !== undefined && { returnTo: o.returnTo }),
  });
  const start = await fetch(`${base}/portal/auth/login?${q}`, { redirect: 'manual' });
  jar.store(start);
  if (start.status !== 302) throw new Error(`login answered ${start.status}: ${await start.text()}`);
  const authorize = start.headers.get('location')!;
  const page = await fetch(authorize, { redirect: 'manual', headers: { cookie: jar.header() } });
  jar.store(page);
  let toCallback: Response = page;
  if (page.status === 200) {
    const { request, csrf } = formFields(await page.text());
    toCallback = await fetch(`${base}/cas/oidc/login`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: jar.header() },
      body: new URLSearchParams({
        request,
        csrf,
        username: o.username ?? ADMIN.username,
        password: o.password ?? ADMIN.password,
      }),
    });
    jar.store(toCallback);
  }
  const callbackUrl = toCallback.headers.get('location');
  if (toCallback.status !== 302 || callbackUrl === null) throw new Error(`the provider answered ${toCallback.status}`);
  const callback = await fetch(callbackUrl, { redirect: 'manual', headers: { cookie: jar.header() } });
  jar.store(callback);
  return { jar, authorize: new URL(authorize), callbackUrl: new URL(callbackUrl), callback };
}

/** a call of the portal's API proxy as the application makes it */
export const portalApi = (base: string, jar: CookieJar, path: string, init: RequestInit = {}) =>
  fetch(`${base}/portal/api${path}`, {
    ...init,
    headers: { 'x-portal': '1', cookie: jar.header(), ...(init.headers as Record<string, string> | undefined) },
  });
