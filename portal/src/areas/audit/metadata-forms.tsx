import { useQueryClient } from '@tanstack/react-query';
import { api, call } from '../../api/client.ts';
import { Form, TextField, useApiForm } from '../../ui/form.tsx';
import { useStatus } from '../../ui/status.tsx';
import { V3 } from './audit-api.ts';

/** Create and edit forms of modules and transactions (the API's names and descriptions). */
const useRefresh = () => {
  const client = useQueryClient();
  return () => client.invalidateQueries({ queryKey: ['audit', 'modules'] });
};

export function ModuleForm(props: { existing?: { module_name: string; description: string }; onDone: () => void }) {
  const refresh = useRefresh();
  const notify = useStatus();
  const editing = props.existing !== undefined;
  const form = useApiForm({
    initial: { module_name: props.existing?.module_name ?? '', description: props.existing?.description ?? '' },
    submit: (v) =>
      editing
        ? call(
            api.audit.PUT(`${V3}/modules/{module_name}`, {
              params: { path: { module_name: v.module_name } },
              body: { description: v.description },
            }),
          )
        : call(
            api.audit.POST(`${V3}/modules`, {
              body: { module_name: v.module_name.trim(), ...(v.description !== '' && { description: v.description }) },
            }),
          ),
    onSuccess: async (_r, v) => {
      notify({ kind: 'success', text: editing ? `Module ${v.module_name} saved` : `Module ${v.module_name} created` });
      await refresh();
      props.onDone();
    },
  });
  return (
    <Form
      form={form}
      submitLabel={editing ? 'Save module' : 'Create module'}
      actions={
        <button type="button" className="button" onClick={props.onDone}>
          Cancel
        </button>
      }
    >
      {!editing && (
        <TextField
          form={form}
          name="module_name"
          label="Module name"
          hint="Letters, digits and _ . : @ -, up to 128"
          required
        />
      )}
      <TextField form={form} name="description" label="Description" multiline />
    </Form>
  );
}

export function TransactionForm(props: {
  module: string;
  existing?: { transaction_name: string; transaction_vendor: string; description: string };
  onDone: () => void;
}) {
  const refresh = useRefresh();
  const notify = useStatus();
  const editing = props.existing !== undefined;
  const form = useApiForm({
    initial: {
      transaction_name: props.existing?.transaction_name ?? '',
      transaction_vendor: props.existing?.transaction_vendor ?? '',
      description: props.existing?.description ?? '',
    },
    submit: (v) =>
      editing
        ? call(
            api.audit.PUT(`${V3}/modules/{module_name}/transactions/{transaction_name}`, {
              params: { path: { module_name: props.module, transaction_name: v.transaction_name } },
              body: { transaction_vendor: v.transaction_vendor, description: v.description },
            }),
          )
        : call(
            api.audit.POST(`${V3}/modules/{module_name}/transactions`, {
              params: { path: { module_name: props.module } },
              body: {
                transaction_name: v.transaction_name.trim(),
                ...(v.transaction_vendor !== '' && { transaction_vendor: v.transaction_vendor }),
                ...(v.description !== '' && { description: v.description }),
              },
            }),
          ),
    onSuccess: async (_r, v) => {
      notify({
        kind: 'success',
        text: editing ? `Transaction ${v.transaction_name} saved` : `Transaction ${v.transaction_name} created`,
      });
      await refresh();
      props.onDone();
    },
  });
  return (
    <Form
      form={form}
      submitLabel={editing ? 'Save transaction' : 'Create transaction'}
      actions={
        <button type="button" className="button" onClick={props.onDone}>
          Cancel
        </button>
      }
    >
      {!editing && <TextField form={form} name="transaction_name" label="Transaction name" required />}
      <TextField form={form} name="transaction_vendor" label="Vendor" hint="The owner or vendor code" />
      <TextField form={form} name="description" label="Description" multiline />
    </Form>
  );
}
