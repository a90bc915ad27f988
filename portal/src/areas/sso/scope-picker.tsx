import { useId } from 'react';
import { SCOPE_GROUPS } from './scope-groups.ts';

/**
 * The platform's service scopes as checkboxes, one group per service. Values that are no service's scope
 * stay in `value` untouched (the caller shows them): only the boxes shown are toggled.
 */
export function ScopePicker(props: {
  legend: string;
  value: readonly string[];
  onChange: (next: string[]) => void;
  hint?: string;
  error?: string;
  /** the id the form's error handling focuses (the first checkbox) */
  inputId?: string;
}) {
  const id = useId();
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  const toggle = (scope: string, on: boolean) =>
    props.onChange(on ? [...props.value, scope] : props.value.filter((s) => s !== scope));
  const describedBy = [props.hint !== undefined ? hintId : null, props.error !== undefined ? errorId : null]
    .filter(Boolean)
    .join(' ');
  let first = true;
  return (
    <fieldset
      className={props.error !== undefined ? 'field field-invalid scope-picker' : 'field scope-picker'}
      aria-describedby={describedBy === '' ? undefined : describedBy}
    >
      <legend className="field-label">{props.legend}</legend>
      {props.hint !== undefined && (
        <p id={hintId} className="field-hint">
          {props.hint}
        </p>
      )}
      <div className="scope-groups">
        {SCOPE_GROUPS.map((g) => (
          <fieldset key={g.service} className="scope-group">
            <legend>{g.service}</legend>
            {g.scopes.map((scope) => {
              const boxId = first && props.inputId !== undefined ? props.inputId : `${id}-${scope}`;
              first = false;
              return (
                <div key={scope} className="scope-option">
                  <input
                    id={boxId}
                    type="checkbox"
                    checked={props.value.includes(scope)}
                    aria-invalid={props.error !== undefined ? true : undefined}
                    onChange={(e) => toggle(scope, e.target.checked)}
                  />
                  <label htmlFor={boxId}>
                    <code>{scope}</code>
                  </label>
                </div>
              );
            })}
          </fieldset>
        ))}
      </div>
      {props.error !== undefined && (
        <p id={errorId} className="field-error">
          {props.error}
        </p>
      )}
    </fieldset>
  );
}
