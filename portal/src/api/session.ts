import { queryOptions } from '@tanstack/react-query';
import {
  PORTAL_HEADER,
  PORTAL_LOGOUT_PATH,
  PORTAL_SESSION_PATH,
  PORTAL_SIGN_IN_PAGE,
} from '../../../domain/portal/portal.paths.ts';
import { toApiError } from './errors.ts';
import type { paths } from './schema/portal.d.ts';

/** Who is signed in (GET /portal/auth/session), or null. */
export type Session = paths['/portal/auth/session']['get']['responses'][200]['content']['application/json'];

async function fetchSession(): Promise<Session | null> {
  const res = await fetch(PORTAL_SESSION_PATH, {
    credentials: 'same-origin',
    headers: { accept: 'application/json' },
  });
  const body: unknown = await res.json().catch(() => null);
  if (res.status === 401) return null;
  if (!res.ok) throw toApiError(res.status, body);
  return body as Session;
}

export const sessionQuery = queryOptions({
  queryKey: ['portal', 'session'],
  queryFn: fetchSession,
  staleTime: 5 * 60_000,
  retry: false,
});

/** every scope given is the session's */
export const hasScopes = (session: Session | null | undefined, scopes: readonly string[]): boolean =>
  session != null && scopes.every((s) => session.scopes.includes(s));

/** Ends the session here and at the provider: the answer names where the browser goes next. */
export async function signOut(): Promise<void> {
  const res = await fetch(PORTAL_LOGOUT_PATH, {
    method: 'POST',
    credentials: 'same-origin',
    headers: { [PORTAL_HEADER]: '1', accept: 'application/json' },
  });
  const body = (await res.json().catch(() => null)) as { redirectTo?: string } | null;
  if (!res.ok) throw toApiError(res.status, body);
  window.location.assign(body?.redirectTo ?? PORTAL_SIGN_IN_PAGE);
}
