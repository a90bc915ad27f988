import { api, call } from '../../api/client.ts';
import { Form, SelectField, TextField, useApiForm } from '../../ui/form.tsx';
import { V3, withTarget } from './audit-api.ts';
import { daysFromNow, PAGE_SIZES, type RecordsSearch, selectionOf, TEXT_FIELDS } from './records-search.ts';

type QueryValues = Record<(typeof TEXT_FIELDS)[number], string> & { return_size: string };

const valuesOf = (s: RecordsSearch): QueryValues => ({
  module_name: s.module_name ?? '',
  transaction_name: s.transaction_name ?? '',
  start_time: s.start_time ?? daysFromNow(-7).slice(0, 10).concat('T00:00:00.000Z'),
  end_time: s.end_time ?? daysFromNow(1).slice(0, 10).concat('T00:00:00.000Z'),
  warning_type: s.warning_type ?? '',
  business_code: s.business_code ?? '',
  trace_id: s.trace_id ?? '',
  client_ip: s.client_ip ?? '',
  tags: s.tags ?? '',
  return_size: String(s.return_size ?? 20),
});

export function searchOf(v: QueryValues, mode: 'page' | 'scroll'): RecordsSearch {
  const out: RecordsSearch = { return_size: Number(v.return_size), mode };
  for (const k of TEXT_FIELDS) {
    const t = v[k].trim();
    if (t !== '') out[k] = t;
  }
  if (mode === 'page') out.page = 1;
  return out;
}

/**
 * The query: the API's fields by their names. Submitting asks the API for one record first, so a refusal
 * (a bad time, an unknown field value) marks its field here and keeps the input; then the URL takes it.
 */
export function RecordQueryForm(props: { search: RecordsSearch; onQuery: (s: RecordsSearch) => void }) {
  const form = useApiForm<QueryValues, RecordsSearch>({
    initial: valuesOf(props.search),
    submit: async (v) => {
      const s = searchOf(v, props.search.mode ?? 'page');
      await call(
        api.audit.POST(`${V3}/log/query-many`, {
          body: withTarget({ ...selectionOf(s), page_num: 1, return_size: 1 }),
        }),
      );
      return s;
    },
    onSuccess: (s) => props.onQuery(s),
  });
  const iso = 'ISO 8601, e.g. 2026-03-01T10:00:00.000Z';
  return (
    <Form form={form} submitLabel="Search" busyLabel="Searching…" className="form audit-query">
      <div className="audit-query-grid">
        <TextField form={form} name="module_name" label="Module" required />
        <TextField form={form} name="transaction_name" label="Transaction" required />
        <TextField form={form} name="start_time" label="From (inclusive)" hint={iso} required />
        <TextField form={form} name="end_time" label="To (exclusive)" hint={iso} required />
        <TextField form={form} name="warning_type" label="Level" hint="INFO, WARN or a platform level" />
        <TextField form={form} name="business_code" label="Business code" hint="Exact, e.g. PolicyNo:A-1" />
        <TextField form={form} name="trace_id" label="Trace ID" />
        <TextField form={form} name="client_ip" label="Client IP" />
        <TextField form={form} name="tags" label="Tags" hint="Comma-separated: any of them" />
        <SelectField
          form={form}
          name="return_size"
          label="Records per request"
          options={PAGE_SIZES.map((n) => ({ value: String(n), label: String(n) }))}
        />
      </div>
    </Form>
  );
}
