import { useId, useRef, useState } from 'react';
import { ApiErrorView } from '../../ui/api-error.tsx';
import { useStatus } from '../../ui/status.tsx';
import { download, type Progress, sizeText } from './download.ts';

export type DownloadRequest = { path: string; method: 'GET' | 'POST'; body?: unknown; fallbackName: string };

/**
 * A download button with its format choice, progress (bytes and, for CSV, lines received; of how many
 * records when known) and a Cancel button while it runs.
 */
export function DownloadButton(props: {
  label: string;
  formats: readonly ['csv' | 'xlsx', ...Array<'csv' | 'xlsx'>];
  request: (format: 'csv' | 'xlsx') => DownloadRequest;
  expected?: number;
  disabled?: boolean;
}) {
  const [format, setFormat] = useState(props.formats[0]);
  const [progress, setProgress] = useState<Progress | null>(null);
  const [error, setError] = useState<unknown>(null);
  const abort = useRef<AbortController | null>(null);
  const notify = useStatus();
  const formatId = useId();

  const start = async () => {
    const controller = new AbortController();
    abort.current = controller;
    setError(null);
    setProgress({ bytes: 0, rows: 0 });
    try {
      const r = props.request(format);
      const done = await download(
        r.path,
        { method: r.method, body: r.body, fallbackName: r.fallbackName, signal: controller.signal },
        setProgress,
      );
      notify({
        kind: 'success',
        text: `Downloaded ${done.name} (${format === 'csv' ? `${done.rows} rows, ` : ''}${sizeText(done.bytes)})`,
      });
    } catch (err) {
      if (controller.signal.aborted) notify({ kind: 'info', text: 'Download cancelled' });
      else setError(err);
    } finally {
      abort.current = null;
      setProgress(null);
    }
  };

  return (
    <div className="audit-download">
      <div className="audit-download-controls">
        {props.formats.length > 1 && (
          <>
            <label htmlFor={formatId}>Format</label>
            <select
              id={formatId}
              className="input input-small"
              value={format}
              onChange={(e) => setFormat(e.target.value as 'csv' | 'xlsx')}
              disabled={progress !== null}
            >
              {props.formats.map((f) => (
                <option key={f} value={f}>
                  {f.toUpperCase()}
                </option>
              ))}
            </select>
          </>
        )}
        {progress === null ? (
          <button type="button" className="button" disabled={props.disabled} onClick={() => void start()}>
            {props.label}
          </button>
        ) : (
          <button type="button" className="button" onClick={() => abort.current?.abort()}>
            Cancel download
          </button>
        )}
      </div>
      <p className="audit-download-progress" aria-live="polite">
        {progress !== null && (
          <>
            {/* of the records expected when they are known (CSV: a line a record); else indeterminate */}
            {format === 'csv' && props.expected !== undefined && props.expected > 0 ? (
              <progress
                aria-label="Download progress"
                value={Math.min(progress.rows, props.expected)}
                max={props.expected}
              />
            ) : (
              <progress aria-label="Download progress" />
            )}{' '}
            {`${sizeText(progress.bytes)} received`}
            {format === 'csv' &&
              ` · ${progress.rows}${props.expected !== undefined ? ` of ${props.expected}` : ''} records`}
          </>
        )}
      </p>
      {error !== null && <ApiErrorView error={error} title="The download failed" />}
    </div>
  );
}
