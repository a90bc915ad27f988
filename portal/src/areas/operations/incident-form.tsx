import { Form, SelectField, TextField, useApiForm } from '../../ui/form.tsx';

export type IncidentQuery = { correlation?: string; stream?: string; from?: string; to?: string; category?: string };

export type IncidentValues = {
  by: 'correlation' | 'stream' | 'window';
  correlation: string;
  stream: string;
  from: string;
  to: string;
  category: string;
};

/** the form's values as the API's query: one selection, times as ISO instants where the browser reads them */
export function queryOf(v: IncidentValues): IncidentQuery {
  const instant = (s: string) => {
    const t = new Date(s.trim());
    return Number.isNaN(t.getTime()) ? s.trim() : t.toISOString();
  };
  switch (v.by) {
    case 'correlation':
      return { correlation: v.correlation.trim() };
    case 'stream':
      return { stream: v.stream.trim() };
    case 'window':
      return {
        from: instant(v.from),
        to: instant(v.to),
        ...(v.category.trim() !== '' && { category: v.category.trim() }),
      };
  }
}

const hourAgo = () => new Date(Date.now() - 3_600_000).toISOString().replace(/\.\d+Z$/, 'Z');
const now = () => new Date().toISOString().replace(/\.\d+Z$/, 'Z');

/** what to look for: a correlation id, a stream, or a time window (one category, optionally) */
export function IncidentForm(props: { onFind: (q: IncidentQuery) => Promise<unknown>; initial?: IncidentQuery }) {
  const i = props.initial ?? {};
  const form = useApiForm<IncidentValues>({
    initial: {
      by: i.stream !== undefined ? 'stream' : i.from !== undefined ? 'window' : 'correlation',
      correlation: i.correlation ?? '',
      stream: i.stream ?? '',
      from: i.from ?? hourAgo(),
      to: i.to ?? now(),
      category: i.category ?? '',
    },
    submit: (v) => props.onFind(queryOf(v)),
  });
  const by = form.values.by;
  return (
    <Form form={form} submitLabel="Show timeline" busyLabel="Reading the log…" className="form incident-form">
      <SelectField
        form={form}
        name="by"
        label="Find by"
        options={[
          { value: 'correlation', label: 'Correlation id' },
          { value: 'stream', label: 'Stream' },
          { value: 'window', label: 'Time window' },
        ]}
      />
      {by === 'correlation' && (
        <TextField
          form={form}
          name="correlation"
          label="Correlation id"
          hint="A request's x-correlation-id: every event it caused, in every service."
          required
        />
      )}
      {by === 'stream' && (
        <TextField
          form={form}
          name="stream"
          label="Stream"
          hint="Such as user-demo.<id> or rule-demo.<ruleId>."
          required
        />
      )}
      {by === 'window' && (
        <div className="incident-window">
          <TextField form={form} name="from" label="From" hint="ISO 8601, such as 2026-11-22T10:00:00Z." required />
          <TextField form={form} name="to" label="To" required />
          <TextField form={form} name="category" label="Category" hint="Optional: delivery, user, published …" />
        </div>
      )}
    </Form>
  );
}
