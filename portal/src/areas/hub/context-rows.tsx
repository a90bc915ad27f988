import { type ReactNode, useId } from 'react';
import { type MapRow, mapRow, type PlacedErrors, type SensitiveRow, sensitiveRow } from './context-draft.ts';
import { MASK_METHODS, type MaskMethod } from './hub-defs-api.ts';

/**
 * The editors of a context definition's maps (aliases, variables) and its sensitive fields: one row per
 * entry, each control labelled with its row number, the API's message under the control it names.
 */
export function MapRowsEditor(props: {
  kind: 'Contexts' | 'Variables';
  legend: string;
  hint: string;
  nameLabel: string;
  pathLabel: string;
  pathPlaceholder: string;
  rows: MapRow[];
  errors: PlacedErrors;
  onChange: (rows: MapRow[]) => void;
}) {
  const id = useId();
  const set = (key: number, change: Partial<MapRow>) =>
    props.onChange(props.rows.map((r) => (r.key === key ? { ...r, ...change } : r)));
  return (
    <fieldset className="hd-rows" aria-describedby={`${id}-hint`}>
      <legend>{props.legend}</legend>
      <p id={`${id}-hint`} className="field-hint">
        {props.hint}
      </p>
      {props.rows.length === 0 && <p className="hd-muted">None yet.</p>}
      {props.rows.map((r, i) => {
        const error = props.errors[`${props.kind}:${r.key}`];
        const base = `${id}-${r.key}`;
        return (
          <div key={r.key} className={error !== undefined ? 'hd-row field-invalid' : 'hd-row'}>
            <div className="field hd-row-name">
              <label className="field-label" htmlFor={`${base}-name`}>
                {props.nameLabel} {i + 1}
              </label>
              <input
                id={`${base}-name`}
                className="input hd-mono"
                value={r.name}
                onChange={(e) => set(r.key, { name: e.target.value })}
              />
            </div>
            <div className="field hd-row-path">
              <label className="field-label" htmlFor={`${base}-path`}>
                {props.pathLabel} {i + 1}
              </label>
              <input
                id={`${base}-path`}
                data-place={`${props.kind}:${r.key}`}
                className="input hd-mono"
                value={r.path}
                placeholder={props.pathPlaceholder}
                aria-invalid={error !== undefined ? true : undefined}
                aria-describedby={error !== undefined ? `${base}-error` : undefined}
                onChange={(e) => set(r.key, { path: e.target.value })}
              />
              {error !== undefined && (
                <p id={`${base}-error`} className="field-error">
                  {error}
                </p>
              )}
            </div>
            <button
              type="button"
              className="button button-small hd-row-remove"
              aria-label={`Remove ${props.nameLabel.toLowerCase()} ${i + 1}`}
              onClick={() => props.onChange(props.rows.filter((x) => x.key !== r.key))}
            >
              Remove
            </button>
          </div>
        );
      })}
      <button type="button" className="button button-small" onClick={() => props.onChange([...props.rows, mapRow()])}>
        Add {props.nameLabel.toLowerCase()}
      </button>
    </fieldset>
  );
}

export function SensitiveRowsEditor(props: {
  rows: SensitiveRow[];
  errors: PlacedErrors;
  /** the sample's value and its masked form per row, when the path names one plain value */
  masking: Record<number, { original: string; masked: string } | { note: string }>;
  onChange: (rows: SensitiveRow[]) => void;
}) {
  const id = useId();
  const set = (key: number, change: Partial<SensitiveRow>) =>
    props.onChange(props.rows.map((r) => (r.key === key ? { ...r, ...change } : r)));
  return (
    <fieldset className="hd-rows" aria-describedby={`${id}-hint`}>
      <legend>Sensitive fields</legend>
      <p id={`${id}-hint`} className="field-hint">
        Masked wherever the payload is shown (previews, the stored payload); undeclared fields stay visible. A path is a
        JSONPath (<code>$.customer.email</code>) or written as a variable (<code>Payload.x</code>,{' '}
        <code>Context.alias.x</code>).
      </p>
      {props.rows.length === 0 && <p className="hd-muted">None yet.</p>}
      {props.rows.map((r, i) => {
        const base = `${id}-${r.key}`;
        const err = (f: 'Path' | 'Method' | 'Pattern') => props.errors[`SensitiveFields:${r.key}:${f}`];
        const m = props.masking[r.key];
        return (
          <div key={r.key} className="hd-row hd-row-sensitive">
            <Control
              id={`${base}-path`}
              label={`Sensitive field ${i + 1} path`}
              error={err('Path')}
              className="hd-row-path"
            >
              {(a) => (
                <input
                  {...a}
                  data-place={`SensitiveFields:${r.key}:Path`}
                  className="input hd-mono"
                  value={r.Path}
                  placeholder="$.customer.email"
                  onChange={(e) => set(r.key, { Path: e.target.value })}
                />
              )}
            </Control>
            <Control id={`${base}-method`} label={`Sensitive field ${i + 1} method`} error={err('Method')}>
              {(a) => (
                <select
                  {...a}
                  className="input"
                  value={r.Method}
                  onChange={(e) => set(r.key, { Method: e.target.value as MaskMethod })}
                >
                  {MASK_METHODS.map((x) => (
                    <option key={x} value={x}>
                      {x}
                    </option>
                  ))}
                </select>
              )}
            </Control>
            {r.Method === 'REGEX' && (
              <Control id={`${base}-pattern`} label={`Sensitive field ${i + 1} pattern`} error={err('Pattern')}>
                {(a) => (
                  <input
                    {...a}
                    className="input hd-mono"
                    value={r.Pattern}
                    placeholder="\d{4}"
                    onChange={(e) => set(r.key, { Pattern: e.target.value })}
                  />
                )}
              </Control>
            )}
            <button
              type="button"
              className="button button-small hd-row-remove"
              aria-label={`Remove sensitive field ${i + 1}`}
              onClick={() => props.onChange(props.rows.filter((x) => x.key !== r.key))}
            >
              Remove
            </button>
            {m !== undefined && (
              <p className="hd-mask-line" data-testid={`mask-preview-${i + 1}`}>
                {'note' in m ? (
                  <span className="hd-muted">{m.note}</span>
                ) : (
                  <>
                    Sample <code>{m.original}</code> → masked <code className="hd-masked">{m.masked}</code>
                  </>
                )}
              </p>
            )}
          </div>
        );
      })}
      <button
        type="button"
        className="button button-small"
        onClick={() => props.onChange([...props.rows, sensitiveRow()])}
      >
        Add sensitive field
      </button>
    </fieldset>
  );
}

type ControlAttributes = {
  id: string;
  'aria-invalid': true | undefined;
  'aria-describedby': string | undefined;
};

function Control(props: {
  id: string;
  label: string;
  error: string | undefined;
  className?: string;
  children: (a: ControlAttributes) => ReactNode;
}) {
  const invalid = props.error !== undefined;
  return (
    <div className={`field ${props.className ?? ''}${invalid ? ' field-invalid' : ''}`}>
      <label className="field-label" htmlFor={props.id}>
        {props.label}
      </label>
      {props.children({
        id: props.id,
        'aria-invalid': invalid ? true : undefined,
        'aria-describedby': invalid ? `${props.id}-error` : undefined,
      })}
      {invalid && (
        <p id={`${props.id}-error`} className="field-error">
          {props.error}
        </p>
      )}
    </div>
  );
}
