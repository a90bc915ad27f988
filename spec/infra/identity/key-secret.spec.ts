import { chmodSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { KEY_SECRET_FILE, loadKeyEncryptionSecret } from '../../../infra/identity/key-secret.ts';

const test = suite<{ dir: string }>('key-encryption secret');
test.before.each((ctx) => {
  ctx.dir = mkdtempSync(path.join(tmpdir(), 'key-secret-'));
});
test.after.each((ctx) => rmSync(ctx.dir, { recursive: true, force: true }));

const config = (dataDir: string, keyEncryptionSecret?: string) => ({ dataDir, identity: { keyEncryptionSecret } });

test('KEY_ENCRYPTION_SECRET wins and no file is written', (ctx) => {
  assert.is(loadKeyEncryptionSecret(config(ctx.dir, 'x'.repeat(40))), 'x'.repeat(40));
  assert.throws(() => statSync(path.join(ctx.dir, KEY_SECRET_FILE)));
});

test('created on first use with mode 0600, the same afterwards', (ctx) => {
  const data = path.join(ctx.dir, 'data');
  const first = loadKeyEncryptionSecret(config(data));
  assert.ok(first.length >= 32);
  const file = path.join(data, KEY_SECRET_FILE);
  if (process.platform !== 'win32') assert.is(statSync(file).mode & 0o777, 0o600);
  assert.is(readFileSync(file, 'utf8').trim(), first);
  assert.is(loadKeyEncryptionSecret(config(data)), first);
});

test('a loose mode is tightened; a short secret is refused', (ctx) => {
  const file = path.join(ctx.dir, KEY_SECRET_FILE);
  writeFileSync(file, 'y'.repeat(40));
  chmodSync(file, 0o644);
  assert.is(loadKeyEncryptionSecret(config(ctx.dir)), 'y'.repeat(40));
  if (process.platform !== 'win32') assert.is(statSync(file).mode & 0o777, 0o600);
  writeFileSync(file, 'short');
  assert.throws(() => loadKeyEncryptionSecret(config(ctx.dir)), /at least 32/);
});

test.run();
