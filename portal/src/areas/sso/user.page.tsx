import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useParams } from '@tanstack/react-router';
import { useState } from 'react';
import { api, call } from '../../api/client.ts';
import type { paths } from '../../api/schema/identity.d.ts';
import { Page } from '../../shell/page.tsx';
import { ApiErrorView } from '../../ui/api-error.tsx';
import { ConfirmDialog } from '../../ui/confirm-dialog.tsx';
import { Form, TextField, useApiForm } from '../../ui/form.tsx';
import { useStatus } from '../../ui/status.tsx';
import { RolesField, rolesOf, rolesValuesOf } from './roles-field.tsx';
import { StatusBadge } from './status-badge.tsx';
import './sso.css';

type UserView = paths['/cas/admin/v1/users/{id}']['get']['responses'][200]['content']['application/json'];

const userKey = (id: string) => ['identity', 'user', id];

/** SSO Config > Users > one user: profile and roles, disable or enable, a new password. */
export function UserPage() {
  const { userId = '' } = useParams({ strict: false }) as { userId?: string };
  const query = useQuery({
    queryKey: userKey(userId),
    queryFn: ({ signal }) =>
      call(api.identity.GET('/cas/admin/v1/users/{id}', { params: { path: { id: userId } }, signal })),
  });
  const user = query.data;
  const back = (
    <Link to="/sso/users" className="button">
      All users
    </Link>
  );
  if (user === undefined) {
    return (
      <Page title="User" actions={back}>
        {query.isError ? (
          <ApiErrorView error={query.error} title="The user could not be loaded" onRetry={() => void query.refetch()} />
        ) : (
          <p aria-busy="true">Loading…</p>
        )}
      </Page>
    );
  }
  return (
    <Page
      title={user.name ?? user.username ?? userId}
      actions={back}
      lead={
        <>
          <code>{user.username}</code> <StatusBadge status={user.status} />
        </>
      }
    >
      <UserStatus user={user} />
      <EditUser key={`${userId}-edit`} user={user} />
      <ResetPassword key={`${userId}-password`} user={user} />
    </Page>
  );
}

function UserStatus({ user }: { user: UserView }) {
  const notify = useStatus();
  const queryClient = useQueryClient();
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const id = user.user_id ?? '';
  const active = user.status === 'active';
  const run = async () => {
    setError(null);
    try {
      const params = { params: { path: { id } } };
      const after = await call(
        active
          ? api.identity.POST('/cas/admin/v1/users/{id}/disable', params)
          : api.identity.POST('/cas/admin/v1/users/{id}/enable', params),
      );
      queryClient.setQueryData(userKey(id), after);
      void queryClient.invalidateQueries({ queryKey: ['identity', 'users'] });
      notify({ text: `${user.username ?? ''} ${active ? 'disabled' : 'enabled'}` });
    } catch (e) {
      setError(e);
    } finally {
      setPending(false);
    }
  };
  return (
    <div className="action-row">
      <button type="button" className={active ? 'button button-danger' : 'button'} onClick={() => setPending(true)}>
        {active ? 'Disable user' : 'Enable user'}
      </button>
      {error !== null && <ApiErrorView error={error} title="Not done" />}
      {pending && (
        <ConfirmDialog
          title={`${active ? 'Disable' : 'Enable'} ${user.username ?? ''}?`}
          confirmLabel={active ? 'Disable' : 'Enable'}
          danger={active}
          onConfirm={() => void run()}
          onCancel={() => setPending(false)}
        >
          <p>
            {active
              ? 'Their sessions end and every token issued to them is revoked; they cannot sign in until enabled.'
              : 'They can sign in again; tokens revoked when they were disabled stay revoked.'}
          </p>
        </ConfirmDialog>
      )}
    </div>
  );
}

function EditUser({ user }: { user: UserView }) {
  const notify = useStatus();
  const queryClient = useQueryClient();
  const id = user.user_id ?? '';
  const form = useApiForm({
    initial: {
      name: user.name ?? '',
      nickname: user.nickname ?? '',
      email: user.email ?? '',
      ...rolesValuesOf(user.roles ?? []),
    },
    submit: (v) =>
      call(
        api.identity.PATCH('/cas/admin/v1/users/{id}', {
          params: { path: { id } },
          body: {
            name: v.name.trim(),
            nickname: v.nickname.trim() === '' ? null : v.nickname.trim(),
            email: v.email.trim() === '' ? null : v.email.trim(),
            roles: rolesOf(v),
          },
        }),
      ),
    onSuccess: (after) => {
      queryClient.setQueryData(userKey(id), after);
      void queryClient.invalidateQueries({ queryKey: ['identity', 'users'] });
      notify({ text: 'Changes saved' });
    },
  });
  return (
    <section className="sso-section" aria-labelledby="user-edit">
      <h2 id="user-edit">Profile and roles</h2>
      <Form form={form} submitLabel="Save changes" className="form form-wide">
        <TextField form={form} name="name" label="Name" required autoComplete="off" />
        <TextField form={form} name="nickname" label="Nickname" autoComplete="off" />
        <TextField form={form} name="email" label="Email" type="email" autoComplete="off" />
        <RolesField form={form} />
      </Form>
    </section>
  );
}

function ResetPassword({ user }: { user: UserView }) {
  const notify = useStatus();
  const id = user.user_id ?? '';
  const form = useApiForm({
    initial: { password: '' },
    submit: (v) =>
      call(
        api.identity.POST('/cas/admin/v1/users/{id}/reset-password', {
          params: { path: { id } },
          body: { password: v.password },
        }),
      ),
    onSuccess: () => {
      form.reset();
      notify({ text: `New password set for ${user.username ?? ''}` });
    },
  });
  return (
    <section className="sso-section" aria-labelledby="user-password">
      <h2 id="user-password">Reset password</h2>
      <Form form={form} submitLabel="Set password">
        <TextField
          form={form}
          name="password"
          label="New password"
          type="password"
          required
          autoComplete="new-password"
          hint="8 characters or more; tell the user through a channel of your own."
        />
      </Form>
    </section>
  );
}
