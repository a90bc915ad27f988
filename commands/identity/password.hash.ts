import { randomBytes, type ScryptOptions, scrypt, timingSafeEqual } from 'node:crypto';

/**
 * Password and client-secret hashes: scrypt with a fresh 16-byte salt per hash, stored as
 * `scrypt$N$r$p$<salt>$<hash>` (salt and hash base64url). The parameters travel with the hash, so raising
 * the cost later leaves the old hashes verifiable.
 *
 * Cost: N=2^15, r=8, p=3 is one of OWASP's scrypt settings (32 MiB per hash; the p lanes run in sequence,
 * so memory stays at 32 MiB). About 0.25 s on a small 2-core machine: a login pays it once, an attacker
 * with the event log pays it per guess.
 */
export type ScryptParams = { N: number; r: number; p: number };

export const DEFAULT_SCRYPT_PARAMS: Readonly<ScryptParams> = Object.freeze({ N: 2 ** 15, r: 8, p: 3 });

const KEY_LENGTH = 32;
const SALT_LENGTH = 16;
/** inputs beyond this are refused rather than hashed: no megabyte "passwords" to burn CPU with */
export const MAX_SECRET_LENGTH = 1024;

// Bounds for parameters read back from a stored hash: a tampered hash must not make us allocate gigabytes.
const MAX_N = 2 ** 20;
const MAX_R = 32;
const MAX_P = 16;

const derive = (secret: string, salt: Buffer, keyLength: number, params: ScryptParams): Promise<Buffer> => {
  const options: ScryptOptions = {
    N: params.N,
    r: params.r,
    p: params.p,
    // node's default limit (32 MiB) is exactly what N=2^15, r=8 needs, and scrypt wants a bit more
    maxmem: 256 * params.N * params.r + 16 * 1024 * 1024,
  };
  return new Promise((resolve, reject) => {
    scrypt(secret.normalize('NFC'), salt, keyLength, options, (err, key) => (err ? reject(err) : resolve(key)));
  });
};

export async function hashSecret(secret: string, params: ScryptParams = DEFAULT_SCRYPT_PARAMS): Promise<string> {
  if (secret.length > MAX_SECRET_LENGTH) throw new RangeError(`secret longer than ${MAX_SECRET_LENGTH} characters`);
  const salt = randomBytes(SALT_LENGTH);
  const key = await derive(secret, salt, KEY_LENGTH, params);
  return ['scrypt', params.N, params.r, params.p, salt.toString('base64url'), key.toString('base64url')].join('$');
}

type Parsed = { params: ScryptParams; salt: Buffer; key: Buffer };

const isPowerOfTwo = (n: number) => n > 1 && (n & (n - 1)) === 0;

function parse(hash: string): Parsed | null {
  const parts = hash.split('$');
  if (parts.length !== 6 || parts[0] !== 'scrypt') return null;
  const [N, r, p] = [Number(parts[1]), Number(parts[2]), Number(parts[3])];
  if (!Number.isInteger(N) || !isPowerOfTwo(N) || N > MAX_N) return null;
  if (!Number.isInteger(r) || r < 1 || r > MAX_R) return null;
  if (!Number.isInteger(p) || p < 1 || p > MAX_P) return null;
  const salt = Buffer.from(parts[4]!, 'base64url');
  const key = Buffer.from(parts[5]!, 'base64url');
  if (salt.length < 8 || key.length < 16 || key.length > 64) return null;
  return { params: { N, r, p }, salt, key };
}

/**
 * True when `secret` matches `hash`. Constant-time comparison of the derived keys; a malformed hash or an
 * over-long secret is `false` (after spending the usual scrypt, so neither answers faster).
 */
export async function verifySecret(secret: string, hash: string): Promise<boolean> {
  const parsed = parse(hash);
  if (parsed === null || secret.length > MAX_SECRET_LENGTH) {
    await dummyVerify(secret.slice(0, MAX_SECRET_LENGTH));
    return false;
  }
  const key = await derive(secret, parsed.salt, parsed.key.length, parsed.params);
  return timingSafeEqual(key, parsed.key);
}

// A hash of a random secret nobody knows, made on first use with the default cost.
let dummyHash: Promise<string> | undefined;

/**
 * Spends the same scrypt as a real verification and answers false. Call it when there is no user (or no
 * client secret) to check against, so a caller cannot tell "no such user" from "wrong password" by timing.
 */
export async function dummyVerify(secret: string): Promise<false> {
  dummyHash ??= hashSecret(randomBytes(32).toString('base64url'));
  const parsed = parse(await dummyHash)!;
  const key = await derive(secret.slice(0, MAX_SECRET_LENGTH), parsed.salt, parsed.key.length, parsed.params);
  timingSafeEqual(key, parsed.key);
  return false;
}

/** A new client secret: 32 random bytes (256 bits), base64url (43 characters). */
export const generateClientSecret = (): string => randomBytes(32).toString('base64url');

/** A generated password for a seed or an admin reset: 18 random bytes, base64url (24 characters). */
export const generatePassword = (): string => randomBytes(18).toString('base64url');
