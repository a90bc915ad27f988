import { useId } from 'react';
import type { PreviewFn } from './conversion.ts';
import { ConversionEditor } from './conversion-editor.tsx';
import { type ParamDraft, paramsFor, sentKeys as sentKeysOf, type TargetDraft } from './rule-draft.ts';
import { FORM_LABELS, type ParamForm, type ParamSpec, TARGET_TYPES, type TypeId, typeOf } from './target-types.ts';

type Problem = { field: string; message: string };

/**
 * One target of a rule: its type, that type's parameters (the spec's tables), delivery options and the
 * content conversion with its preview. `problems` are the save's refusals for this target, named from the
 * target (`params.1.value`), the params counted as they were sent.
 */
export function TargetEditor(props: {
  target: TargetDraft;
  index: number;
  onChange: (next: TargetDraft) => void;
  onRemove?: () => void;
  sample: Record<string, unknown> | null;
  preview: PreviewFn;
  destinations: readonly string[] | null;
  problems: readonly Problem[];
}) {
  const id = useId();
  const t = props.target;
  const spec = typeOf(t.typeId);
  const set = <K extends keyof TargetDraft>(k: K, v: TargetDraft[K]) => props.onChange({ ...t, [k]: v });
  // a refusal names params by their index in the request
  const sentKeys = sentKeysOf(t);
  const paramProblem = (key: string, part: string) =>
    props.problems.find((p) => p.field === `params.${sentKeys.indexOf(key)}.${part}`)?.message;
  const optional = spec.params.filter((p) => p.required === false);
  const filled = (v: ParamDraft) => v.value.trim() !== '' || v.template.trim() !== '';
  const row = (p: ParamSpec) => (
    <ParamRow
      key={p.key}
      spec={p}
      value={t.params[p.key]!}
      onChange={(v) => set('params', { ...t.params, [p.key]: v })}
      destinations={p.key === 'NAME' && t.typeId === 4 ? props.destinations : null}
      problem={(part) => paramProblem(p.key, part)}
    />
  );
  const general = props.problems.filter((p) => !p.field.startsWith('params.') && !p.field.startsWith('conversion.'));
  return (
    <fieldset className="target">
      <legend>
        Target {props.index + 1} <span className="check-muted">(id {t.id})</span>
      </legend>
      {props.onRemove !== undefined && (
        <button type="button" className="button button-small target-remove" onClick={props.onRemove}>
          Remove target {props.index + 1}
        </button>
      )}
      <div className="field">
        <label className="field-label" htmlFor={`${id}-type`}>
          Target type
        </label>
        <select
          id={`${id}-type`}
          className="input"
          value={t.typeId}
          onChange={(e) => {
            const typeId = Number(e.target.value) as TypeId;
            props.onChange({ ...t, typeId, params: paramsFor(typeId, t.params) });
          }}
        >
          {TARGET_TYPES.map((x) => (
            <option key={x.id} value={x.id}>
              {x.label}
            </option>
          ))}
        </select>
      </div>
      {general.map((p) => (
        <p key={`${p.field}:${p.message}`} className="field-error">
          {p.field === '' ? '' : <code>{p.field}</code>} {p.message}
        </p>
      ))}
      <fieldset className="subfields">
        <legend>Parameters</legend>
        {spec.params.filter((p) => p.required !== false).map(row)}
        {optional.length > 0 && (
          <details className="optional-params" open={optional.some((p) => filled(t.params[p.key]!))}>
            <summary>Optional parameters ({optional.map((p) => p.key).join(', ')})</summary>
            {optional.map(row)}
          </details>
        )}
      </fieldset>
      <div className="field-row">
        <div className="field">
          <label className="field-label" htmlFor={`${id}-retry`}>
            Retry strategy
          </label>
          <select
            id={`${id}-retry`}
            className="input"
            value={t.pushRetryStrategy}
            onChange={(e) => set('pushRetryStrategy', e.target.value as TargetDraft['pushRetryStrategy'])}
          >
            <option value="BACKOFF_RETRY">Back-off (3 tries)</option>
            <option value="EXPONENTIAL_DECAY_RETRY">Exponential decay (176 tries)</option>
          </select>
        </div>
        <div className="field">
          <label className="field-label" htmlFor={`${id}-tolerance`}>
            Error tolerance
          </label>
          <select
            id={`${id}-tolerance`}
            className="input"
            value={t.errorTolerance}
            onChange={(e) => set('errorTolerance', e.target.value as TargetDraft['errorTolerance'])}
          >
            <option value="ALL">ALL: go on after a failure</option>
            <option value="NONE">NONE: block until resumed</option>
          </select>
        </div>
      </div>
      <div className="field field-check">
        <input
          id={`${id}-dlq`}
          type="checkbox"
          checked={t.deadLetterRecord}
          onChange={(e) => set('deadLetterRecord', e.target.checked)}
        />
        <label htmlFor={`${id}-dlq`}>Keep failed deliveries as dead letters</label>
      </div>
      <ConversionEditor
        value={t.conversion}
        onChange={(c) => set('conversion', c)}
        sample={props.sample}
        preview={props.preview}
        problems={props.problems
          .filter((p) => p.field.startsWith('conversion.'))
          .map((p) => ({ field: p.field.slice('conversion.'.length), message: p.message }))}
      />
    </fieldset>
  );
}

function ParamRow(props: {
  spec: ParamSpec;
  value: ParamDraft;
  onChange: (v: ParamDraft) => void;
  destinations: readonly string[] | null;
  problem: (part: 'form' | 'value' | 'template' | 'resourceKey') => string | undefined;
}) {
  const id = useId();
  const { spec, value: v } = props;
  const required =
    spec.required === true
      ? ' *'
      : typeof spec.required === 'object'
        ? ` * (when ${spec.required.key} is ${spec.required.value})`
        : '';
  const err = props.problem('value') ?? props.problem('form') ?? props.problem('resourceKey');
  const templErr = props.problem('template');
  const described = (own?: string) => [spec.hint ? `${id}-hint` : null, own].filter(Boolean).join(' ') || undefined;
  const valueLabel = v.form === 'TEMPLATE' ? `${spec.key} variables (JSON)` : spec.key;
  const valueInput = () => {
    if (v.form === 'ORIGINAL') return <p className="check-muted">The original event.</p>;
    const common = {
      id: `${id}-value`,
      'aria-required': spec.required === true ? true : undefined,
      'aria-invalid': err ? true : undefined,
      'aria-describedby': described(err ? `${id}-error` : undefined),
    };
    if (v.form === 'CONSTANT' && spec.values !== undefined)
      return (
        <select
          {...common}
          className="input"
          value={v.value}
          onChange={(e) => props.onChange({ ...v, value: e.target.value })}
        >
          {spec.values.map((x) => (
            <option key={x}>{x}</option>
          ))}
        </select>
      );
    if (v.form === 'CONSTANT' && props.destinations !== null && props.destinations.length > 0)
      return (
        <select
          {...common}
          className="input"
          value={v.value}
          onChange={(e) => props.onChange({ ...v, value: e.target.value })}
        >
          <option value="">Choose an API destination</option>
          {props.destinations.map((x) => (
            <option key={x}>{x}</option>
          ))}
        </select>
      );
    if (v.form === 'TEMPLATE')
      return (
        <textarea
          {...common}
          className="input input-mono"
          rows={3}
          spellCheck={false}
          value={v.value}
          onChange={(e) => props.onChange({ ...v, value: e.target.value })}
        />
      );
    return (
      <input
        {...common}
        className="input"
        value={v.value}
        onChange={(e) => props.onChange({ ...v, value: e.target.value })}
      />
    );
  };
  return (
    <div className={err || templErr ? 'param field-invalid' : 'param'}>
      <div className="field-row">
        {spec.forms.length > 1 && (
          <div className="field param-form">
            <label className="field-label" htmlFor={`${id}-form`}>
              {spec.key} form
            </label>
            <select
              id={`${id}-form`}
              className="input"
              value={v.form}
              onChange={(e) => props.onChange({ ...v, form: e.target.value as ParamForm })}
            >
              {spec.forms.map((f) => (
                <option key={f} value={f}>
                  {FORM_LABELS[f]}
                </option>
              ))}
            </select>
          </div>
        )}
        <div className="field param-value">
          <label className="field-label" htmlFor={`${id}-value`}>
            {valueLabel}
            {required !== '' && (
              <span className="check-muted" aria-hidden="true">
                {required}
              </span>
            )}
          </label>
          {spec.hint && (
            <p className="field-hint" id={`${id}-hint`}>
              {spec.hint}
            </p>
          )}
          {valueInput()}
          {err && (
            <p className="field-error" id={`${id}-error`}>
              {err}
            </p>
          )}
        </div>
      </div>
      {v.form === 'TEMPLATE' && (
        <div className="field">
          <label className="field-label" htmlFor={`${id}-template`}>
            {spec.key} template
          </label>
          <textarea
            id={`${id}-template`}
            className="input input-mono"
            rows={3}
            spellCheck={false}
            value={v.template}
            aria-invalid={templErr ? true : undefined}
            aria-describedby={templErr ? `${id}-terror` : undefined}
            onChange={(e) => props.onChange({ ...v, template: e.target.value })}
          />
          {templErr && (
            <p className="field-error" id={`${id}-terror`}>
              {templErr}
            </p>
          )}
        </div>
      )}
    </div>
  );
}
