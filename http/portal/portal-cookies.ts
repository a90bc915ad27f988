import type { Request } from 'express';

/** The request's cookies; the first occurrence of a name wins (the most specific path comes first). */
export function readCookies(req: Request): Record<string, string> {
  const header = req.headers.cookie;
  const out: Record<string, string> = {};
  if (typeof header !== 'string') return out;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    const name = part.slice(0, eq).trim();
    const value = part.slice(eq + 1).trim();
    if (name !== '' && !(name in out)) out[name] = value;
  }
  return out;
}

export type PortalCookie = {
  path: string;
  sameSite: 'Strict' | 'Lax';
  secure: boolean;
  /** absent: until the browser closes; 0 clears the cookie */
  maxAgeSeconds?: number;
};

/** A Set-Cookie value, always HttpOnly: no script of the page reads the portal's cookies. */
export function setCookie(name: string, value: string, o: PortalCookie): string {
  const parts = [`${name}=${value}`, `Path=${o.path}`, 'HttpOnly', `SameSite=${o.sameSite}`];
  if (o.maxAgeSeconds !== undefined) parts.push(`Max-Age=${Math.max(0, Math.floor(o.maxAgeSeconds))}`);
  if (o.secure) parts.push('Secure');
  return parts.join('; ');
}
