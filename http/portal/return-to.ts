import { hasControlCharacters } from '../../domain/core/control-characters.ts';
import { PORTAL_API_BASE, PORTAL_AUTH_BASE, PORTAL_BASE } from './portal.paths.ts';

const MAX_RETURN_TO = 1000;

/**
 * Where a sign-in may end: a page of the portal on this origin (`/portal/…`, with its query), never another
 * site (`//evil.example`, `https:…`, `/\evil`), nor the backend's own endpoints. Answers the normalized
 * path, or null when `value` is not one. Absent: the portal's home.
 */
export function safeReturnTo(value: unknown, origin: string): string | null {
  if (value === undefined || value === '') return `${PORTAL_BASE}/`;
  if (typeof value !== 'string' || value.length > MAX_RETURN_TO) return null;
  // a path, not a scheme-relative or absolute URL; no backslash (browsers read it as a slash)
  if (!value.startsWith('/') || value.startsWith('//') || value.includes('\\') || hasControlCharacters(value))
    return null;
  let url: URL;
  try {
    url = new URL(value, origin);
  } catch {
    return null;
  }
  if (url.origin !== new URL(origin).origin) return null;
  const path = url.pathname;
  if (path !== PORTAL_BASE && !path.startsWith(`${PORTAL_BASE}/`)) return null;
  if (
    path.startsWith(`${PORTAL_AUTH_BASE}/`) ||
    path === PORTAL_AUTH_BASE ||
    path.startsWith(`${PORTAL_API_BASE}/`) ||
    path === PORTAL_API_BASE
  )
    return null;
  const normalized = `${path}${url.search}`;
  // percent-encoding grows a value up to ninefold; the sealed sign-in cookie must stay under a browser's 4 KB
  return normalized.length > MAX_RETURN_TO ? null : normalized;
}
