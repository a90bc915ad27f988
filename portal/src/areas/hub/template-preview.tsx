import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useEffect, useId, useRef, useState } from 'react';
import { api, call, type RequestBody } from '../../api/client.ts';
import { fieldErrors, isApiError } from '../../api/errors.ts';
import type { paths as HubPaths } from '../../api/schema/hub.d.ts';
import { ApiErrorView } from '../../ui/api-error.tsx';
import { JsonEditor } from '../../ui/json-editor.tsx';
import { allContexts, type ContentPreview, type ContentType, SETUP_KEY, useSettled } from './hub-setup-api.ts';

type PreviewBody = RequestBody<HubPaths, '/comm/v1/templates/previewContent', 'post'>;

export type PreviewContent = {
  Channel: string;
  LanguageId: string;
  ContentType: ContentType;
  Subject: string;
  Body: string;
};

const NO_CONTEXT = '';
const pretty = (v: unknown) => JSON.stringify(v ?? {}, null, 2);

/**
 * The live rendered preview of template content as it is typed: `POST /templates/previewContent` once
 * typing pauses, through a saved context definition and a sample payload (the definition's own sample
 * until edited), so its variables are extracted and its SensitiveFields masked exactly as the API shows
 * them. An HTML body is the API's sanitized HTML in a sandboxed frame (no script runs, no same-origin
 * access); text is shown as text. Nothing is stored or sent.
 */
export function TemplatePreview({
  content,
  onRefusal,
}: {
  content: PreviewContent;
  /** the fields of the content the preview's refusal names (`Body`, `Subject`), empty when it renders */
  onRefusal?: (byField: Record<string, string>) => void;
}) {
  const ids = useId();
  const contexts = useQuery({
    queryKey: [...SETUP_KEY, 'contexts', 'all'],
    queryFn: ({ signal }) => allContexts(signal),
  });
  const [contextId, setContextId] = useState(NO_CONTEXT);
  const [sample, setSample] = useState('{}');
  // choosing a context loads its stored sample payload into the editor
  const choose = (id: string) => {
    setContextId(id);
    const chosen = contexts.data?.find((c) => c.ContextDefinitionId === id);
    if (chosen !== undefined) setSample(pretty(chosen.SamplePayload));
  };
  let payload: Record<string, unknown> | null = null;
  try {
    const parsed: unknown = JSON.parse(sample);
    if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed))
      payload = parsed as Record<string, unknown>;
  } catch {
    payload = null;
  }
  const body: PreviewBody | null =
    payload === null || content.Body === '' || content.Channel === '' || content.LanguageId === ''
      ? null
      : {
          Channel: content.Channel,
          LanguageId: content.LanguageId,
          ContentType: content.ContentType,
          ...(content.Subject !== '' && { Subject: content.Subject }),
          Body: content.Body,
          ...(contextId !== NO_CONTEXT
            ? { ContextDefinitionId: contextId, SamplePayload: payload }
            : { Context: { Payload: payload, Contexts: {}, Variables: {}, SensitiveFields: [] } }),
        };
  const settled = useSettled(body);
  const preview = useQuery({
    queryKey: [...SETUP_KEY, 'previewContent', settled],
    enabled: settled !== null,
    retry: false,
    staleTime: 60_000,
    placeholderData: keepPreviousData,
    queryFn: ({ signal }) =>
      call(
        api.hub.POST('/comm/v1/templates/previewContent', { body: settled as PreviewBody, signal }),
      ) as unknown as Promise<ContentPreview>,
  });
  const p = preview.data;
  const refusal = preview.isError ? preview.error : null;
  const report = useRef(onRefusal);
  report.current = onRefusal;
  useEffect(() => {
    report.current?.(isApiError(refusal) ? fieldErrors(refusal.details, ['Subject', 'Body']).byField : {});
  }, [refusal]);
  // a refused change keeps the last render on screen (dimmed, said so) rather than dropping the frame
  const lastGood = useRef<ContentPreview | undefined>(undefined);
  if (p !== undefined && !preview.isError) lastGood.current = p;
  const shown = preview.isError ? lastGood.current : p;
  const stale = preview.isFetching || JSON.stringify(settled) !== JSON.stringify(body);
  return (
    <section className="hs-preview" aria-labelledby={`${ids}-title`} aria-busy={stale}>
      <h2 id={`${ids}-title`}>Live preview</h2>
      <div className="field">
        <label className="field-label" htmlFor={`${ids}-context`}>
          Context definition
        </label>
        <p id={`${ids}-context-hint`} className="field-hint">
          Its variables fill the placeholders and its sensitive fields are masked, as in a send
        </p>
        <select
          id={`${ids}-context`}
          className="input"
          aria-describedby={`${ids}-context-hint`}
          value={contextId}
          onChange={(e) => choose(e.target.value)}
        >
          <option value={NO_CONTEXT}>None (no variables)</option>
          {(contexts.data ?? []).map((c) => (
            <option key={c.ContextDefinitionId} value={c.ContextDefinitionId}>
              {c.Name !== undefined ? `${c.ContextDefinitionId} (${c.Name})` : c.ContextDefinitionId}
            </option>
          ))}
        </select>
        {contexts.isError && (
          <ApiErrorView error={contexts.error} title="The context definitions could not be loaded" />
        )}
      </div>
      <div className={payload === null ? 'field field-invalid' : 'field'}>
        <label className="field-label" htmlFor={`${ids}-sample`}>
          Sample payload (JSON)
        </label>
        <JsonEditor
          id={`${ids}-sample`}
          label="Sample payload (JSON)"
          value={sample}
          onChange={setSample}
          invalid={payload === null}
          describedBy={payload === null ? `${ids}-sample-error` : undefined}
        />
        {payload === null && (
          <p id={`${ids}-sample-error`} className="field-error">
            must be a JSON object
          </p>
        )}
      </div>
      <div aria-live="polite">
        {body === null && payload !== null && (
          <p className="hs-note">Type a body (and choose a channel and language) to see it rendered.</p>
        )}
        {preview.isError && <ApiErrorView error={preview.error} title="Not rendered" />}
        {p !== undefined && !preview.isError && body !== null && (
          <>
            <p className={p.Valid ? 'hs-check-state hs-valid' : 'hs-check-state hs-invalid'}>
              {stale
                ? 'Rendering…'
                : p.Valid
                  ? 'Valid: it renders as a send would'
                  : 'Not valid for a send (see below)'}
            </p>
            {(p.Diagnostics ?? []).length > 0 && (
              <ul className="hs-diagnostics" aria-label="Diagnostics">
                {(p.Diagnostics ?? []).map((d) => (
                  <li key={d}>{d}</li>
                ))}
              </ul>
            )}
          </>
        )}
      </div>
      {shown !== undefined && body !== null && (
        <div className={preview.isError ? 'hs-rendered hs-stale' : 'hs-rendered'}>
          {preview.isError && <p className="hs-note">The last render, before the refused change:</p>}
          {shown.Subject !== undefined && (
            <>
              <h3>Subject</h3>
              <p className="hs-preview-text" data-testid="preview-subject">
                {shown.Subject}
              </p>
            </>
          )}
          <h3>Body</h3>
          {shown.BodyHtml !== undefined ? (
            <iframe
              className="hs-preview-frame"
              title="Rendered HTML body (sanitized)"
              sandbox=""
              referrerPolicy="no-referrer"
              srcDoc={shown.BodyHtml}
            />
          ) : (
            <pre className="hs-preview-text" data-testid="preview-text">
              {shown.BodyText ?? ''}
            </pre>
          )}
        </div>
      )}
    </section>
  );
}
