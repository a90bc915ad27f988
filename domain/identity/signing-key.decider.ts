import { assertNever, type Decider } from '../core/decider.ts';
import { identityError } from './identity.errors.ts';
import { PLATFORM_TENANT, type PublicJwk } from './model.ts';

/**
 * Signing keys as aggregates, one stream per key: `signingKey-platform.<kid>`.
 *
 * Life of a key (a new key is published before it signs, the old one stays published
 * until every token it signed has expired):
 *   KeyGenerated   published in the JWKS from now on (public part; the private JWK only encrypted)
 *   KeyActivated   signs from `activatesAt` (generation time + a publish delay, so verifiers that cache the
 *                  JWKS learn the key before they meet a token signed with it)
 *   KeyRetired     stops signing at `retiresAt` (the successor's activation), stays published until
 *                  `publishUntil` = retiresAt + the longest token lifetime (+ a margin)
 *   KeyWithdrawn   no longer published: every token it signed has expired
 */
export const SIGNING_KEY_CATEGORY = 'signingKey';
export const signingKeyStream = (kid: string): string => `${SIGNING_KEY_CATEGORY}-${PLATFORM_TENANT}.${kid}`;

/** AES-256-GCM ciphertext of the private JWK (JSON), key derived from the key-encryption secret with HKDF. */
export type EncryptedPrivateJwk = {
  alg: 'A256GCM';
  kdf: 'HKDF-SHA256';
  /** base64url; HKDF salt, fresh per key */
  salt: string;
  /** base64url; 96-bit GCM nonce */
  iv: string;
  /** base64url; GCM tag (the kid is the additional authenticated data) */
  tag: string;
  /** base64url */
  ciphertext: string;
};

export type KeyGeneratedData = {
  kid: string;
  alg: 'RS256';
  publicJwk: PublicJwk;
  encryptedPrivateJwk: EncryptedPrivateJwk;
  /** ISO instant */
  createdAt: string;
};

export type SigningKeyEvent =
  | { type: 'KeyGenerated'; data: KeyGeneratedData }
  | { type: 'KeyActivated'; data: { kid: string; activatesAt: string } }
  | { type: 'KeyRetired'; data: { kid: string; retiresAt: string; publishUntil: string } }
  | { type: 'KeyWithdrawn'; data: { kid: string; withdrawnAt: string } };

export type SigningKeyCommand =
  | {
      type: 'GenerateKey';
      data: {
        kid: string;
        publicJwk: PublicJwk;
        encryptedPrivateJwk: EncryptedPrivateJwk;
        activatesAt: string;
        now: string;
      };
    }
  | { type: 'RetireKey'; data: { kid: string; retiresAt: string; publishUntil: string; now: string } }
  | { type: 'WithdrawKey'; data: { kid: string; now: string } };

export type SigningKeyState =
  | { status: 'none' }
  | {
      status: 'published' | 'withdrawn';
      key: KeyGeneratedData;
      activatesAt?: string;
      retiresAt?: string;
      publishUntil?: string;
      withdrawnAt?: string;
    };

const at = (iso: string) => Date.parse(iso);

export const signingKeyDecider: Decider<SigningKeyCommand, SigningKeyEvent, SigningKeyState> = {
  initialState: () => ({ status: 'none' }),

  evolve(state, event) {
    switch (event.type) {
      case 'KeyGenerated':
        return { status: 'published', key: event.data };
      case 'KeyActivated':
        return state.status === 'none' ? state : { ...state, activatesAt: event.data.activatesAt };
      case 'KeyRetired':
        return state.status === 'none'
          ? state
          : { ...state, retiresAt: event.data.retiresAt, publishUntil: event.data.publishUntil };
      case 'KeyWithdrawn':
        return state.status === 'none' ? state : { ...state, status: 'withdrawn', withdrawnAt: event.data.withdrawnAt };
      default:
        return assertNever(event);
    }
  },

  decide(command, state) {
    switch (command.type) {
      case 'GenerateKey': {
        const d = command.data;
        if (state.status !== 'none') throw identityError('SIGNING_KEY.EXISTS', `signing key ${d.kid} exists already`);
        if (d.publicJwk.kty !== 'RSA') throw identityError('SIGNING_KEY.INVALID', 'signing keys are RSA (RS256)');
        if ('d' in d.publicJwk || 'p' in d.publicJwk || 'q' in d.publicJwk) {
          // the private exponent must never reach the log in clear
          throw identityError('SIGNING_KEY.PRIVATE_PART_IN_PUBLIC_JWK', 'the public JWK carries private members');
        }
        if (at(d.activatesAt) < at(d.now))
          throw identityError('SIGNING_KEY.INVALID', 'a key cannot start signing before it exists');
        return [
          {
            type: 'KeyGenerated',
            data: {
              kid: d.kid,
              alg: 'RS256',
              publicJwk: d.publicJwk,
              encryptedPrivateJwk: d.encryptedPrivateJwk,
              createdAt: d.now,
            },
          },
          { type: 'KeyActivated', data: { kid: d.kid, activatesAt: d.activatesAt } },
        ];
      }
      case 'RetireKey': {
        const d = command.data;
        if (state.status === 'none') throw identityError('SIGNING_KEY.NOT_FOUND', `no signing key ${d.kid}`);
        // retiring twice is not an error: several processes may notice a superseded key at once
        if (state.status === 'withdrawn' || state.retiresAt !== undefined) return [];
        if (at(d.publishUntil) < at(d.retiresAt)) {
          throw identityError('SIGNING_KEY.INVALID', 'a key stays published at least until it stops signing');
        }
        return [{ type: 'KeyRetired', data: { kid: d.kid, retiresAt: d.retiresAt, publishUntil: d.publishUntil } }];
      }
      case 'WithdrawKey': {
        const d = command.data;
        if (state.status === 'none') throw identityError('SIGNING_KEY.NOT_FOUND', `no signing key ${d.kid}`);
        if (state.status === 'withdrawn') return [];
        if (state.publishUntil === undefined) {
          throw identityError('SIGNING_KEY.NOT_RETIRED', `signing key ${d.kid} still signs; rotate first`);
        }
        if (at(d.now) < at(state.publishUntil)) {
          throw identityError(
            'SIGNING_KEY.STILL_NEEDED',
            `tokens signed by ${d.kid} may be valid until ${state.publishUntil}`,
          );
        }
        return [{ type: 'KeyWithdrawn', data: { kid: d.kid, withdrawnAt: d.now } }];
      }
      default:
        return assertNever(command);
    }
  },
};
