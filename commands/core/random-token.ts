import { randomFillSync } from 'node:crypto';

/** bytes drawn from the CSPRNG at a time: 256 tokens of 16 bytes */
const POOL_BYTES = 4096;
const pool = Buffer.allocUnsafe(POOL_BYTES);
let next = POOL_BYTES;

/**
 * `bytes` random bytes (at most 256) from node:crypto's CSPRNG, base64url: for the identifiers made per
 * request (a hub attempt's CallbackId, an access token's jti, a grant's id). Drawn from a pool refilled 4 KiB
 * at a time, as Node buffers its randomUUID: a synchronous `randomBytes` call per token cost the hub about
 * 5 µs of a send under load (profiled), the pool a fraction of one. Each byte is handed out once and zeroed
 * in the pool as it is. Secrets that outlive the request (refresh tokens, authorization and exchange codes,
 * cookies, client secrets, keys, salts) keep their own `randomBytes`.
 */
export function randomToken(bytes: number): string {
  if (!Number.isInteger(bytes) || bytes < 1 || bytes > 256)
    throw new RangeError(`randomToken: ${bytes} bytes (1 to 256)`);
  if (next + bytes > POOL_BYTES) {
    randomFillSync(pool);
    next = 0;
  }
  const token = pool.toString('base64url', next, next + bytes);
  pool.fill(0, next, next + bytes);
  next += bytes;
  return token;
}
