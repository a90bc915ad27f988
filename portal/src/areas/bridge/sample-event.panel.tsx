import { useEffect, useId, useState } from 'react';
import { isApiError } from '../../api/errors.ts';
import { type EditorMark, JsonEditor } from '../../ui/json-editor.tsx';
import { isJsonObject, parseJsonText } from './json-text.ts';
import type { PatternCheck } from './pattern-check.ts';

/** matches a pattern against an event through the API (test-pattern) */
export type TestPattern = (pattern: unknown, event: Record<string, unknown>, signal: AbortSignal) => Promise<boolean>;

type Result =
  | { status: 'waiting'; why: string }
  | { status: 'testing' }
  | { status: 'done'; match: boolean }
  | { status: 'failed'; code: string; message: string };

/**
 * "Test against a sample event": the sample's JSON and whether the pattern matches it, asked of the API
 * again whenever either changes (debounced). The sample also feeds the targets' conversion previews.
 */
export function SampleEventPanel(props: {
  value: string;
  onChange: (text: string) => void;
  check: PatternCheck;
  test: TestPattern;
  delayMs?: number;
}) {
  const id = useId();
  const parsed = parseJsonText(props.value);
  const sampleOk = parsed.ok && isJsonObject(parsed.value);
  const [result, setResult] = useState<Result>({ status: 'waiting', why: '' });
  const { check, test } = props;
  const pattern = check.status === 'valid' ? check.pattern : null;
  const event = sampleOk ? (parsed.value as Record<string, unknown>) : null;
  const eventKey = event === null ? null : JSON.stringify(event);

  useEffect(() => {
    if (pattern === null) {
      setResult({ status: 'waiting', why: 'Waiting for a valid pattern.' });
      return;
    }
    if (eventKey === null) {
      setResult({ status: 'waiting', why: 'The sample event must be a JSON object.' });
      return;
    }
    setResult({ status: 'testing' });
    const abort = new AbortController();
    const timer = setTimeout(() => {
      test(pattern, JSON.parse(eventKey), abort.signal).then(
        (match) => !abort.signal.aborted && setResult({ status: 'done', match }),
        (e: unknown) =>
          !abort.signal.aborted &&
          setResult(
            isApiError(e)
              ? { status: 'failed', code: e.code, message: e.message }
              : { status: 'failed', code: 'PORTAL.ERROR', message: String(e) },
          ),
      );
    }, props.delayMs ?? 300);
    return () => {
      clearTimeout(timer);
      abort.abort();
    };
  }, [pattern, eventKey, test, props.delayMs]);

  const marks: EditorMark[] = parsed.ok ? [] : [{ ...parsed.span, message: parsed.message }];
  return (
    <section className="panel" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`} className="panel-title">
        Test against a sample event
      </h2>
      <JsonEditor
        id={`${id}-event`}
        label="Sample event"
        value={props.value}
        onChange={props.onChange}
        marks={marks}
        invalid={!sampleOk}
        describedBy={`${id}-result`}
      />
      <div id={`${id}-result`} className="sample-result" role="status">
        {!parsed.ok && <p className="field-error">Not JSON: {parsed.message}</p>}
        <ResultLine result={result} />
      </div>
    </section>
  );
}

function ResultLine({ result }: { result: Result }) {
  switch (result.status) {
    case 'waiting':
      return <p className="check-muted">{result.why}</p>;
    case 'testing':
      return <p className="check-muted">Testing…</p>;
    case 'done':
      return result.match ? <p className="match match-yes">Match</p> : <p className="match match-no">No match</p>;
    case 'failed':
      return (
        <p className="field-error">
          <code>{result.code}</code> {result.message}
        </p>
      );
    default:
      return result satisfies never;
  }
}
