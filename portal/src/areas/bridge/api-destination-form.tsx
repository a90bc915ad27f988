import { useQuery } from '@tanstack/react-query';
import { api, call } from '../../api/client.ts';
import { ApiError } from '../../api/errors.ts';
import { Form, SelectField, TextField, useApiForm } from '../../ui/form.tsx';
import type { DestinationRow } from './api-destinations.page.tsx';
import type { AdminBody } from './bridge-api.ts';
import { ADMIN } from './ops.shared.tsx';

export const METHODS = ['POST', 'PUT', 'PATCH', 'GET', 'DELETE'] as const;

export type DestinationValues = {
  name: string;
  description: string;
  'urlTemplate.url': string;
  method: string;
  connection: string;
  timeoutMs: string;
};

type Change = AdminBody<'/api-destinations/{name}', 'put'>;
type Method = NonNullable<Change['method']>;
/** every method the API takes (the form offers METHODS; a stored HEAD stays as it is) */
const API_METHODS: Record<Method, true> = { POST: true, PUT: true, PATCH: true, GET: true, DELETE: true, HEAD: true };
const isMethod = (m: string): m is Method => Object.hasOwn(API_METHODS, m);

/** what the form gives its page: every field of PUT's body, none left out (null clears), and the name */
export type DestinationBody = Required<
  Pick<Change, 'description' | 'urlTemplate' | 'method' | 'connection' | 'timeoutMs'>
> & {
  name: string;
};

// refused here the way the API refuses a field, so the form marks it
const refused = (field: keyof DestinationValues, message: string) =>
  new ApiError(0, 'REQUEST.INVALID', `${field} ${message}`, [{ field, message }]);

function bodyOf(v: DestinationValues, e: DestinationRow | undefined): DestinationBody {
  if (!isMethod(v.method)) throw refused('method', 'is not an HTTP method the API takes');
  const timeoutMs = v.timeoutMs === '' ? null : Number(v.timeoutMs);
  if (timeoutMs !== null && !Number.isFinite(timeoutMs)) throw refused('timeoutMs', 'is not a number');
  return {
    name: v.name,
    description: v.description === '' ? null : v.description,
    urlTemplate: {
      url: v['urlTemplate.url'],
      ...(e?.urlTemplate.variables !== undefined && { variables: e.urlTemplate.variables }),
    },
    method: v.method,
    connection: v.connection === '' ? null : v.connection,
    // an integer in range is the API's to check, and to refuse by name
    timeoutMs,
  };
}

/** The API destination form (new and change); the connection is chosen from the tenant's. */
export function DestinationForm(props: {
  existing?: DestinationRow;
  submitLabel: string;
  submit: (body: DestinationBody) => Promise<unknown>;
  onSuccess: (result: unknown) => void;
}) {
  const e = props.existing;
  const connections = useQuery({
    queryKey: ['bridge', 'connections', 'names'],
    queryFn: async ({ signal }) =>
      (await call(api.bridge.GET(`${ADMIN}/connections`, { params: { query: { limit: 200, offset: 0 } }, signal })))
        .items ?? [],
  });
  const form = useApiForm<DestinationValues>({
    initial: {
      name: e?.name ?? '',
      description: e?.description ?? '',
      'urlTemplate.url': e?.urlTemplate.url ?? '',
      method: e?.method ?? 'POST',
      connection: e?.connection ?? '',
      timeoutMs: e?.timeoutMs === null || e?.timeoutMs === undefined ? '' : String(e.timeoutMs),
    },
    submit: async (v) => props.submit(bodyOf(v, e)),
    onSuccess: props.onSuccess,
  });
  const names = (connections.data ?? []).map((c) => String((c as { name?: string }).name ?? ''));
  const current = form.values.connection;
  return (
    <Form form={form} submitLabel={props.submitLabel}>
      {e === undefined && <TextField form={form} name="name" label="Name" required hint="Letters, digits, - and _." />}
      <TextField form={form} name="description" label="Description" />
      <TextField
        form={form}
        name="urlTemplate.url"
        label="URL"
        type="url"
        required
        hint="May name variables as ${name}; https, or an address OUTBOUND_ALLOW admits."
      />
      <SelectField form={form} name="method" label="Method" options={METHODS.map((m) => ({ value: m, label: m }))} />
      <SelectField
        form={form}
        name="connection"
        label="Connection"
        hint={connections.isError ? 'The connections could not be loaded.' : undefined}
        options={[
          { value: '', label: 'none' },
          ...[...new Set([...names, ...(current !== '' ? [current] : [])])].map((n) => ({ value: n, label: n })),
        ]}
      />
      <TextField
        form={form}
        name="timeoutMs"
        label="Timeout (ms)"
        type="number"
        hint="Empty: the platform's default."
      />
    </Form>
  );
}
