import type { Response } from 'express';

/** Redirect back to the client: code or error, with state and iss (RFC 9207, mix-up defence). */
export function redirectBack(
  res: Response,
  issuer: string,
  redirectUri: string,
  params: Record<string, string | undefined>,
): void {
  const url = new URL(redirectUri);
  for (const [k, v] of Object.entries(params)) if (v !== undefined) url.searchParams.set(k, v);
  url.searchParams.set('iss', issuer);
  res
    .set({ 'Cache-Control': 'no-store', Pragma: 'no-cache', 'Referrer-Policy': 'no-referrer' })
    .redirect(302, url.href);
}
