import { useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useId, useRef, useState } from 'react';
import { API_BASE } from '../../api/client.ts';
import { type ApiError, isApiError, toApiError } from '../../api/errors.ts';
import { ApiErrorView } from '../../ui/api-error.tsx';
import { ScrollRegion } from '../../ui/scroll-region.tsx';
import { useStatus } from '../../ui/status.tsx';
import { V3 } from './audit-api.ts';

type ImportResult = {
  format: string;
  rows: number;
  modules_created: number;
  modules_updated: number;
  transactions_created: number;
  transactions_updated: number;
};
type RowProblem = { row: number; column?: string; reason: string };

const problemsOf = (e: ApiError): RowProblem[] =>
  Array.isArray(e.details)
    ? (e.details as unknown[]).filter(
        (d): d is RowProblem => typeof d === 'object' && d !== null && typeof (d as RowProblem).row === 'number',
      )
    : [];

/**
 * The metadata spreadsheet's import (XLSX or CSV, the API's multipart endpoint). The API imports all or
 * nothing: a file with bad rows lists each with its row number (the header is row 1), column and reason.
 */
export function MetadataImport() {
  const [result, setResult] = useState<ImportResult | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const file = useRef<HTMLInputElement>(null);
  const id = useId();
  const client = useQueryClient();
  const notify = useStatus();

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const chosen = file.current?.files?.[0];
    if (chosen === undefined) {
      setError(toApiError(400, { code: 'METADATA.FILE_INVALID', message: 'choose a spreadsheet first' }));
      return;
    }
    setBusy(true);
    setError(null);
    setResult(null);
    try {
      const body = new FormData();
      body.append('file', chosen);
      const res = await fetch(`${API_BASE}${V3}/metadata/import`, {
        method: 'POST',
        credentials: 'same-origin',
        headers: { 'x-portal': '1' },
        body,
      });
      const answer: unknown = await res.json().catch(() => null);
      if (!res.ok) throw toApiError(res.status, answer);
      setResult(answer as ImportResult);
      notify({ kind: 'success', text: 'Spreadsheet imported' });
      await client.invalidateQueries({ queryKey: ['audit', 'modules'] });
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };

  const problems = isApiError(error) ? problemsOf(error) : [];
  return (
    <form className="form audit-import" onSubmit={submit} aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`}>Import a spreadsheet</h3>
      <div className="field">
        <label htmlFor={`${id}-file`} className="field-label">
          Spreadsheet (XLSX or CSV)
        </label>
        <p id={`${id}-hint`} className="field-hint">
          Columns module_name, module_description, transaction_name, transaction_vendor, transaction_description.
          Nothing is imported while any row is refused.
        </p>
        <input
          ref={file}
          id={`${id}-file`}
          type="file"
          accept=".xlsx,.csv,text/csv,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
          aria-describedby={`${id}-hint`}
          className="input"
        />
      </div>
      <div className="form-actions">
        <button type="submit" className="button button-primary" disabled={busy}>
          {busy ? 'Importing…' : 'Import'}
        </button>
      </div>
      <div aria-live="polite">
        {result !== null && (
          <p className="audit-import-result">
            Accepted {result.rows} row{result.rows === 1 ? '' : 's'}: {result.modules_created} module(s) created,{' '}
            {result.modules_updated} updated; {result.transactions_created} transaction(s) created,{' '}
            {result.transactions_updated} updated.
          </p>
        )}
      </div>
      {error !== null && <ApiErrorView error={error} title="Not imported" />}
      {problems.length > 0 && (
        <ScrollRegion label="Refused rows">
          <table className="table">
            <caption>Refused rows</caption>
            <thead>
              <tr>
                <th scope="col">Row</th>
                <th scope="col">Column</th>
                <th scope="col">Reason</th>
              </tr>
            </thead>
            <tbody>
              {problems.map((p) => (
                <tr key={`${p.row}:${p.column ?? ''}:${p.reason}`}>
                  <th scope="row">{p.row}</th>
                  <td>{p.column ?? ''}</td>
                  <td>{p.reason}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </ScrollRegion>
      )}
    </form>
  );
}
