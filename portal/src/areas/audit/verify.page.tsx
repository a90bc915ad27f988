import { Link } from '@tanstack/react-router';
import { useState } from 'react';
import { api, call } from '../../api/client.ts';
import { targetTenant } from '../../api/target-tenant.ts';
import { Page } from '../../shell/page.tsx';
import { Form, TextField, useApiForm } from '../../ui/form.tsx';
import { type SideReport, V3, type VerifyReport, withTarget } from './audit-api.ts';
import './audit.css';

type RangeValues = { from_sequence: string; to_sequence: string };

const numberOrNone = (text: string): number | undefined => (text.trim() === '' ? undefined : Number(text.trim()));

/**
 * The tamper check of a range of the chain: the API recomputes each record's hash from the log and from
 * the query store. The answer: intact with the count checked, or the first broken record (linked).
 */
export function VerifyPage() {
  const [report, setReport] = useState<VerifyReport | null>(null);
  const form = useApiForm<RangeValues, VerifyReport>({
    initial: { from_sequence: '', to_sequence: '' },
    submit: async (v) => {
      const from = numberOrNone(v.from_sequence);
      const to = numberOrNone(v.to_sequence);
      const answer = await call(
        api.audit.GET(`${V3}/verify`, {
          params: {
            query: withTarget({
              ...(from !== undefined && { from_sequence: from }),
              ...(to !== undefined && { to_sequence: to }),
            }),
          },
        }),
      );
      return answer as unknown as VerifyReport;
    },
    onSuccess: (r) => setReport(r),
  });
  return (
    <Page
      title="Chain verification"
      lead="Each tenant's records form a hash chain: verification recomputes a range of it from the log and from the query store."
    >
      <Form form={form} submitLabel="Verify" busyLabel="Verifying…" className="form audit-verify-form">
        <div className="audit-query-grid">
          <TextField
            form={form}
            name="from_sequence"
            label="From sequence"
            hint="Empty: the first record"
            type="number"
          />
          <TextField form={form} name="to_sequence" label="To sequence" hint="Empty: the newest record" type="number" />
        </div>
      </Form>
      <div className="audit-verify-result" aria-live="polite">
        {report !== null && <VerifyResult report={report} />}
      </div>
    </Page>
  );
}

function firstBroken(r: VerifyReport): { side: string; report: SideReport } | null {
  if (r.log.status !== 'valid') return { side: 'the log', report: r.log };
  if (r.read_store.status !== 'valid') return { side: 'the query store', report: r.read_store };
  return null;
}

function VerifyResult({ report }: { report: VerifyReport }) {
  const broken = firstBroken(report);
  const range =
    report.to_sequence < report.from_sequence
      ? 'no records'
      : `sequences ${report.from_sequence}–${report.to_sequence} of ${report.head_sequence}`;
  if (broken === null || report.valid) {
    return (
      <div className="audit-verdict audit-verdict-intact">
        <h2>Intact</h2>
        <p>
          {report.log.checked} record{report.log.checked === 1 ? '' : 's'} checked in the log,{' '}
          {report.read_store.checked} in the query store ({range}, tenant {report.tenant}).
        </p>
        {report.read_store.retired !== null && (
          <p>
            Retired by retention: sequences {report.read_store.retired.from_sequence}–
            {report.read_store.retired.to_sequence} (checked in the log only).
          </p>
        )}
      </div>
    );
  }
  const seq = broken.report.first_bad_sequence;
  const tenant = targetTenant();
  return (
    <div className="audit-verdict audit-verdict-broken" role="alert">
      <h2>{broken.report.status === 'missing' ? 'Records missing' : 'Broken'}</h2>
      <p>
        In {broken.side}, {range}, tenant {report.tenant}: {broken.report.checked} record
        {broken.report.checked === 1 ? '' : 's'} checked.
      </p>
      {seq !== undefined && (
        <p>
          First broken record:{' '}
          <Link
            to="/audit/chain/$sequence"
            params={{ sequence: String(seq) }}
            search={tenant === undefined ? {} : { tenant }}
          >
            sequence {seq}
          </Link>
          {broken.report.reason !== undefined && ` (${broken.report.reason})`}
        </p>
      )}
    </div>
  );
}
