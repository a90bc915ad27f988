/**
 * PKCE (RFC 7636) checks, pure. Hashing happens outside the domain: the caller passes the verifier's
 * SHA-256 (base64url, no padding) it computed, so no crypto module is imported here.
 */
export type PkceMethod = 'S256' | 'plain';

/** RFC 7636 4.1: 43 to 128 characters of [A-Z] / [a-z] / [0-9] / "-" / "." / "_" / "~". */
const VERIFIER = /^[A-Za-z0-9\-._~]{43,128}$/;

export const isValidCodeVerifier = (v: unknown): v is string => typeof v === 'string' && VERIFIER.test(v);

/**
 * A code_challenge has the verifier's alphabet and length too: S256 gives 43 base64url characters, plain
 * is the verifier itself.
 */
export const isValidCodeChallenge = (c: unknown): c is string => typeof c === 'string' && VERIFIER.test(c);

export type PkceMethodResult = { ok: true; method: PkceMethod } | { ok: false; reason: string };

/**
 * The method an authorization request asks for: S256 when omitted (RFC 7636 says plain, but plain is
 * only for clients registered to allow it, so omitting the method must not downgrade).
 */
export function resolvePkceMethod(requested: string | undefined, allowPlain: boolean): PkceMethodResult {
  if (requested === undefined || requested === 'S256') return { ok: true, method: 'S256' };
  if (requested === 'plain') {
    return allowPlain
      ? { ok: true, method: 'plain' }
      : { ok: false, reason: 'code_challenge_method plain is not allowed for this client' };
  }
  return { ok: false, reason: 'code_challenge_method must be S256' };
}

export type PkceProof = {
  /** as sent to the token endpoint */
  verifier: string;
  /** base64url(SHA-256(ASCII(verifier))) without padding, computed by the caller */
  verifierS256: string;
};

/** True when the verifier proves possession for the challenge stored with the code. */
export function pkceMatches(method: PkceMethod, challenge: string, proof: PkceProof): boolean {
  if (!isValidCodeVerifier(proof.verifier)) return false;
  switch (method) {
    case 'S256':
      return equalStrings(proof.verifierS256, challenge);
    case 'plain':
      return equalStrings(proof.verifier, challenge);
    default: {
      const never: never = method;
      return never;
    }
  }
}

/** Compares without an early exit on the first difference (no crypto module in the domain). */
function equalStrings(a: string, b: string): boolean {
  let diff = a.length ^ b.length;
  const n = Math.max(a.length, b.length);
  for (let i = 0; i < n; i++) diff |= (a.charCodeAt(i) | 0) ^ (b.charCodeAt(i) | 0);
  return diff === 0;
}
