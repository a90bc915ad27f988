import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import { useState } from 'react';
import { api, call } from '../../api/client.ts';
import { sessionQuery } from '../../api/session.ts';
import { Page } from '../../shell/page.tsx';
import { Form, TextField, useApiForm } from '../../ui/form.tsx';
import { PagedTable } from '../../ui/paged-table.tsx';
import { useStatus } from '../../ui/status.tsx';
import { StatusBadge } from './status-badge.tsx';
import './sso.css';

/**
 * SSO Config > Tenants: a platform administrator's list of every tenant (a tenant admin sees their own),
 * and the creation of a tenant, which only the platform tenant's administrators may do.
 */
export function TenantsPage() {
  const session = useQuery(sessionQuery).data;
  const mayCreate = session?.platformAdmin === true;
  const [creating, setCreating] = useState(false);
  return (
    <Page
      title="Tenants"
      lead={mayCreate ? 'Every tenant of the platform.' : 'Your tenant; other tenants are for platform administrators.'}
      actions={
        mayCreate && !creating ? (
          <button type="button" className="button button-primary" onClick={() => setCreating(true)}>
            Create tenant
          </button>
        ) : undefined
      }
    >
      {creating && <CreateTenant onDone={() => setCreating(false)} />}
      <PagedTable
        caption="Tenants"
        captionHidden
        queryKey={['identity', 'tenants']}
        fetchPage={async ({ offset, limit }, signal) => {
          const page = await call(
            api.identity.GET('/cas/admin/v1/tenants', { params: { query: { offset, limit } }, signal }),
          );
          return { items: page.items ?? [], ...(page.total !== undefined && { total: page.total }) };
        }}
        rowKey={(t) => t.code ?? ''}
        columns={[
          {
            key: 'code',
            header: 'Code',
            rowHeader: true,
            className: 'id-cell',
            cell: (t) => (
              <Link to="/sso/tenants/$code" params={{ code: t.code ?? '' }}>
                <code>{t.code}</code>
              </Link>
            ),
          },
          { key: 'name', header: 'Name', cell: (t) => t.name },
          { key: 'ttl', header: 'Token lifetime', cell: (t) => `${t.token_lifetime_seconds ?? ''} s` },
          { key: 'mail', header: 'Support mail group', cell: (t) => t.support_mail_group ?? '' },
          { key: 'status', header: 'Status', cell: (t) => <StatusBadge status={t.status} /> },
        ]}
        empty="No tenants."
      />
    </Page>
  );
}

function CreateTenant({ onDone }: { onDone: () => void }) {
  const notify = useStatus();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const form = useApiForm({
    initial: { code: '', name: '', token_lifetime_seconds: '', support_mail_group: '' },
    submit: (v) =>
      call(
        api.identity.POST('/cas/admin/v1/tenants', {
          body: {
            code: v.code.trim(),
            name: v.name.trim(),
            ...(v.token_lifetime_seconds.trim() !== '' && { token_lifetime_seconds: Number(v.token_lifetime_seconds) }),
            ...(v.support_mail_group.trim() !== '' && { support_mail_group: v.support_mail_group.trim() }),
          },
        }),
      ),
    onSuccess: (tenant) => {
      void queryClient.invalidateQueries({ queryKey: ['identity', 'tenants'] });
      // the header's target-tenant picker lists it too
      void queryClient.invalidateQueries({ queryKey: ['portal', 'tenants'] });
      notify({ text: `Tenant ${tenant.code ?? ''} created` });
      void navigate({ to: '/sso/tenants/$code', params: { code: tenant.code ?? '' } });
    },
  });
  return (
    <section className="sso-section" aria-labelledby="tenant-create">
      <h2 id="tenant-create">Create a tenant</h2>
      <Form
        form={form}
        submitLabel="Create tenant"
        busyLabel="Creating…"
        actions={
          <button type="button" className="button" onClick={onDone}>
            Cancel
          </button>
        }
      >
        <TextField form={form} name="code" label="Code" required hint="Lower-case letters, digits, _ and -." />
        <TextField form={form} name="name" label="Name" required />
        <TextField
          form={form}
          name="token_lifetime_seconds"
          label="Token lifetime (seconds)"
          type="number"
          hint="Access tokens' lifetime; the platform's default when empty."
        />
        <TextField form={form} name="support_mail_group" label="Support mail group" type="email" />
      </Form>
    </section>
  );
}
