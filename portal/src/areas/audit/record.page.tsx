import { useQuery } from '@tanstack/react-query';
import { getRouteApi, Link } from '@tanstack/react-router';
import { api, call } from '../../api/client.ts';
import { targetTenant } from '../../api/target-tenant.ts';
import { Page } from '../../shell/page.tsx';
import { ApiErrorView } from '../../ui/api-error.tsx';
import { CopyButton } from '../../ui/copy-button.tsx';
import { type AuditRecord, V3, withTarget } from './audit-api.ts';
import { pretty } from './record-text.ts';
import './audit.css';
import { ScrollRegion } from '../../ui/scroll-region.tsx';

const byId = getRouteApi('/audit/records/$id');
const bySequence = getRouteApi('/audit/chain/$sequence');

export function RecordByIdPage() {
  const { id } = byId.useParams();
  const query = useQuery({
    queryKey: ['audit', 'record', id, targetTenant() ?? null],
    queryFn: ({ signal }) =>
      call(api.audit.GET(`${V3}/records/{id}`, { params: { path: { id }, query: withTarget({}) }, signal })),
  });
  return <RecordView title="Audit record" query={query} />;
}

export function RecordBySequencePage() {
  const { sequence } = bySequence.useParams();
  const n = Number(sequence);
  const query = useQuery({
    queryKey: ['audit', 'record-at', n, targetTenant() ?? null],
    queryFn: ({ signal }) =>
      call(
        api.audit.GET(`${V3}/chain/{sequence}`, { params: { path: { sequence: n }, query: withTarget({}) }, signal }),
      ),
  });
  return <RecordView title={`Audit record at sequence ${sequence}`} query={query} />;
}

function RecordView(props: {
  title: string;
  query: { data?: AuditRecord; error: unknown; isError: boolean; refetch: () => unknown };
}) {
  const r = props.query.data;
  const fields: Array<[string, string | number | undefined]> =
    r === undefined
      ? []
      : [
          ['Sequence', r.sequence],
          ['Time (UTC)', r.time],
          ['Record ID', r.id],
          ['Tenant', r.tenant],
          ['Module', r.module_name],
          ['Transaction', r.transaction_name],
          ['Transaction vendor', r.transaction_vendor],
          ['Business code', r.business_code],
          ['Client IP', r.client_ip],
          ['Level', r.warning_type],
          ['Trace ID', r.trace_id],
          ['Tags', (r.tags ?? []).join(', ')],
          ['Compression (as sent)', r.compress_type],
        ];
  return (
    <Page title={props.title} actions={<Link to="/audit/records">Back to the records</Link>}>
      {props.query.isError ? (
        <ApiErrorView
          error={props.query.error}
          title="The record could not be loaded"
          onRetry={() => void props.query.refetch()}
        />
      ) : r === undefined ? (
        <p aria-busy="true" className="audit-loading">
          Loading the record…
        </p>
      ) : (
        <>
          <dl className="audit-fields">
            {fields.map(([label, value]) => (
              <div key={label}>
                <dt>{label}</dt>
                <dd>{value === undefined || value === '' ? '—' : String(value)}</dd>
              </div>
            ))}
            <div>
              <dt>Hash</dt>
              <dd className="audit-hash">
                <code>{r.hash}</code> <CopyButton value={r.hash ?? ''} label="Copy hash" />
              </dd>
            </div>
          </dl>
          <div className="audit-data">
            <section aria-labelledby="audit-new-data">
              <h2 id="audit-new-data">New data</h2>
              <ScrollRegion className="audit-json" label="New data (JSON)">
                <pre>{pretty(r.new_data)}</pre>
              </ScrollRegion>
            </section>
            <section aria-labelledby="audit-old-data">
              <h2 id="audit-old-data">Old data</h2>
              <ScrollRegion className="audit-json" label="Old data (JSON)">
                <pre>{pretty(r.old_data)}</pre>
              </ScrollRegion>
            </section>
          </div>
        </>
      )}
    </Page>
  );
}
