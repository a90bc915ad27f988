export type SignInSearch = { returnTo?: string; error?: string; tenant?: string; detail?: string };

/** the sign-in's errors, as the backend names them (http/portal/auth.router.ts) */
export function signInError(search: SignInSearch): string | undefined {
  const tenant = search.tenant ?? '';
  switch (search.error) {
    case undefined:
      return undefined;
    case 'unknown_tenant':
      return `There is no active tenant "${tenant}", or the portal is closed for it.`;
    case 'login_expired':
      return 'The sign-in took too long, or was started in another window. Please sign in again.';
    case 'state_mismatch':
    case 'issuer_mismatch':
      return 'The sign-in could not be verified. Please sign in again.';
    case 'provider_refused':
      return `The identity provider refused the sign-in${search.detail !== undefined ? ` (${search.detail})` : ''}.`;
    case 'token_refused':
    case 'id_token_invalid':
      return 'The identity provider did not confirm the sign-in. Please sign in again.';
    case 'provider_unavailable':
      return 'The identity provider cannot be reached just now. Please try again in a moment.';
    default:
      return `The sign-in failed (${search.error}).`;
  }
}
