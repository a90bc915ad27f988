// `platform start` with the identity service: the first start seeds and prints the generated values once;
// a later start prints none. `platform keys rotate --now` is wired into the CLI.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { eventually } from '../../core/eventually.ts';

const root = path.resolve(import.meta.dirname, '../../..');
const bin = path.join(root, 'bin/platform.js');
const dir = mkdtempSync(path.join(tmpdir(), 'identity-start-'));
const env = { ...process.env, DATA_DIR: dir, LOG_LEVEL: 'warn', PORT: '0', HOST: '127.0.0.1' };
test.after(() => rmSync(dir, { recursive: true, force: true }));

/** Starts the platform, waits for the banner, answers it and the base URL, then stops it with SIGTERM. */
async function startOnce(check?: (base: string) => Promise<void>): Promise<string> {
  const child = spawn(process.execPath, [bin, 'start', '--services', 'identity'], {
    cwd: root,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.on('data', (d) => (out += d));
  child.stderr.on('data', (d) => (out += d));
  const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
  // the banner is printed in one write: once its URL is there, the whole banner is
  const base = await eventually(
    () => {
      const m = /public base URL : (http:\/\/\S+)/.exec(out);
      assert.ok(m, `no banner in: ${out}`);
      return m[1]!;
    },
    { what: 'the banner', timeoutMs: 30_000, intervalMs: 50 },
  );
  assert.ok(base, `no banner in: ${out}`);
  await check?.(base);
  child.kill('SIGTERM');
  assert.is(await exited, 0);
  return out;
}

test('the first start seeds and prints the one-time values; the next start prints none', async () => {
  const first = await startOnce(async (base) => {
    // PORT=0: the issuer is the bound port, not :0
    assert.not.match(base, /:0$/);
    const doc = (await (await fetch(`${base}/.well-known/openid-configuration`)).json()) as { issuer: string };
    assert.is(doc.issuer, base);
  });
  assert.match(first, /Identity provider seeded \(tenant demo\)/);
  assert.match(first, /admin user {6}admin \(tenant demo\), password \S+/);
  assert.match(first, /client {10}demo-client, secret \S+/);
  assert.match(first, /public client {3}demo-spa/);
  assert.is(first.split('Identity provider seeded').length, 2, 'printed once');
  const second = await startOnce();
  assert.not.match(second, /Identity provider seeded|password|secret/);
});

test('platform keys rotate --now prints the new signing key', () => {
  const r = spawnSync(process.execPath, [bin, 'keys', 'rotate', '--now'], { cwd: root, env, encoding: 'utf8' });
  assert.is(r.status, 0, r.stderr);
  assert.match(r.stdout, /new signing key \S+/);
  const bad = spawnSync(process.execPath, [bin, 'keys'], { cwd: root, env, encoding: 'utf8' });
  assert.is(bad.status, 2);
  assert.match(bad.stderr, /keys rotate/);
});

test.run();
