import type { SigningKeyInfo } from '../../commands/identity/signing-key.ring.ts';
import type { JsonSchema } from '../core/validate.ts';

/**
 * A signing key as the admin API shows it: its kid, algorithm, rotation state and the times that make it
 * (never the private key; the public one is the JWKS's). At time t a key is
 *   pending   published, not signing yet (before signs_from)
 *   active    signing (from signs_from; until signs_until when a successor is set)
 *   retiring  no longer signing, still published: tokens it signed still verify (until published_until)
 *   retired   out of the JWKS
 */
export type KeyState = 'pending' | 'active' | 'retiring' | 'retired';

export function keyState(k: SigningKeyInfo, t: number): KeyState {
  if (k.withdrawn || (k.publishUntil !== undefined && Date.parse(k.publishUntil) <= t)) return 'retired';
  if (k.retiresAt !== undefined && Date.parse(k.retiresAt) <= t) return 'retiring';
  if (Date.parse(k.activatesAt) > t) return 'pending';
  return 'active';
}

export const keyView = (k: SigningKeyInfo, t: number) => ({
  kid: k.kid,
  alg: 'RS256',
  state: keyState(k, t),
  created_at: k.createdAt,
  signs_from: k.activatesAt,
  signs_until: k.retiresAt ?? null,
  published_until: k.publishUntil ?? null,
});

const str = { type: 'string' };
const instant = { type: 'string', format: 'date-time' };

export const signingKeyAnswer: JsonSchema = {
  type: 'object',
  properties: {
    kid: { ...str, description: 'RFC 7638 thumbprint; the JWT header kid' },
    alg: { ...str, enum: ['RS256'] },
    state: { ...str, enum: ['pending', 'active', 'retiring', 'retired'] },
    created_at: instant,
    signs_from: { ...instant, description: 'when the key starts signing' },
    signs_until: { ...instant, nullable: true, description: 'when it stops signing (its successor signs then)' },
    published_until: { ...instant, nullable: true, description: 'when it leaves the JWKS' },
  },
  required: ['kid', 'alg', 'state', 'created_at', 'signs_from', 'signs_until', 'published_until'],
  example: {
    kid: 'NzbLsXh8uDCcd-6MNwXF4W_7noWXFZAfHkxZsRGC9Xs',
    alg: 'RS256',
    state: 'active',
    created_at: '2026-03-01T10:00:00.000Z',
    signs_from: '2026-03-01T10:00:00.000Z',
    signs_until: null,
    published_until: null,
  },
};
