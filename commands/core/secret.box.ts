import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
import { isSealed, type Sealer } from '../../domain/core/sealed-secret.ts';

/**
 * Encryption at rest of the secrets kept in the log: the bridge's connection secrets (passwords, tokens,
 * client secrets, API key values), configuration-center values marked secret, and the hub's signing secrets.
 * AES-256-GCM under a key derived with HKDF-SHA256 from the platform's key-encryption secret
 * (KEY_ENCRYPTION_SECRET or DATA_DIR/key-encryption.secret, see infra/identity/key-secret.ts; the
 * composition passes it in), a fresh 16-byte salt and 12-byte IV per secret. The associated data names
 * the secret's place (`connection/<tenant>/<name>/<field>`, `config/<tenant>/<key>`), so a ciphertext
 * copied into another connection, field or key does not open.
 *
 * Sealed forms (what the log stores), base64url parts:
 * - `enc:v1:<salt>.<iv>.<tag>.<ciphertext>` (connections, caller tokens, API destinations' signing secrets;
 *   the hub's signing secrets sealed by earlier versions);
 * - `enc:v2:<kid>.<salt>.<iv>.<tag>.<ciphertext>` (configuration values, the hub's signing secrets): `kid` names the key-encryption
 *   secret it was sealed under (a fingerprint of it, never the secret), so after a rotation of
 *   KEY_ENCRYPTION_SECRET (the former one in KEY_ENCRYPTION_SECRET_PREVIOUS) the value opens with the
 *   right secret at once, and `platform keys rotate-config` knows which values to seal again.
 * Both open with the current secret or a previous one.
 */
const HKDF_INFO = 'bridge connection secret v1';
const HKDF_INFO_V2 = 'bridge keyed secret v2';
const SEALED_V2 = /^enc:v2:([A-Za-z0-9_-]{8})\.([A-Za-z0-9_-]+)\.([A-Za-z0-9_-]+)\.([A-Za-z0-9_-]+)\.([A-Za-z0-9_-]*)$/;

/** The key-encryption secret in effect, and the ones it replaced (still opening what they sealed). */
export type KeySecrets = { current: string; previous?: readonly string[] };

export type SecretBox = Sealer;

export type KeyedSecretBox = {
  /** `enc:v2:<kid>.…` under the current secret */
  seal(clear: string, aad: string): string;
  /** opens v2 (by its kid) and v1 (any of the secrets); throws naming the problem */
  open(sealed: string, aad: string): string;
  /** the current secret's kid */
  kid: string;
  /** the kid a v2 value was sealed under (undefined: not a v2 value) */
  kidOf(sealed: string): string | undefined;
};

export const isKeyedSealed = (s: unknown): s is string => typeof s === 'string' && SEALED_V2.test(s);

/** A key-encryption secret's id: 8 base64url characters of a one-way derivation (the secret is not recoverable). */
export const secretKid = (secret: string): string =>
  Buffer.from(hkdfSync('sha256', secret, 'platform key id', 'key id v1', 6)).toString('base64url');

const secretsOf = (s: string | KeySecrets): string[] => {
  const all = typeof s === 'string' ? [s] : [s.current, ...(s.previous ?? [])];
  for (const secret of all)
    if (typeof secret !== 'string' || secret.length < 32)
      throw new Error('the key-encryption secret must be at least 32 characters');
  return all;
};

const derive = (secret: string, salt: Buffer, info: string) => Buffer.from(hkdfSync('sha256', secret, salt, info, 32));
const b64 = (parts: Buffer[]) => parts.map((b) => b.toString('base64url')).join('.');

function encrypt(secret: string, info: string, clear: string, aad: string): Buffer[] {
  const salt = randomBytes(16);
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', derive(secret, salt, info), iv);
  cipher.setAAD(Buffer.from(aad, 'utf8'));
  const ciphertext = Buffer.concat([cipher.update(clear, 'utf8'), cipher.final()]);
  return [salt, iv, cipher.getAuthTag(), ciphertext];
}

function decrypt(secret: string, info: string, parts: Buffer[], aad: string): string | undefined {
  const [salt, iv, tag, ciphertext] = parts;
  try {
    const decipher = createDecipheriv('aes-256-gcm', derive(secret, salt!, info), iv!);
    decipher.setAAD(Buffer.from(aad, 'utf8'));
    decipher.setAuthTag(tag!);
    return Buffer.concat([decipher.update(ciphertext!), decipher.final()]).toString('utf8');
  } catch {
    return undefined;
  }
}

const cannotOpen = (what: string) =>
  new Error(
    `cannot decrypt a ${what}: the key-encryption secret (KEY_ENCRYPTION_SECRET or DATA_DIR/key-encryption.secret, or one of KEY_ENCRYPTION_SECRET_PREVIOUS) is not the one it was encrypted with`,
  );

/** The connection secrets' box (v1). `secret`: the current one, or the current and previous ones. */
export function createSecretBox(secret: string | KeySecrets): SecretBox {
  const secrets = secretsOf(secret);
  return {
    seal: (clear, aad) => `enc:v1:${b64(encrypt(secrets[0]!, HKDF_INFO, clear, aad))}`,
    open(sealed, aad) {
      if (!isSealed(sealed)) throw new Error('not a sealed secret');
      const parts = sealed
        .slice('enc:v1:'.length)
        .split('.')
        .map((p) => Buffer.from(p, 'base64url'));
      for (const s of secrets) {
        const clear = decrypt(s, HKDF_INFO, parts, aad);
        if (clear !== undefined) return clear;
      }
      throw cannotOpen('connection secret');
    },
  };
}

/** The configuration values' box (v2, with the key id). */
export function createKeyedSecretBox(secret: string | KeySecrets): KeyedSecretBox {
  const secrets = secretsOf(secret);
  const byKid = new Map(secrets.map((s) => [secretKid(s), s] as const));
  const v1 = createSecretBox(secret);
  const kid = secretKid(secrets[0]!);
  return {
    kid,
    seal: (clear, aad) => `enc:v2:${kid}.${b64(encrypt(secrets[0]!, HKDF_INFO_V2, clear, aad))}`,
    open(sealed, aad) {
      if (isSealed(sealed)) return v1.open(sealed, aad);
      const m = SEALED_V2.exec(sealed);
      if (m === null) throw new Error('not a sealed secret');
      const s = byKid.get(m[1]!);
      if (s === undefined)
        throw new Error(
          `cannot decrypt a secret sealed under key ${m[1]}: give its key-encryption secret in KEY_ENCRYPTION_SECRET_PREVIOUS`,
        );
      const clear = decrypt(
        s,
        HKDF_INFO_V2,
        m.slice(2, 6).map((p) => Buffer.from(p!, 'base64url')),
        aad,
      );
      if (clear === undefined) throw cannotOpen('secret (it was moved, or altered)');
      return clear;
    },
    kidOf: (sealed) => SEALED_V2.exec(sealed)?.[1],
  };
}
