import { useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import { api, call } from '../../api/client.ts';
import { Page } from '../../shell/page.tsx';
import { Form, TextField, useApiForm } from '../../ui/form.tsx';
import { useStatus } from '../../ui/status.tsx';
import { RolesField, rolesOf } from './roles-field.tsx';
import './sso.css';

/** SSO Config > Users > Create: a user of the tenant with a password and roles. */
export function UserNewPage() {
  const notify = useStatus();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const form = useApiForm({
    initial: { username: '', name: '', nickname: '', email: '', password: '', roles: [] as string[], other_roles: '' },
    submit: (v) =>
      call(
        api.identity.POST('/cas/admin/v1/users', {
          body: {
            username: v.username.trim(),
            name: v.name.trim(),
            roles: rolesOf(v),
            ...(v.password !== '' && { password: v.password }),
            ...(v.nickname.trim() !== '' && { nickname: v.nickname.trim() }),
            ...(v.email.trim() !== '' && { email: v.email.trim() }),
          },
        }),
      ),
    onSuccess: (user) => {
      void queryClient.invalidateQueries({ queryKey: ['identity', 'users'] });
      notify({ text: `User ${user.username ?? ''} created` });
      void navigate({ to: '/sso/users/$userId', params: { userId: user.user_id ?? '' } });
    },
  });
  return (
    <Page title="Create a user">
      <Form
        form={form}
        submitLabel="Create user"
        busyLabel="Creating…"
        className="form form-wide"
        actions={
          <Link to="/sso/users" className="button">
            Cancel
          </Link>
        }
      >
        <TextField form={form} name="username" label="Username" required autoComplete="off" />
        <TextField form={form} name="name" label="Name" required autoComplete="off" />
        <TextField form={form} name="nickname" label="Nickname" autoComplete="off" />
        <TextField form={form} name="email" label="Email" type="email" autoComplete="off" />
        <TextField
          form={form}
          name="password"
          label="Password"
          type="password"
          autoComplete="new-password"
          hint="8 characters or more. Without one the user cannot sign in until a password is set."
        />
        <RolesField form={form} />
      </Form>
    </Page>
  );
}
