import { useId } from 'react';
import { Page } from './page.tsx';

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

const defaultTenant = (): string => document.querySelector<HTMLMetaElement>('meta[name="portal-default-tenant"]')?.content ?? '';

/**
 * The sign-in: the tenant (the seeded one by default), then the platform's own login page. A plain form
 * to the backend's /portal/auth/login: no password passes through the portal.
 */
export function SignInPage({ search }: { search: SignInSearch }) {
  const id = useId();
  const error = signInError(search);
  const tenant = search.tenant ?? defaultTenant();
  return (
    <Page title="Sign in">
      <div className="sign-in">
        <p>Sign in with your account of the platform's identity provider. Choose the tenant you administer; the next page asks for your user name and password.</p>
        {error !== undefined && (
          <p className="api-error" role="alert">
            {error}
          </p>
        )}
        <form method="get" action="/portal/auth/login" className="form">
          <div className="field">
            <label htmlFor={id} className="field-label">
              Tenant
            </label>
            <input id={id} name="tenant" className="input" defaultValue={tenant} required autoComplete="organization" autoCapitalize="none" spellCheck={false} />
          </div>
          {search.returnTo !== undefined && <input type="hidden" name="returnTo" value={search.returnTo} />}
          <div className="form-actions">
            <button type="submit" className="button button-primary">
              Continue to sign-in
            </button>
          </div>
        </form>
      </div>
    </Page>
  );
}
