import { randomBytes } from 'node:crypto';
import { chmodSync, linkSync, mkdirSync, readFileSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Config } from '../core/config.ts';

export const KEY_SECRET_FILE = 'key-encryption.secret';

/**
 * The secret that encrypts the signing keys' private parts in the log: KEY_ENCRYPTION_SECRET when set,
 * else a random one kept in `${DATA_DIR}/key-encryption.secret`, created with mode 0600 on first use.
 * Processes that do not share DATA_DIR (EventStoreDB on several hosts) must all be given the same
 * KEY_ENCRYPTION_SECRET, or they cannot sign with keys another process generated.
 */
export function loadKeyEncryptionSecret(
  config: Pick<Config, 'dataDir'> & { identity: Pick<Config['identity'], 'keyEncryptionSecret'> },
): string {
  if (config.identity.keyEncryptionSecret !== undefined) return config.identity.keyEncryptionSecret;
  const file = path.join(config.dataDir, KEY_SECRET_FILE);
  const existing = readSecret(file);
  if (existing !== undefined) return existing;
  mkdirSync(config.dataDir, { recursive: true });
  // written aside, then linked into place: the file appears complete or not at all, and of two processes
  // starting together exactly one link succeeds (the other gets EEXIST and reads the winner's secret)
  const tmp = `${file}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
  writeFileSync(tmp, `${randomBytes(48).toString('base64url')}\n`, { flag: 'wx', mode: 0o600 });
  try {
    linkSync(tmp, file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  } finally {
    unlinkSync(tmp);
  }
  const created = readSecret(file);
  if (created === undefined) throw new Error(`${file} is empty`);
  return created;
}

function readSecret(file: string): string | undefined {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
  // a copy restored with a loose mode is tightened again: the file is as sensitive as the keys it unlocks
  if (process.platform !== 'win32' && (statSync(file).mode & 0o077) !== 0) chmodSync(file, 0o600);
  const secret = text.trim();
  if (secret.length === 0) return undefined;
  if (secret.length < 32) throw new Error(`${file} must hold at least 32 characters`);
  return secret;
}

/**
 * The current key-encryption secret and the ones it replaced (KEY_ENCRYPTION_SECRET_PREVIOUS; when
 * KEY_ENCRYPTION_SECRET is set while DATA_DIR/key-encryption.secret also exists, the file's secret counts as
 * a previous one: moving from the generated file to the variable needs no extra step).
 */
export function loadKeySecrets(
  config: Pick<Config, 'dataDir'> & {
    identity: Pick<Config['identity'], 'keyEncryptionSecret' | 'keyEncryptionPrevious'>;
  },
): { current: string; previous: string[] } {
  const current = loadKeyEncryptionSecret(config);
  const previous = [...(config.identity.keyEncryptionPrevious ?? [])];
  if (config.identity.keyEncryptionSecret !== undefined) {
    let file: string | undefined;
    try {
      file = readSecret(path.join(config.dataDir, KEY_SECRET_FILE));
    } catch {
      file = undefined; // unreadable or too short: not a secret anything was sealed with
    }
    if (file !== undefined && file !== current) previous.push(file);
  }
  return { current, previous: [...new Set(previous)].filter((s) => s !== current) };
}
