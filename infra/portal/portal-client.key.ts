import { createHash, createPrivateKey, createPublicKey, hkdfSync, type KeyObject } from 'node:crypto';
import type { PublicJwk } from '../../domain/identity/model.ts';

/**
 * The portal clients authenticate at the token endpoint with private_key_jwt (RFC 7523), under an Ed25519
 * key derived from the key-encryption secret: every process that shares the stores derives the same key,
 * and no secret is stored or printed. A rotated key-encryption secret gives a new key; the clients list the
 * keys of the previous secrets too (KEY_ENCRYPTION_SECRET_PREVIOUS) until they are dropped.
 */
export type PortalClientKey = { kid: string; privateKey: KeyObject; publicJwk: PublicJwk };

// the PKCS #8 wrapping of a raw 32-byte Ed25519 private key (RFC 8410)
const PKCS8_ED25519 = Buffer.from('302e020100300506032b657004220420', 'hex');

export function portalClientKey(secret: string): PortalClientKey {
  const seed = Buffer.from(hkdfSync('sha256', secret, 'platform', 'portal client key v1', 32));
  const privateKey = createPrivateKey({ key: Buffer.concat([PKCS8_ED25519, seed]), format: 'der', type: 'pkcs8' });
  const { crv, x } = createPublicKey(privateKey).export({ format: 'jwk' }) as { crv: string; x: string };
  // RFC 7638 thumbprint: the members in lexical order
  const kid = createHash('sha256')
    .update(JSON.stringify({ crv, kty: 'OKP', x }))
    .digest('base64url');
  return { kid, privateKey, publicJwk: { kty: 'OKP', crv, x, kid, alg: 'EdDSA', use: 'sig' } };
}
