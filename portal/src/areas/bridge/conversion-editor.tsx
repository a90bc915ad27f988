import { useId } from 'react';
import {
  CONVERSION_KINDS,
  type ConversionDraft,
  type ConversionKind,
  type PreviewFn,
  type PreviewState,
  recordOf,
  useConversionPreview,
} from './conversion.ts';

/**
 * A target's content conversion (complete event, JSONPath, constant, template, configuration value) and
 * the preview of the body it gives for the sample event, rendered by the API (test-conversion).
 */
export function ConversionEditor(props: {
  value: ConversionDraft;
  onChange: (next: ConversionDraft) => void;
  sample: Record<string, unknown> | null;
  preview: PreviewFn;
  /** the save's refusals that name this conversion (field below `conversion.`) */
  problems?: ReadonlyArray<{ field: string; message: string }>;
  delayMs?: number;
}) {
  const id = useId();
  const d = props.value;
  const converted = recordOf(d);
  const state = useConversionPreview(converted, props.sample, props.preview, props.delayMs);
  const set = <K extends keyof ConversionDraft>(k: K, v: ConversionDraft[K]) => props.onChange({ ...d, [k]: v });
  const problem = (field: string) => {
    const fromPreview =
      state.status === 'refused' ? state.fields.find((f) => f.field === `conversion.${field}`) : undefined;
    const fromSave = props.problems?.find((f) => f.field === field);
    const own = !converted.ok && converted.field === field ? converted.message : undefined;
    return own ?? fromPreview?.message ?? fromSave?.message;
  };
  const text = (
    field: 'path' | 'constant' | 'variables' | 'template' | 'key',
    label: string,
    multiline: boolean,
    hint?: string,
  ) => {
    const err = problem(field);
    const ids = `${hint ? `${id}-${field}-hint ` : ''}${err ? `${id}-${field}-error` : ''}`.trim();
    const common = {
      id: `${id}-${field}`,
      className: 'input input-mono',
      value: d[field],
      'aria-invalid': err ? true : undefined,
      'aria-describedby': ids || undefined,
      spellCheck: false,
    };
    return (
      <div className={err ? 'field field-invalid' : 'field'}>
        <label className="field-label" htmlFor={`${id}-${field}`}>
          {label}
        </label>
        {hint && (
          <p className="field-hint" id={`${id}-${field}-hint`}>
            {hint}
          </p>
        )}
        {multiline ? (
          <textarea {...common} rows={4} onChange={(e) => set(field, e.target.value)} />
        ) : (
          <input {...common} onChange={(e) => set(field, e.target.value)} />
        )}
        {err && (
          <p className="field-error" id={`${id}-${field}-error`}>
            {err}
          </p>
        )}
      </div>
    );
  };
  return (
    <fieldset className="subfields">
      <legend>Content conversion</legend>
      <div className="field">
        <label className="field-label" htmlFor={`${id}-kind`}>
          Conversion
        </label>
        <select
          id={`${id}-kind`}
          className="input"
          value={d.kind}
          onChange={(e) => set('kind', e.target.value as ConversionKind)}
        >
          {CONVERSION_KINDS.map((k) => (
            <option key={k.value} value={k.value}>
              {k.label}
            </option>
          ))}
        </select>
      </div>
      {d.kind === 'partial' && text('path', 'JSONPath', false, 'starts with $, e.g. $.data')}
      {d.kind === 'constant' && text('constant', 'Constant (JSON)', true)}
      {d.kind === 'template' &&
        text('variables', 'Variables (JSON)', true, 'name → JSONPath ($.data.x) or constant; $$ escapes a $')}
      {d.kind === 'template' && text('template', 'Template', true, 'uses the variables as ${name}')}
      {d.kind === 'env' && text('key', 'Configuration key', false)}
      <section className="preview" aria-labelledby={`${id}-preview`}>
        <h3 id={`${id}-preview`} className="preview-title">
          Converted body for the sample event
        </h3>
        <div role="status">
          <PreviewBody state={state} />
        </div>
      </section>
    </fieldset>
  );
}

function PreviewBody({ state }: { state: PreviewState }) {
  switch (state.status) {
    case 'waiting':
      return <p className="check-muted">{state.why}</p>;
    case 'rendering':
      return <p className="check-muted">Rendering…</p>;
    case 'ok':
      return (
        <>
          <pre className="preview-body">{state.body}</pre>
          {state.missing.length > 0 && (
            <p className="check-muted">Left empty (their path matched nothing): {state.missing.join(', ')}</p>
          )}
        </>
      );
    case 'fails':
      return <p className="field-error">Does not convert: {state.error}</p>;
    case 'refused':
      return (
        <p className="field-error">
          <code>{state.code}</code> {state.message}
        </p>
      );
    default:
      return state satisfies never;
  }
}
