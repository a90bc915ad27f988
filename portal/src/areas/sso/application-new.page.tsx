import { useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import { useState } from 'react';
import { api, call } from '../../api/client.ts';
import { targetTenant } from '../../api/target-tenant.ts';
import { Page } from '../../shell/page.tsx';
import { Form, useApiForm } from '../../ui/form.tsx';
import { SecretOnce } from '../../ui/secret-once.tsx';
import { useStatus } from '../../ui/status.tsx';
import { ClientFields, type ClientFormValues, emptyClientForm, registerBody } from './client-form.tsx';
import { OPENID_SCOPES } from './scope-groups.ts';
import { ScopePicker } from './scope-picker.tsx';
import './sso.css';

/**
 * SSO Config > Applications > Register: an OIDC application. A confidential client's secret is in the
 * registration's answer only, so this page shows it once (SecretOnce) and the application page never does.
 */
export function ApplicationNewPage() {
  const notify = useStatus();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [registered, setRegistered] = useState<{ clientId: string; secret: string } | null>(null);
  const form = useApiForm({
    initial: emptyClientForm,
    submit: (v: ClientFormValues) => {
      const tenant = targetTenant();
      return call(
        api.identity.POST('/cas/admin/v1/clients', {
          body: { ...registerBody(v), ...(tenant !== undefined && { tenant_code: tenant }) },
        }),
      );
    },
    onSuccess: (client) => {
      void queryClient.invalidateQueries({ queryKey: ['identity', 'clients'] });
      const clientId = client.client_id ?? '';
      notify({ text: `Application ${clientId} registered` });
      if (client.client_secret !== undefined) setRegistered({ clientId, secret: client.client_secret });
      else void navigate({ to: '/sso/applications/$clientId', params: { clientId } });
    },
  });
  const scopes = form.ids('scopes');

  if (registered !== null) {
    return (
      <Page
        title="Application registered"
        lead={
          <>
            Client ID <code>{registered.clientId}</code>
          </>
        }
      >
        <SecretOnce
          title={`Client secret of ${registered.clientId}`}
          secret={registered.secret}
          note="The platform keeps only its hash; a lost secret is replaced by rotating it."
          testId="client-secret"
          onDone={() => void navigate({ to: '/sso/applications/$clientId', params: { clientId: registered.clientId } })}
        />
        <p>
          <Link to="/sso/applications/$clientId" params={{ clientId: registered.clientId }}>
            Open the application
          </Link>
        </p>
      </Page>
    );
  }
  return (
    <Page
      title="Register an application"
      lead={
        <>
          An OIDC client of your tenant. Every application may ask for <code>{OPENID_SCOPES.join(' ')}</code>; the
          service scopes below are its API access.
        </>
      }
    >
      <Form
        form={form}
        submitLabel="Register application"
        busyLabel="Registering…"
        actions={
          <Link to="/sso" className="button">
            Cancel
          </Link>
        }
      >
        <ClientFields form={form} />
        <ScopePicker
          legend="API access"
          hint="The service scopes this application may request."
          value={form.values.scopes}
          onChange={(next) => form.set('scopes', next)}
          error={form.errors.scopes}
          inputId={scopes.input}
        />
      </Form>
    </Page>
  );
}
