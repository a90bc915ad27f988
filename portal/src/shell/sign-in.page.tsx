import { useId } from 'react';
import { PORTAL_LOGIN_PATH } from '../../../domain/portal/portal.paths.ts';
import { Page } from './page.tsx';
import { type SignInSearch, signInError } from './sign-in-errors.ts';

export type { SignInSearch } from './sign-in-errors.ts';

const defaultTenant = (): string =>
  document.querySelector<HTMLMetaElement>('meta[name="portal-default-tenant"]')?.content ?? '';

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
        <p>
          Sign in with your account of the platform's identity provider. Choose the tenant you administer; the next page
          asks for your user name and password.
        </p>
        {error !== undefined && (
          <p className="api-error" role="alert">
            {error}
          </p>
        )}
        <form method="get" action={PORTAL_LOGIN_PATH} className="form">
          <div className="field">
            <label htmlFor={id} className="field-label">
              Tenant
            </label>
            <input
              id={id}
              name="tenant"
              className="input"
              defaultValue={tenant}
              required
              autoComplete="organization"
              autoCapitalize="none"
              spellCheck={false}
            />
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
