import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useParams } from '@tanstack/react-router';
import { api, call } from '../../api/client.ts';
import { Page } from '../../shell/page.tsx';
import { ApiErrorView } from '../../ui/api-error.tsx';
import { Form, useApiForm } from '../../ui/form.tsx';
import { useStatus } from '../../ui/status.tsx';
import { clientQuery } from './client.query.ts';
import type { ClientView } from './client-form.tsx';
import { platformManaged } from './platform-clients.ts';
import { OPENID_SCOPES, otherScopes } from './scope-groups.ts';
import { ScopePicker } from './scope-picker.tsx';
import './sso.css';

/**
 * SSO Config > Applications > API access: which scopes of which service the application may request
 * (the client's `scopes`, saved through the client update). Scopes that are no service's are kept.
 */
export function ApiAccessPage() {
  const { clientId = '' } = useParams({ strict: false }) as { clientId?: string };
  const query = useQuery(clientQuery(clientId));
  const client = query.data;
  const back = (
    <Link to="/sso/applications/$clientId" params={{ clientId }} className="button">
      Back to the application
    </Link>
  );
  if (client === undefined) {
    return (
      <Page title="API access" actions={back}>
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
      title="API access"
      actions={back}
      lead={
        <>
          What <code>{clientId}</code> ({client.app_name ?? 'no name'}) may request from the platform's services,
          besides <code>{OPENID_SCOPES.join(' ')}</code>. A user's token carries only the scopes their roles give.
        </>
      }
    >
      {managed !== undefined ? (
        <div className="notice" role="note">
          <p>
            <strong>Managed by the platform.</strong> This client serves {managed}; the platform keeps its scopes.
          </p>
        </div>
      ) : (
        <AccessForm key={clientId} client={client} />
      )}
    </Page>
  );
}

function AccessForm({ client }: { client: ClientView }) {
  const notify = useStatus();
  const queryClient = useQueryClient();
  const id = client.client_id ?? '';
  const form = useApiForm({
    initial: { scopes: client.scopes ?? [] },
    submit: (v) =>
      call(api.identity.PATCH('/cas/admin/v1/clients/{id}', { params: { path: { id } }, body: { scopes: v.scopes } })),
    onSuccess: (after) => {
      queryClient.setQueryData(['identity', 'client', id], after);
      void queryClient.invalidateQueries({ queryKey: ['identity', 'clients'] });
      notify({ text: 'API access saved' });
    },
  });
  const others = otherScopes(form.values.scopes);
  return (
    <Form form={form} submitLabel="Save API access" className="form form-wide">
      <ScopePicker
        legend="Service scopes"
        value={form.values.scopes}
        onChange={(next) => form.set('scopes', next)}
        error={form.errors.scopes}
        inputId={form.ids('scopes').input}
      />
      {others.length > 0 && (
        <p className="field-hint">
          Also registered, and kept:{' '}
          {others.map((s) => (
            <code key={s}>{s} </code>
          ))}
        </p>
      )}
    </Form>
  );
}
