import { ApiError } from '../../api/errors.ts';
import type { paths } from '../../api/schema/identity.d.ts';
import { type ApiForm, FieldShell, SelectField, TextField } from '../../ui/form.tsx';
import { UrlList } from './url-list.tsx';

/**
 * The settings of an OIDC application, as the registration and the edit page show them. Field names are
 * the API's (the spec's registration table), so the fields its refusals name are marked.
 */
export type ClientView = paths['/cas/admin/v1/clients/{id}']['get']['responses'][200]['content']['application/json'];

export type ClientFormValues = {
  app_type: string;
  app_name: string;
  grant_type: string[];
  signin_redirect_url: string[];
  signout_redirect_url: string[];
  token_endpoint_auth_method: string;
  default_user: string;
  jwks: string;
  allow_plain_pkce: boolean;
  /** the API access (service scopes); the registration asks for them, the edit page leaves them to API access */
  scopes: string[];
};

export const GRANT_TYPES = [
  { value: 'authorization_code', label: 'Authorization code (browser sign-in)' },
  { value: 'refresh_token', label: 'Refresh token' },
  { value: 'client_credentials', label: 'Client credentials (machine to machine)' },
  { value: 'password', label: 'Password (legacy)' },
] as const;

export const AUTH_METHODS = [
  { value: 'client_secret_basic', label: 'client_secret_basic (confidential)' },
  { value: 'client_secret_post', label: 'client_secret_post (confidential)' },
  { value: 'private_key_jwt', label: 'private_key_jwt (signed assertion)' },
  { value: 'none', label: 'none (public client, PKCE)' },
] as const;

export const emptyClientForm: ClientFormValues = {
  app_type: 'oidc',
  app_name: '',
  grant_type: ['authorization_code', 'refresh_token'],
  signin_redirect_url: [''],
  signout_redirect_url: [''],
  token_endpoint_auth_method: 'client_secret_basic',
  default_user: '',
  jwks: '',
  allow_plain_pkce: false,
  scopes: [],
};

export const clientFormOf = (c: ClientView): ClientFormValues => ({
  app_type: 'oidc',
  app_name: c.app_name ?? '',
  grant_type: c.grant_type ?? [],
  signin_redirect_url: c.signin_redirect_url?.length ? c.signin_redirect_url : [''],
  signout_redirect_url: c.signout_redirect_url?.length ? c.signout_redirect_url : [''],
  token_endpoint_auth_method: c.token_endpoint_auth_method ?? 'client_secret_basic',
  default_user: c.default_user ?? '',
  jwks: c.jwks != null ? JSON.stringify(c.jwks, null, 2) : '',
  allow_plain_pkce: c.allow_plain_pkce === true,
  scopes: c.scopes ?? [],
});

const urls = (list: readonly string[]) => list.map((u) => u.trim()).filter(Boolean);

function parsedJwks(text: string): Array<{ kty: string }> | { keys: Array<{ kty: string }> } {
  try {
    return JSON.parse(text) as Array<{ kty: string }>;
  } catch {
    throw new ApiError(0, 'FORM.INVALID', 'the public keys are not JSON', [
      { field: 'jwks', message: 'must be a JWK Set or a list of public JWKs, as JSON' },
    ]);
  }
}

type AuthMethod = (typeof AUTH_METHODS)[number]['value'];

const commonBody = (v: ClientFormValues) => ({
  grant_type: v.grant_type,
  signin_redirect_url: urls(v.signin_redirect_url),
  signout_redirect_url: urls(v.signout_redirect_url),
  token_endpoint_auth_method: v.token_endpoint_auth_method as AuthMethod,
  allow_plain_pkce: v.allow_plain_pkce,
});
const jwksOf = (v: ClientFormValues) =>
  v.token_endpoint_auth_method === 'private_key_jwt' && v.jwks.trim() !== '' ? parsedJwks(v.jwks) : undefined;
const machineUser = (v: ClientFormValues) =>
  v.grant_type.includes('client_credentials') && v.default_user.trim() !== '' ? v.default_user.trim() : undefined;

/** the registration's body (empty settings left out) */
export function registerBody(v: ClientFormValues) {
  const name = v.app_name.trim();
  const user = machineUser(v);
  const jwks = jwksOf(v);
  return {
    ...commonBody(v),
    scopes: v.scopes,
    ...(name !== '' && { app_name: name }),
    ...(user !== undefined && { default_user: user }),
    ...(jwks !== undefined && { jwks }),
  };
}

/** the edit's body: every setting of the form, cleared ones as null (the API access is its own page's) */
export function patchBody(v: ClientFormValues) {
  const name = v.app_name.trim();
  return {
    ...commonBody(v),
    app_name: name === '' ? null : name,
    default_user: machineUser(v) ?? null,
    jwks: jwksOf(v) ?? null,
  };
}

export function ClientFields({ form }: { form: ApiForm<ClientFormValues> }) {
  const v = form.values;
  const grants = form.ids('grant_type');
  const signin = form.ids('signin_redirect_url');
  const signout = form.ids('signout_redirect_url');
  const jwks = form.ids('jwks');
  const pkce = form.ids('allow_plain_pkce');
  const toggleGrant = (g: string, on: boolean) =>
    form.set('grant_type', on ? [...v.grant_type, g] : v.grant_type.filter((x) => x !== g));
  return (
    <>
      <SelectField
        form={form}
        name="app_type"
        label="Application type"
        options={[{ value: 'oidc', label: 'OIDC' }]}
        hint="Applications sign users in with OpenID Connect."
      />
      <TextField form={form} name="app_name" label="Application name" hint="A label for administrators." />
      <FieldShell
        label="Grant types"
        error={form.errors.grant_type}
        required
        inputId={grants.input}
        errorId={grants.error}
        hintId={grants.hint}
      >
        <div className="check-row">
          {GRANT_TYPES.map((g, i) => {
            const id = i === 0 ? grants.input : `${grants.input}-${g.value}`;
            return (
              <div key={g.value} className="scope-option">
                <input
                  id={id}
                  type="checkbox"
                  checked={v.grant_type.includes(g.value)}
                  aria-invalid={form.errors.grant_type !== undefined ? true : undefined}
                  aria-describedby={form.errors.grant_type !== undefined ? grants.error : undefined}
                  onChange={(e) => toggleGrant(g.value, e.target.checked)}
                />
                <label htmlFor={id}>{g.label}</label>
              </div>
            );
          })}
        </div>
      </FieldShell>
      <UrlList
        label="Sign-in redirect URIs"
        hint="Exact match; needed for the authorization code grant."
        value={v.signin_redirect_url}
        onChange={(next) => form.set('signin_redirect_url', next)}
        error={form.errors.signin_redirect_url}
        inputId={signin.input}
        errorId={signin.error}
        hintId={signin.hint}
        addLabel="Add a redirect URI"
      />
      <UrlList
        label="Post-logout redirect URIs"
        hint="Where the provider's logout may send the browser back to."
        value={v.signout_redirect_url}
        onChange={(next) => form.set('signout_redirect_url', next)}
        error={form.errors.signout_redirect_url}
        inputId={signout.input}
        errorId={signout.error}
        hintId={signout.hint}
        addLabel="Add a post-logout URI"
      />
      <SelectField
        form={form}
        name="token_endpoint_auth_method"
        label="Authentication method"
        options={AUTH_METHODS}
        hint="Confidential: a client secret (HTTP Basic or in the form). Private-key JWT: assertions signed with its own key. Public (SPA, mobile, CLI): no secret, PKCE mandatory."
      />
      {v.token_endpoint_auth_method === 'private_key_jwt' && (
        <FieldShell
          label="Public keys (JWKS)"
          hint="The public keys the application signs its assertions with, as JSON."
          error={form.errors.jwks}
          required
          inputId={jwks.input}
          errorId={jwks.error}
          hintId={jwks.hint}
        >
          <textarea
            id={jwks.input}
            className="input"
            rows={6}
            value={v.jwks}
            aria-invalid={form.errors.jwks !== undefined ? true : undefined}
            aria-describedby={`${jwks.hint}${form.errors.jwks !== undefined ? ` ${jwks.error}` : ''}`}
            onChange={(e) => form.set('jwks', e.target.value)}
          />
        </FieldShell>
      )}
      {v.grant_type.includes('client_credentials') && (
        <TextField
          form={form}
          name="default_user"
          label="Machine user"
          required
          hint="The user its client-credentials tokens stand for (username or id)."
        />
      )}
      <div className="field scope-option">
        <input
          id={pkce.input}
          type="checkbox"
          checked={v.allow_plain_pkce}
          onChange={(e) => form.set('allow_plain_pkce', e.target.checked)}
        />
        <label htmlFor={pkce.input}>Allow PKCE method plain (S256 is always accepted)</label>
      </div>
    </>
  );
}
