import { Form, SelectField, TextField, useApiForm } from '../../ui/form.tsx';
import {
  AUTH_KINDS,
  AUTH_LABELS,
  type AuthKind,
  type AuthView,
  authOf,
  BEARER_SOURCES,
  type ConnectionBody,
  type ConnectionValues,
  SECRET_OF,
  secretSet,
  valuesOf,
} from './connection-auth.ts';

/**
 * The connection form, for a new connection and for changing one. Secrets are password inputs that start
 * empty; a stored one reads "set", and left empty it is kept.
 */
export function ConnectionForm(props: {
  existing?: { name?: string; description?: string | null; auth?: AuthView };
  submitLabel: string;
  submit: (body: ConnectionBody) => Promise<unknown>;
  onSuccess: () => void;
}) {
  const editing = props.existing !== undefined;
  const form = useApiForm<ConnectionValues>({
    initial: valuesOf(props.existing),
    submit: (v) =>
      props.submit({ name: v.name, ...(v.description !== '' && { description: v.description }), auth: authOf(v) }),
    onSuccess: props.onSuccess,
  });
  const kind = form.values['auth.kind'] as AuthKind;
  const keeps = editing && props.existing?.auth?.kind === kind && secretSet(props.existing?.auth);
  const secretHint = keeps
    ? 'Set. Leave empty to keep it; it is never shown again.'
    : 'Not set. Never shown again once saved.';
  const secret = (label: string) => (
    <TextField
      form={form}
      name={SECRET_OF[kind] as 'auth.password'}
      label={label}
      type="password"
      autoComplete="new-password"
      hint={secretHint}
      required={!keeps}
    />
  );
  return (
    <Form form={form} submitLabel={props.submitLabel}>
      {!editing && <TextField form={form} name="name" label="Name" required hint="Letters, digits, - and _." />}
      <TextField form={form} name="description" label="Description" />
      <SelectField
        form={form}
        name="auth.kind"
        label="Authentication"
        options={AUTH_KINDS.map((k) => ({ value: k, label: AUTH_LABELS[k] }))}
      />
      {kind === 'BASIC' && (
        <>
          <TextField form={form} name="auth.username" label="User name" required autoComplete="off" />
          {secret('Password')}
        </>
      )}
      {kind === 'BEARER' && (
        <>
          <SelectField
            form={form}
            name="auth.source"
            label="Token from"
            options={BEARER_SOURCES.map((s) => ({
              value: s,
              label: {
                caller: "the publisher's token",
                fixed: 'a fixed token',
                config: 'the configuration center',
                jsonpath: 'the event (JSONPath)',
              }[s],
            }))}
          />
          {form.values['auth.source'] === 'fixed' && secret('Token')}
          {form.values['auth.source'] === 'config' && (
            <TextField form={form} name="auth.key" label="Configuration key" required placeholder="alert.token" />
          )}
          {form.values['auth.source'] === 'jsonpath' && (
            <TextField form={form} name="auth.path" label="JSONPath in the event" required placeholder="$.data.token" />
          )}
        </>
      )}
      {kind === 'OAUTH_CLIENT_CREDENTIALS' && (
        <>
          <TextField form={form} name="auth.tokenUrl" label="Token URL" type="url" required />
          <TextField form={form} name="auth.clientId" label="Client ID" required autoComplete="off" />
          {secret('Client secret')}
          <SelectField
            form={form}
            name="auth.method"
            label="Token request method"
            options={[
              { value: 'POST', label: 'POST' },
              { value: 'GET', label: 'GET' },
            ]}
          />
          <SelectField
            form={form}
            name="auth.clientAuth"
            label="Client authentication"
            options={[
              { value: 'client_secret_basic', label: 'client_secret_basic' },
              { value: 'client_secret_post', label: 'client_secret_post' },
            ]}
          />
          <TextField form={form} name="auth.scope" label="Scope" />
          <TextField form={form} name="auth.audience" label="Audience" />
        </>
      )}
      {kind === 'API_KEY' && (
        <>
          <TextField form={form} name="auth.headerName" label="Header name" required placeholder="X-Api-Key" />
          {secret('Key')}
        </>
      )}
    </Form>
  );
}
