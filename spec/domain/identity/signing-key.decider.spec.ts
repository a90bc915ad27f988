import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { parseStreamName } from '../../../domain/core/stream-name.ts';
import {
  type EncryptedPrivateJwk,
  type SigningKeyEvent,
  signingKeyDecider,
  signingKeyStream,
} from '../../../domain/identity/signing-key.decider.ts';
import { deciderSpec } from '../../core/decider-spec.ts';

const spec = deciderSpec(signingKeyDecider);
const test = suite('signing key decider');

const publicJwk = { kty: 'RSA', n: 'modulus', e: 'AQAB' };
const encryptedPrivateJwk: EncryptedPrivateJwk = {
  alg: 'A256GCM',
  kdf: 'HKDF-SHA256',
  salt: 's',
  iv: 'i',
  tag: 't',
  ciphertext: 'c',
};
const T0 = '2026-01-01T00:00:00.000Z';
const T5 = '2026-01-01T00:05:00.000Z';
const T10 = '2026-01-01T00:10:00.000Z';
const LATER = '2026-02-01T00:10:00.000Z';

const generated: SigningKeyEvent[] = [
  { type: 'KeyGenerated', data: { kid: 'k1', alg: 'RS256', publicJwk, encryptedPrivateJwk, createdAt: T0 } },
  { type: 'KeyActivated', data: { kid: 'k1', activatesAt: T5 } },
];
const retired: SigningKeyEvent = { type: 'KeyRetired', data: { kid: 'k1', retiresAt: T10, publishUntil: LATER } };

test('stream per key on the platform tenant', () => {
  assert.equal(parseStreamName(signingKeyStream('abc-_x')), {
    category: 'signingKey',
    tenant: 'platform',
    id: 'abc-_x',
  });
});

test('GenerateKey: published now, signs from the activation time', () => {
  spec
    .given([])
    .when({ type: 'GenerateKey', data: { kid: 'k1', publicJwk, encryptedPrivateJwk, activatesAt: T5, now: T0 } })
    .then(generated);
});

test('GenerateKey twice is refused', () => {
  spec
    .given(generated)
    .when({ type: 'GenerateKey', data: { kid: 'k1', publicJwk, encryptedPrivateJwk, activatesAt: T5, now: T0 } })
    .thenThrows('SIGNING_KEY.EXISTS', 409);
});

test('a public JWK carrying the private exponent never reaches the log', () => {
  spec
    .given([])
    .when({
      type: 'GenerateKey',
      data: { kid: 'k1', publicJwk: { ...publicJwk, d: 'secret' }, encryptedPrivateJwk, activatesAt: T0, now: T0 },
    })
    .thenThrows('SIGNING_KEY.PRIVATE_PART_IN_PUBLIC_JWK', 400);
});

test('activation before generation is refused', () => {
  spec
    .given([])
    .when({ type: 'GenerateKey', data: { kid: 'k1', publicJwk, encryptedPrivateJwk, activatesAt: T0, now: T5 } })
    .thenThrows('SIGNING_KEY.INVALID', 400);
});

test('RetireKey: stops signing, stays published until publishUntil', () => {
  spec
    .given(generated)
    .when({ type: 'RetireKey', data: { kid: 'k1', retiresAt: T10, publishUntil: LATER, now: T5 } })
    .then([retired]);
});

test('RetireKey twice appends nothing (several processes may notice a superseded key)', () => {
  spec
    .given([...generated, retired])
    .when({ type: 'RetireKey', data: { kid: 'k1', retiresAt: T10, publishUntil: LATER, now: T10 } })
    .then([]);
});

test('RetireKey: published at least until it stops signing', () => {
  spec
    .given(generated)
    .when({ type: 'RetireKey', data: { kid: 'k1', retiresAt: T10, publishUntil: T5, now: T5 } })
    .thenThrows('SIGNING_KEY.INVALID', 400);
});

test('RetireKey of an unknown key', () => {
  spec
    .given([])
    .when({ type: 'RetireKey', data: { kid: 'k1', retiresAt: T10, publishUntil: LATER, now: T5 } })
    .thenThrows('SIGNING_KEY.NOT_FOUND', 404);
});

test('WithdrawKey of a key that still signs is refused', () => {
  spec
    .given(generated)
    .when({ type: 'WithdrawKey', data: { kid: 'k1', now: LATER } })
    .thenThrows('SIGNING_KEY.NOT_RETIRED', 409);
});

test('WithdrawKey before its tokens have expired is refused', () => {
  spec
    .given([...generated, retired])
    .when({ type: 'WithdrawKey', data: { kid: 'k1', now: T10 } })
    .thenThrows('SIGNING_KEY.STILL_NEEDED', 409);
});

test('WithdrawKey once every token it signed has expired', () => {
  spec
    .given([...generated, retired])
    .when({ type: 'WithdrawKey', data: { kid: 'k1', now: LATER } })
    .then([{ type: 'KeyWithdrawn', data: { kid: 'k1', withdrawnAt: LATER } }]);
});

test('WithdrawKey twice appends nothing', () => {
  spec
    .given([...generated, retired, { type: 'KeyWithdrawn', data: { kid: 'k1', withdrawnAt: LATER } }])
    .when({ type: 'WithdrawKey', data: { kid: 'k1', now: LATER } })
    .then([]);
});

test('evolve: the whole life of a key', () => {
  let s = signingKeyDecider.initialState();
  for (const e of [
    ...generated,
    retired,
    { type: 'KeyWithdrawn', data: { kid: 'k1', withdrawnAt: LATER } } as SigningKeyEvent,
  ]) {
    s = signingKeyDecider.evolve(s, e);
  }
  assert.is(s.status, 'withdrawn');
  if (s.status !== 'none') {
    assert.is(s.activatesAt, T5);
    assert.is(s.retiresAt, T10);
    assert.is(s.publishUntil, LATER);
    assert.is(s.key.kid, 'k1');
  }
});

test.run();
