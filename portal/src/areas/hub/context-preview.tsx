import { useEffect, useId, useState } from 'react';
import { api, call } from '../../api/client.ts';
import { isApiError } from '../../api/errors.ts';
import { ApiErrorView } from '../../ui/api-error.tsx';
import { ScrollRegion } from '../../ui/scroll-region.tsx';
import { type ContextDraft, mapOf, type PlacedErrors, placeErrors, sampleValue, sensitiveOf } from './context-draft.ts';
import { type ExtractionPreview, pretty, shown, typed } from './hub-defs-api.ts';

/**
 * The extraction and masking preview of a context definition being edited, on its sample payload: the
 * API is asked again (debounced) whenever the definition or the sample changes. Extraction answers the
 * variables' display values, their source paths and the masked payload; each sensitive field whose path
 * names one plain value of the sample is masked alone too (previewMasking), beside its row. A refusal
 * names its fields: they are marked on the form (`errors`).
 */
export type MaskingLines = Record<number, { original: string; masked: string } | { note: string }>;
export type ContextPreviewState =
  | { status: 'waiting'; why: string }
  | { status: 'loading'; last: ExtractionPreview | null }
  | { status: 'done'; extraction: ExtractionPreview }
  | { status: 'refused'; error: unknown; other: string[] };

export function useContextPreview(
  draft: ContextDraft,
  payload: Record<string, unknown> | null,
  delayMs = 350,
): { state: ContextPreviewState; errors: PlacedErrors; masking: MaskingLines } {
  const [state, setState] = useState<ContextPreviewState>({ status: 'waiting', why: '' });
  const [errors, setErrors] = useState<PlacedErrors>({});
  const [masking, setMasking] = useState<MaskingLines>({});
  const contexts = mapOf(draft.contexts);
  const request = {
    Payload: payload ?? {},
    Contexts: contexts,
    Variables: mapOf(draft.variables),
    SensitiveFields: sensitiveOf(draft.sensitive),
  };
  const key = payload === null ? null : JSON.stringify(request);
  // the rows a masking line is asked for: those with a path naming one value of the sample
  const rows = draft.sensitive.filter((r) => r.Path.trim() !== '');
  const rowsKey = JSON.stringify(rows.map((r) => [r.key, r.Path, r.Method, r.Pattern]));

  // biome-ignore lint/correctness/useExhaustiveDependencies: the request's text (key, rowsKey) stands for the draft it is made of
  useEffect(() => {
    if (key === null) {
      setState({ status: 'waiting', why: 'The sample payload must be a JSON object.' });
      return;
    }
    setState((s) => ({
      status: 'loading',
      last: s.status === 'done' ? s.extraction : s.status === 'loading' ? s.last : null,
    }));
    const abort = new AbortController();
    const timer = setTimeout(() => {
      const extraction = typed<ExtractionPreview>(
        call(
          api.hub.POST('/comm/v1/context-definitions/previewExtraction', {
            body: JSON.parse(key) as typeof request,
            signal: abort.signal,
          }),
        ),
      );
      const lines = Promise.all(
        rows.map(async (r) => {
          const found = sampleValue(payload!, r.Path.trim(), contexts);
          if (found === null)
            return [r.key, { note: 'No single value of the sample at this path: see the masked payload.' }] as const;
          try {
            const answer = await typed<{ Masked: unknown }>(
              call(
                api.hub.POST('/comm/v1/context-definitions/previewMasking', {
                  body: {
                    Value: found.value,
                    Method: r.Method,
                    ...(r.Method === 'REGEX' && { Pattern: r.Pattern }),
                  },
                  signal: abort.signal,
                }),
              ),
            );
            return [r.key, { original: shown(found.value), masked: shown(answer.Masked) }] as const;
          } catch (e) {
            const why = isApiError(e) ? e.message : String(e);
            return [r.key, { note: `Not masked: ${why}` }] as const;
          }
        }),
      );
      Promise.all([extraction, lines]).then(
        ([x, l]) => {
          if (abort.signal.aborted) return;
          setState({ status: 'done', extraction: x });
          setErrors({});
          setMasking(Object.fromEntries(l));
        },
        (e: unknown) => {
          if (abort.signal.aborted) return;
          const placed = isApiError(e) ? placeErrors(e.details, draft) : { placed: {}, other: [] };
          setState({ status: 'refused', error: e, other: placed.other });
          setErrors(placed.placed);
        },
      );
    }, delayMs);
    return () => {
      clearTimeout(timer);
      abort.abort();
    };
  }, [key, rowsKey, delayMs]);
  return { state, errors, masking };
}

export function ContextPreviewPanel({ state }: { state: ContextPreviewState }) {
  const id = useId();
  const shownPreview = state.status === 'done' ? state.extraction : state.status === 'loading' ? state.last : null;
  return (
    <section className="hd-panel" aria-labelledby={`${id}-title`} aria-busy={state.status === 'loading'}>
      <h2 id={`${id}-title`} className="hd-panel-title">
        Extraction and masking preview
      </h2>
      <p className="hd-muted" role="status">
        {state.status === 'waiting' && state.why}
        {state.status === 'loading' && 'Extracting the sample…'}
        {state.status === 'done' && 'Extracted from the sample payload (nothing is stored).'}
        {state.status === 'refused' && 'The preview was refused: the marked fields say why.'}
      </p>
      {state.status === 'refused' && (
        <>
          <ApiErrorView error={state.error} title="The preview was refused" />
          {state.other.length > 0 && (
            <ul className="form-problems">
              {state.other.map((o) => (
                <li key={o}>{o}</li>
              ))}
            </ul>
          )}
        </>
      )}
      {shownPreview !== null && <ExtractionView preview={shownPreview} />}
    </section>
  );
}

function ExtractionView({ preview }: { preview: ExtractionPreview }) {
  const names = Object.keys(preview.Sources ?? {});
  const masked = new Set(preview.MaskedVariables ?? []);
  return (
    <>
      <ScrollRegion label="Extracted variables">
        <table className="table">
          <caption className="visually-hidden">Extracted variables</caption>
          <thead>
            <tr>
              <th scope="col">Variable</th>
              <th scope="col">Read from</th>
              <th scope="col">Value (as shown)</th>
            </tr>
          </thead>
          <tbody>
            {names.length === 0 && (
              <tr>
                <td colSpan={3} className="table-empty">
                  No variables declared.
                </td>
              </tr>
            )}
            {names.map((n) => (
              <tr key={n}>
                <th scope="row">
                  <code>{n}</code>
                </th>
                <td>
                  <code>{preview.Sources[n]}</code>
                </td>
                <td>
                  <code>{preview.Variables[n] === undefined ? '(no value)' : shown(preview.Variables[n])}</code>
                  {masked.has(n) && <span className="hd-badge">masked</span>}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </ScrollRegion>
      {preview.Diagnostics.length > 0 && (
        <ul className="hd-diagnostics" aria-label="Diagnostics">
          {preview.Diagnostics.map((d) => (
            <li key={d}>{d}</li>
          ))}
        </ul>
      )}
      <h3 className="hd-subtitle">Masked payload</h3>
      <ScrollRegion label="Masked payload" className="hd-json-scroll">
        <pre className="hd-json" data-testid="masked-payload">
          {pretty(preview.MaskedPayload)}
        </pre>
      </ScrollRegion>
    </>
  );
}
