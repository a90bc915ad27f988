import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useParams } from '@tanstack/react-router';
import { useState } from 'react';
import { api, call } from '../../api/client.ts';
import { Page } from '../../shell/page.tsx';
import { ApiErrorView } from '../../ui/api-error.tsx';
import { Form, useApiForm } from '../../ui/form.tsx';
import { SecretOnce } from '../../ui/secret-once.tsx';
import { useStatus } from '../../ui/status.tsx';
import { clientQuery } from './client.query.ts';
import { ClientActions } from './client-actions.tsx';
import { ClientFields, type ClientView, clientFormOf, patchBody } from './client-form.tsx';
import { platformManaged } from './platform-clients.ts';
import { StatusBadge } from './status-badge.tsx';
import './sso.css';

const list = (xs: readonly string[] | undefined, none: string) =>
  xs !== undefined && xs.length > 0 ? (
    <ul className="plain-list">
      {xs.map((x) => (
        <li key={x}>
          <code>{x}</code>
        </li>
      ))}
    </ul>
  ) : (
    none
  );

/** SSO Config > Applications > one application: its settings, their edit, its secret and status. */
export function ApplicationPage() {
  const { clientId = '' } = useParams({ strict: false }) as { clientId?: string };
  const query = useQuery(clientQuery(clientId));
  // a rotated secret: this page's state only, gone when the page is left
  const [secret, setSecret] = useState<string | null>(null);
  const client = query.data;
  if (client === undefined) {
    return (
      <Page title={clientId}>
        {query.isError ? (
          <ApiErrorView
            error={query.error}
            title="The application could not be loaded"
            onRetry={() => void query.refetch()}
          />
        ) : (
          <p aria-busy="true">Loading…</p>
        )}
      </Page>
    );
  }
  const managed = platformManaged(clientId, client.tenant_code ?? '');
  return (
    <Page
      title={client.app_name ?? clientId}
      lead={
        <>
          <code>{clientId}</code> <StatusBadge status={client.status} />
        </>
      }
      actions={
        managed === undefined ? (
          <Link to="/sso/applications/$clientId/api-access" params={{ clientId }} className="button">
            API access
          </Link>
        ) : undefined
      }
    >
      {secret !== null && (
        <SecretOnce
          title={`Client secret of ${clientId}`}
          secret={secret}
          note="The platform keeps only its hash; a lost secret is replaced by rotating it."
          testId="client-secret"
          onDone={() => setSecret(null)}
        />
      )}
      {managed !== undefined && (
        <div className="notice" role="note">
          <p>
            <strong>Managed by the platform.</strong> This client serves {managed}; the platform registers it and keeps
            its settings, so they are not edited here.
          </p>
        </div>
      )}
      <section className="sso-section" aria-labelledby="client-settings">
        <h2 id="client-settings">Registration</h2>
        <dl className="detail-list">
          <dt>Client ID</dt>
          <dd>
            <code>{clientId}</code>
          </dd>
          <dt>Tenant</dt>
          <dd>{client.tenant_code}</dd>
          <dt>Grant types</dt>
          <dd>{(client.grant_type ?? []).join(', ')}</dd>
          <dt>Authentication</dt>
          <dd>
            <code>{client.token_endpoint_auth_method}</code>
          </dd>
          <dt>Client secret</dt>
          <dd>{client.has_client_secret ? 'set (shown only when issued)' : 'none'}</dd>
          <dt>Redirect URIs</dt>
          <dd>{list(client.signin_redirect_url, 'none')}</dd>
          <dt>Post-logout URIs</dt>
          <dd>{list(client.signout_redirect_url, 'none')}</dd>
          <dt>API access</dt>
          <dd>{list(client.scopes, 'no service scopes')}</dd>
        </dl>
        <ClientActions client={client} managed={managed} onSecret={setSecret} />
      </section>
      {managed === undefined && <EditClient key={clientId} client={client} />}
    </Page>
  );
}

function EditClient({ client }: { client: ClientView }) {
  const notify = useStatus();
  const queryClient = useQueryClient();
  const id = client.client_id ?? '';
  const form = useApiForm({
    initial: clientFormOf(client),
    submit: (v) =>
      call(api.identity.PATCH('/cas/admin/v1/clients/{id}', { params: { path: { id } }, body: patchBody(v) })),
    onSuccess: (after) => {
      queryClient.setQueryData(['identity', 'client', id], after);
      void queryClient.invalidateQueries({ queryKey: ['identity', 'clients'] });
      notify({ text: 'Changes saved' });
    },
  });
  return (
    <section className="sso-section" aria-labelledby="client-edit">
      <h2 id="client-edit">Edit settings</h2>
      <Form form={form} submitLabel="Save changes">
        <ClientFields form={form} />
      </Form>
    </section>
  );
}
