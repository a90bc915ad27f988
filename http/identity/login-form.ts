import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Request } from 'express';
import { CAS_BASE } from './identity.paths.ts';

/**
 * The login form's integrity: the authorization request travels in a hidden field sealed with an HMAC
 * (so the POST cannot change client, redirect_uri, scopes or PKCE), and the CSRF token is an HMAC of the
 * random pre-login cookie (signed double submit: a page on another site can neither read the cookie nor
 * compute the token). The key is shared by every process (derived from the key-encryption secret), so the
 * GET and the POST may reach different processes.
 */
export const LOGIN_COOKIE = 'platform_login';
export const SESSION_COOKIE = 'platform_session';
export const COOKIE_PATH = CAS_BASE;

const mac = (key: Uint8Array, purpose: string, value: string): Buffer =>
  createHmac('sha256', key).update(`${purpose}\n${value}`, 'utf8').digest();

const equal = (a: Buffer, b: Buffer): boolean => a.length === b.length && timingSafeEqual(a, b);

const fromB64 = (s: string): Buffer | null => (/^[A-Za-z0-9_-]+$/.test(s) ? Buffer.from(s, 'base64url') : null);

export function createLoginFormSeal(key: Uint8Array) {
  if (key.length < 32) throw new Error('login form key must have at least 32 bytes');
  return {
    /** `payload.mac`, both base64url; `expiresAt` in unix seconds goes inside the payload */
    seal(value: object, expiresAt: number): string {
      const payload = Buffer.from(JSON.stringify({ v: value, exp: expiresAt }), 'utf8').toString('base64url');
      return `${payload}.${mac(key, 'authorization-request', payload).toString('base64url')}`;
    },
    /** the sealed value, or 'invalid' (tampered, malformed) or 'expired' */
    unseal<T>(
      sealed: unknown,
      nowSeconds: number,
    ): { ok: true; value: T } | { ok: false; reason: 'invalid' | 'expired' } {
      if (typeof sealed !== 'string' || sealed.length > 16_384) return { ok: false, reason: 'invalid' };
      const [payload, tag, extra] = sealed.split('.');
      const given = tag === undefined ? null : fromB64(tag);
      if (payload === undefined || given === null || extra !== undefined) return { ok: false, reason: 'invalid' };
      if (!equal(given, mac(key, 'authorization-request', payload))) return { ok: false, reason: 'invalid' };
      try {
        const parsed = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as { v: T; exp: number };
        if (typeof parsed.exp !== 'number' || parsed.exp <= nowSeconds) return { ok: false, reason: 'expired' };
        return { ok: true, value: parsed.v };
      } catch {
        return { ok: false, reason: 'invalid' };
      }
    },
    /** a fresh random value for the pre-login cookie */
    newCsrfCookie: (): string => randomBytes(32).toString('base64url'),
    csrfToken: (cookieValue: string): string => mac(key, 'csrf', cookieValue).toString('base64url'),
    csrfMatches(cookieValue: string | undefined, token: unknown): boolean {
      if (cookieValue === undefined || typeof token !== 'string') return false;
      const given = fromB64(token);
      return given !== null && equal(given, mac(key, 'csrf', cookieValue));
    },
  };
}

export type LoginFormSeal = ReturnType<typeof createLoginFormSeal>;

/** Cookies of the request (no cookie-parser dependency: a few lines of RFC 6265 parsing). */
export function readCookies(req: Request): Record<string, string> {
  const header = req.headers.cookie;
  const out: Record<string, string> = {};
  if (typeof header !== 'string') return out;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    const name = part.slice(0, eq).trim();
    let value = part.slice(eq + 1).trim();
    if (value.startsWith('"') && value.endsWith('"')) value = value.slice(1, -1);
    // the first occurrence wins (the most specific path comes first in browsers)
    if (name !== '' && !(name in out)) out[name] = value;
  }
  return out;
}

export type CookieOptions = { secure: boolean; maxAgeSeconds?: number };

/** A Set-Cookie value: HttpOnly, SameSite=Lax, Path=/cas, Secure behind TLS. Max-Age 0 clears it. */
export function cookie(name: string, value: string, o: CookieOptions): string {
  const parts = [`${name}=${value}`, `Path=${COOKIE_PATH}`, 'HttpOnly', 'SameSite=Lax'];
  if (o.maxAgeSeconds !== undefined) parts.push(`Max-Age=${Math.max(0, Math.floor(o.maxAgeSeconds))}`);
  if (o.secure) parts.push('Secure');
  return parts.join('; ');
}
