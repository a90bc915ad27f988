import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
import { isSealed, type SealedSecret } from '../../domain/bridge/connection.decider.ts';

/**
 * Encryption at rest of connection secrets (passwords, tokens, client secrets, API key values):
 * AES-256-GCM under a key derived with HKDF-SHA256 from the platform's key-encryption secret
 * (KEY_ENCRYPTION_SECRET or DATA_DIR/key-encryption.secret, see infra/identity/key-secret.ts; the
 * composition passes it in), a fresh 16-byte salt and 12-byte IV per secret. The associated data names
 * the secret's place (`connection/<tenant>/<name>/<field>`), so a ciphertext copied into another
 * connection or field does not open.
 *
 * Sealed form (what the log stores): `enc:v1:<salt>.<iv>.<tag>.<ciphertext>`, base64url parts.
 */
const HKDF_INFO = 'bridge connection secret v1';

export type SecretBox = {
  seal(clear: string, aad: string): SealedSecret;
  /** throws when the secret does not open (another key-encryption secret, or a moved ciphertext) */
  open(sealed: SealedSecret, aad: string): string;
};

export function createSecretBox(secret: string): SecretBox {
  if (typeof secret !== 'string' || secret.length < 32) throw new Error('the key-encryption secret must be at least 32 characters');
  const key = (salt: Buffer) => Buffer.from(hkdfSync('sha256', secret, salt, HKDF_INFO, 32));
  return {
    seal(clear, aad) {
      const salt = randomBytes(16);
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key(salt), iv);
      cipher.setAAD(Buffer.from(aad, 'utf8'));
      const ciphertext = Buffer.concat([cipher.update(clear, 'utf8'), cipher.final()]);
      return `enc:v1:${[salt, iv, cipher.getAuthTag(), ciphertext].map((b) => b.toString('base64url')).join('.')}`;
    },
    open(sealed, aad) {
      if (!isSealed(sealed)) throw new Error('not a sealed secret');
      const [salt, iv, tag, ciphertext] = sealed.slice('enc:v1:'.length).split('.').map((p) => Buffer.from(p, 'base64url'));
      try {
        const decipher = createDecipheriv('aes-256-gcm', key(salt!), iv!);
        decipher.setAAD(Buffer.from(aad, 'utf8'));
        decipher.setAuthTag(tag!);
        return Buffer.concat([decipher.update(ciphertext!), decipher.final()]).toString('utf8');
      } catch {
        throw new Error(
          'cannot decrypt a connection secret: the key-encryption secret (KEY_ENCRYPTION_SECRET or DATA_DIR/key-encryption.secret) is not the one it was encrypted with',
        );
      }
    },
  };
}
