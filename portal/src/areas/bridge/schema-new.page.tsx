import { useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import { api, call } from '../../api/client.ts';
import { Page } from '../../shell/page.tsx';
import { Form, TextField, useApiForm } from '../../ui/form.tsx';
import { useStatus } from '../../ui/status.tsx';
import { ADMIN } from './ops.shared.tsx';
import { DocumentField } from './schema-upload.tsx';

type Values = { content: string; name: string; description: string; bus: string; version: string };

/** A new schema with its first version. */
export function NewSchemaPage() {
  const notify = useStatus();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const form = useApiForm<Values, { schemaId?: string; name?: string }>({
    initial: { content: '', name: '', description: '', bus: '', version: '' },
    submit: (v) =>
      call(
        api.bridge.POST(`${ADMIN}/schemas`, {
          body: {
            content: v.content,
            ...(v.name !== '' && { name: v.name }),
            ...(v.description !== '' && { description: v.description }),
            ...(v.bus !== '' && { bus: v.bus }),
            ...(v.version !== '' && { version: v.version }),
          },
        }),
      ),
    onSuccess: (s) => {
      notify({ kind: 'success', text: `Schema ${s.name ?? ''} created` });
      void queryClient.invalidateQueries({ queryKey: ['bridge', 'schemas'] });
      void navigate({ to: '/bridge/schemas/$schemaId', params: { schemaId: s.schemaId ?? '' } });
    },
  });
  return (
    <>
      <nav className="breadcrumb" aria-label="Breadcrumb">
        <ol>
          <li>
            <Link to="/bridge/schemas">Schema registry</Link>
          </li>
          <li aria-current="page">New schema</li>
        </ol>
      </nav>
      <Page title="New schema">
        <Form form={form} submitLabel="Create schema">
          <DocumentField form={form} />
          <TextField form={form} name="name" label="Name" hint="Empty: the document's info.title." />
          <TextField form={form} name="description" label="Description" />
          <TextField form={form} name="bus" label="Bus" hint="The bus its events go to, if one." />
          <TextField form={form} name="version" label="Version" hint="Empty: the document's info.version." />
        </Form>
      </Page>
    </>
  );
}
