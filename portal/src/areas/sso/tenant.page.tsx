import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useParams } from '@tanstack/react-router';
import { api, call } from '../../api/client.ts';
import type { paths } from '../../api/schema/identity.d.ts';
import { Page } from '../../shell/page.tsx';
import { ApiErrorView } from '../../ui/api-error.tsx';
import { Form, TextField, useApiForm } from '../../ui/form.tsx';
import { useStatus } from '../../ui/status.tsx';
import { StatusBadge } from './status-badge.tsx';
import './sso.css';

type TenantView = paths['/cas/admin/v1/tenants/{code}']['get']['responses'][200]['content']['application/json'];

const tenantKey = (code: string) => ['identity', 'tenant', code];

/** SSO Config > Tenants > one tenant: its name, token lifetime and support mail group. */
export function TenantPage() {
  const { code = '' } = useParams({ strict: false }) as { code?: string };
  const query = useQuery({
    queryKey: tenantKey(code),
    queryFn: ({ signal }) =>
      call(api.identity.GET('/cas/admin/v1/tenants/{code}', { params: { path: { code } }, signal })),
  });
  const back = (
    <Link to="/sso/tenants" className="button">
      All tenants
    </Link>
  );
  const tenant = query.data;
  if (tenant === undefined) {
    return (
      <Page title={code} actions={back}>
        {query.isError ? (
          <ApiErrorView
            error={query.error}
            title="The tenant could not be loaded"
            onRetry={() => void query.refetch()}
          />
        ) : (
          <p aria-busy="true">Loading…</p>
        )}
      </Page>
    );
  }
  return (
    <Page
      title={tenant.name ?? code}
      actions={back}
      lead={
        <>
          <code>{code}</code> <StatusBadge status={tenant.status} />
        </>
      }
    >
      <EditTenant key={code} tenant={tenant} />
    </Page>
  );
}

function EditTenant({ tenant }: { tenant: TenantView }) {
  const notify = useStatus();
  const queryClient = useQueryClient();
  const code = tenant.code ?? '';
  const form = useApiForm({
    initial: {
      name: tenant.name ?? '',
      token_lifetime_seconds: String(tenant.token_lifetime_seconds ?? ''),
      support_mail_group: tenant.support_mail_group ?? '',
    },
    submit: (v) =>
      call(
        api.identity.PATCH('/cas/admin/v1/tenants/{code}', {
          params: { path: { code } },
          body: {
            name: v.name.trim(),
            ...(v.token_lifetime_seconds.trim() !== '' && { token_lifetime_seconds: Number(v.token_lifetime_seconds) }),
            support_mail_group: v.support_mail_group.trim() === '' ? null : v.support_mail_group.trim(),
          },
        }),
      ),
    onSuccess: (after) => {
      queryClient.setQueryData(tenantKey(code), after);
      void queryClient.invalidateQueries({ queryKey: ['identity', 'tenants'] });
      notify({ text: 'Changes saved' });
    },
  });
  return (
    <section className="sso-section" aria-labelledby="tenant-edit">
      <h2 id="tenant-edit">Settings</h2>
      <Form form={form} submitLabel="Save changes">
        <TextField form={form} name="name" label="Name" required />
        <TextField form={form} name="token_lifetime_seconds" label="Token lifetime (seconds)" type="number" />
        <TextField form={form} name="support_mail_group" label="Support mail group" type="email" />
      </Form>
    </section>
  );
}
