// Shared set-up for the identity provider's end-to-end specs (not a spec itself): the whole platform on
// 127.0.0.1 port 0 with real SQLite stores, the issuer being the bound URL, seeded with known secrets.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pino } from 'pino';
import { createDirectoryCommands } from '../../../commands/identity/directory.commands.ts';
import { createDirectory } from '../../../commands/identity/directory.lookups.ts';
import { manualClock } from '../../../infra/core/clock.port.ts';
import { type Config, loadConfig } from '../../../infra/core/config.ts';
import { type RunningPlatform, startPlatform } from '../../../infra/main.ts';
import { createSqliteEventStore } from '../../../infra/sqlite/event-store.sqlite.ts';
import { createSqliteReadStore } from '../../../infra/sqlite/read-store.sqlite.ts';

export const SEED = {
  tenant: 'demo',
  adminUsername: 'admin',
  adminPassword: 'correct horse battery staple',
  clientId: 'demo-client',
  // characters that must survive client_secret_basic's form encoding
  clientSecret: 'demo secret+with:special/chars&=%',
  publicClientId: 'demo-spa',
};

export type IdentityPlatform = {
  platform: RunningPlatform;
  /** the issuer: the bound URL */
  base: string;
  config: Config;
  clock: ReturnType<typeof manualClock>;
  commands: ReturnType<typeof createDirectoryCommands>;
  platformDirectory: ReturnType<typeof createDirectory>;
  /** moves the manual clock up to the real time (never back): relying parties stamp their JWTs with it */
  syncClock(): void;
  stop(): Promise<void>;
};

export async function startIdentityPlatform(o: {
  redirectUri: string;
  env?: Record<string, string>;
  /** DATA_DIR, kept on stop (a restart on the same stores; the caller removes it); default: a fresh temporary folder, removed on stop */
  dataDir?: string;
}): Promise<IdentityPlatform> {
  const dir = o.dataDir ?? mkdtempSync(path.join(tmpdir(), 'identity-e2e-'));
  const config = loadConfig({
    PORT: '0',
    HOST: '127.0.0.1',
    // port 0 in the public base URL: replaced by the port bound (infra/main.ts withBoundPort)
    PUBLIC_BASE_URL: 'http://127.0.0.1:0',
    DATA_DIR: dir,
    LOG_LEVEL: 'silent',
    SEED_TENANT: SEED.tenant,
    SEED_ADMIN_USERNAME: SEED.adminUsername,
    SEED_ADMIN_PASSWORD: SEED.adminPassword,
    SEED_CLIENT_ID: SEED.clientId,
    SEED_CLIENT_SECRET: SEED.clientSecret,
    SEED_PUBLIC_CLIENT_ID: SEED.publicClientId,
    SEED_REDIRECT_URI: o.redirectUri,
    // receivers in the tests listen on loopback, which the outbound client refuses unless allowlisted
    OUTBOUND_ALLOW: '127.0.0.1,::1,localhost',
    ...o.env,
  });
  // the real time, frozen: the relying party checks iat/exp against its own clock; tests move it by hand
  const clock = manualClock(new Date());
  const eventStore = createSqliteEventStore({ file: path.join(dir, 'events.sqlite') });
  const readStore = createSqliteReadStore({ file: path.join(dir, 'read-models.sqlite') });
  const platform = await startPlatform({
    config,
    log: pino({ level: 'silent' }),
    clock,
    stores: {
      eventStore,
      readStore,
      kinds: { eventStore: 'sqlite', readStore: 'sqlite' },
      async close() {
        await eventStore.close();
        await readStore.close();
      },
    },
  });
  const commands = createDirectoryCommands({ eventStore, clock });
  return {
    platform,
    base: platform.publicBaseUrl,
    config,
    clock,
    commands,
    platformDirectory: createDirectory({ eventStore, clock }),
    syncClock: () => clock.set(new Date(Math.max(Date.now(), clock.now().getTime()))),
    async stop() {
      await platform.stop();
      if (o.dataDir === undefined) rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A browser's cookie jar, reduced to what the provider sets (name=value, Max-Age=0 deletes). */
export class CookieJar {
  readonly cookies = new Map<string, string>();
  store(res: Response): void {
    for (const line of res.headers.getSetCookie()) {
      const [pair, ...attrs] = line.split(';');
      const eq = pair!.indexOf('=');
      const name = pair!.slice(0, eq).trim();
      const value = pair!.slice(eq + 1).trim();
      if (attrs.some((a) => /^\s*max-age=0\s*$/i.test(a)) || value === '') this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }
  header(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }
}

/** The hidden fields of the login form. */
export function formFields(html: string): { request: string; csrf: string } {
  const field = (name: string) => {
    const m = new RegExp(`name="${name}" value="([^"]*)"`).exec(html);
    if (!m) throw new Error(`no ${name} field in the login page`);
    return m[1]!.replace(/&amp;/g, '&');
  };
  return { request: field('request'), csrf: field('csrf') };
}

/**
 * What a browser does between the authorization request and the callback: GET the authorization URL,
 * read the form, POST the credentials with the cookies. Answers the final response (302 expected).
 */
export async function signIn(
  authorizationUrl: URL | string,
  username: string,
  password: string,
  jar = new CookieJar(),
) {
  const page = await fetch(authorizationUrl, { redirect: 'manual', headers: { cookie: jar.header() } });
  jar.store(page);
  if (page.status !== 200) return { response: page, jar };
  const { request, csrf } = formFields(await page.text());
  const login = new URL('/cas/oidc/login', authorizationUrl);
  const response = await fetch(login, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: jar.header() },
    body: new URLSearchParams({ request, csrf, username, password }),
  });
  jar.store(response);
  return { response, jar };
}
