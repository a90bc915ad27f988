// SSO Config's own controls on one page, for sso.components.browser.spec.ts: the redirect-URI list
// editor inside a form whose server refuses one URL, and the scope picker holding a scope that is no
// service's. Built with Vite into a temporary folder.
import { createRoot } from 'react-dom/client';
import { ApiError } from '../../src/api/errors.ts';
import { ScopePicker } from '../../src/areas/sso/scope-picker.tsx';
import { UrlList } from '../../src/areas/sso/url-list.tsx';
import { Form, useApiForm } from '../../src/ui/form.tsx';
import { StatusProvider } from '../../src/ui/status.tsx';
import '../../src/styles/base.css';
import '../../src/styles/shell.css';
import '../../src/styles/ui.css';
import '../../src/areas/sso/sso.css';

declare global {
  interface Window {
    /** what the last submit sent */
    submitted: unknown;
  }
}

function Fixture() {
  const form = useApiForm({
    initial: { signin_redirect_url: [''], scopes: ['tenant:cross', 'audit:read'] },
    submit: async (v) => {
      window.submitted = v;
      const bad = v.signin_redirect_url.find((u) => !/^https?:/.test(u));
      if (bad !== undefined)
        throw new ApiError(400, 'CLIENT.INVALID', 'invalid client registration', [
          { field: 'signin_redirect_url', message: `${JSON.stringify(bad)} must use http or https` },
        ]);
      return v;
    },
  });
  const ids = form.ids('signin_redirect_url');
  return (
    <main>
      <h1>SSO controls</h1>
      <Form form={form} submitLabel="Save">
        <UrlList
          label="Redirect URIs"
          value={form.values.signin_redirect_url}
          onChange={(next) => form.set('signin_redirect_url', next)}
          error={form.errors.signin_redirect_url}
          inputId={ids.input}
          errorId={ids.error}
          hintId={ids.hint}
          addLabel="Add a redirect URI"
        />
        <ScopePicker
          legend="API access"
          value={form.values.scopes}
          onChange={(next) => form.set('scopes', next)}
          inputId={form.ids('scopes').input}
        />
      </Form>
    </main>
  );
}

createRoot(document.getElementById('root')!).render(
  <StatusProvider>
    <Fixture />
  </StatusProvider>,
);
