import { test } from 'uvu';
import * as assert from 'uvu/assert';
import {
  dummyVerify,
  generateClientSecret,
  hashSecret,
  MAX_SECRET_LENGTH,
  verifySecret,
} from '../../../commands/identity/password.hash.ts';

test('hash format scrypt$N$r$p$salt$hash with the default cost, a fresh salt each time', async () => {
  const a = await hashSecret('correct horse');
  const b = await hashSecret('correct horse');
  assert.match(a, /^scrypt\$32768\$8\$3\$[A-Za-z0-9_-]{22}\$[A-Za-z0-9_-]{43}$/);
  assert.is.not(a, b, 'salted');
  assert.not.ok(a.includes('correct horse'));
});

test('verify: right secret true, wrong secret false', async () => {
  const h = await hashSecret('correct horse', { N: 1024, r: 8, p: 1 });
  assert.ok(h.startsWith('scrypt$1024$8$1$'), 'the cost travels with the hash');
  assert.is(await verifySecret('correct horse', h), true);
  assert.is(await verifySecret('correct horsE', h), false);
  assert.is(await verifySecret('', h), false);
});

test('unicode is normalized (NFC) before hashing', async () => {
  const h = await hashSecret('caf\u00e9', { N: 1024, r: 8, p: 1 });
  assert.is(await verifySecret('cafe\u0301', h), true);
});

test('malformed or tampered hashes verify false instead of throwing', async () => {
  for (const bad of [
    '',
    'plain',
    'scrypt$1$8$1$c2FsdHNhbHQ$aGFzaA',
    'scrypt$3$8$1$c2FsdHNhbHRzYWx0$aGFzaGhhc2hoYXNoaGFzaA',
    'scrypt$1073741824$8$1$c2FsdHNhbHRzYWx0$aGFzaGhhc2hoYXNoaGFzaA',
    'bcrypt$2$8$1$a$b',
  ]) {
    assert.is(await verifySecret('x', bad), false, bad);
  }
});

test('over-long secrets are refused (no CPU burning), dummyVerify answers false', async () => {
  const long = 'x'.repeat(MAX_SECRET_LENGTH + 1);
  try {
    await hashSecret(long);
    assert.unreachable();
  } catch (err) {
    assert.instance(err, RangeError);
  }
  assert.is(await verifySecret(long, await hashSecret('x', { N: 1024, r: 8, p: 1 })), false);
  assert.is(await dummyVerify('anything'), false);
});

test('client secrets: 256 bits, base64url', () => {
  const s = generateClientSecret();
  assert.match(s, /^[A-Za-z0-9_-]{43}$/);
  assert.is(Buffer.from(s, 'base64url').length, 32);
  assert.is.not(generateClientSecret(), s);
});

test.run();
