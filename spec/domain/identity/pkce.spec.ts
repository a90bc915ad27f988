import { createHash } from 'node:crypto';
import { calculatePKCECodeChallenge } from 'openid-client';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import {
  isValidCodeChallenge,
  isValidCodeVerifier,
  pkceMatches,
  resolvePkceMethod,
} from '../../../domain/identity/pkce.ts';

const s256 = (v: string) => createHash('sha256').update(v, 'ascii').digest('base64url');
const RFC_VERIFIER = 'dBjftJeZ4CVP-mJ92K8cKjKMgTJnHnSMgbNrmP4LfnE';
// computed by openid-client (the certified relying party), independently of our hashing
const RFC_CHALLENGE = await calculatePKCECodeChallenge(RFC_VERIFIER);

test('verifier: 43 to 128 characters of A-Z a-z 0-9 - . _ ~', () => {
  assert.ok(isValidCodeVerifier('a'.repeat(43)));
  assert.ok(isValidCodeVerifier('a'.repeat(128)));
  assert.ok(isValidCodeVerifier('Az09-._~'.repeat(6)));
  assert.not.ok(isValidCodeVerifier('a'.repeat(42)), 'too short');
  assert.not.ok(isValidCodeVerifier('a'.repeat(129)), 'too long');
  assert.not.ok(isValidCodeVerifier(`${'a'.repeat(42)}+`), '+ is not allowed');
  assert.not.ok(isValidCodeVerifier(`${'a'.repeat(42)}=`), 'padding is not allowed');
  assert.not.ok(isValidCodeVerifier(`${'a'.repeat(42)} `), 'space');
  assert.not.ok(isValidCodeVerifier(`${'a'.repeat(42)}é`), 'non-ASCII');
  assert.not.ok(isValidCodeVerifier(undefined));
  assert.ok(isValidCodeChallenge(RFC_CHALLENGE));
  assert.not.ok(isValidCodeChallenge('short'));
});

test('S256 matches what openid-client computes, given the hash computed outside the domain', () => {
  assert.is(s256(RFC_VERIFIER), RFC_CHALLENGE);
  assert.ok(pkceMatches('S256', RFC_CHALLENGE, { verifier: RFC_VERIFIER, verifierS256: s256(RFC_VERIFIER) }));
  const other = 'x'.repeat(43);
  assert.not.ok(pkceMatches('S256', RFC_CHALLENGE, { verifier: other, verifierS256: s256(other) }));
});

test('plain compares the verifier itself; S256 never accepts the verifier as its own challenge', () => {
  assert.ok(pkceMatches('plain', RFC_VERIFIER, { verifier: RFC_VERIFIER, verifierS256: s256(RFC_VERIFIER) }));
  assert.not.ok(
    pkceMatches('plain', RFC_VERIFIER, { verifier: `${RFC_VERIFIER}x`, verifierS256: s256(`${RFC_VERIFIER}x`) }),
  );
  assert.not.ok(pkceMatches('S256', RFC_VERIFIER, { verifier: RFC_VERIFIER, verifierS256: s256(RFC_VERIFIER) }));
});

test('a malformed verifier never matches, even when its hash would', () => {
  const bad = 'short';
  assert.not.ok(pkceMatches('S256', s256(bad), { verifier: bad, verifierS256: s256(bad) }));
  assert.not.ok(pkceMatches('plain', bad, { verifier: bad, verifierS256: s256(bad) }));
});

test('method: S256 by default and when asked; plain only for clients that allow it; others refused', () => {
  assert.equal(resolvePkceMethod(undefined, false), { ok: true, method: 'S256' });
  assert.equal(resolvePkceMethod('S256', false), { ok: true, method: 'S256' });
  assert.equal(resolvePkceMethod('plain', true), { ok: true, method: 'plain' });
  assert.is(resolvePkceMethod('plain', false).ok, false);
  assert.is(resolvePkceMethod('S512', true).ok, false);
  assert.is(resolvePkceMethod('s256', true).ok, false, 'case matters');
});

test.run();
