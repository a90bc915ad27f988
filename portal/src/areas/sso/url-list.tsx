import { useId } from 'react';
import { FieldShell } from '../../ui/form.tsx';

/**
 * A list of URLs (redirect URIs): one input per URL, Add and Remove buttons. Nothing is checked here: the
 * API's answer marks the list, and the entries its message quotes are marked too.
 */
export function UrlList(props: {
  label: string;
  value: readonly string[];
  onChange: (next: string[]) => void;
  hint?: string;
  error?: string;
  required?: boolean;
  /** the first input's id (the form focuses it when the API names the field) */
  inputId: string;
  errorId: string;
  hintId: string;
  addLabel: string;
}) {
  const id = useId();
  const rows = props.value.length === 0 ? [''] : props.value;
  const set = (i: number, v: string) => props.onChange(rows.map((r, j) => (j === i ? v : r)));
  const remove = (i: number) => props.onChange(rows.filter((_, j) => j !== i));
  // the API quotes a refused URL in its message ("\"ftp://x\" must use http or https")
  const quoted = (url: string) => url !== '' && props.error?.includes(JSON.stringify(url)) === true;
  const invalid = (url: string) => props.error !== undefined && (quoted(url) || !rows.some(quoted));
  const describedBy = [props.hint !== undefined ? props.hintId : null, props.error !== undefined ? props.errorId : null]
    .filter(Boolean)
    .join(' ');
  return (
    <FieldShell
      label={props.label}
      hint={props.hint}
      error={props.error}
      required={props.required}
      inputId={props.inputId}
      errorId={props.errorId}
      hintId={props.hintId}
    >
      <ul className="url-list">
        {rows.map((url, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: the entries are edited in place; their place is their identity
          <li key={i}>
            <input
              id={i === 0 ? props.inputId : `${id}-${i}`}
              className="input"
              type="url"
              inputMode="url"
              value={url}
              placeholder="https://app.example/callback"
              aria-label={i === 0 ? undefined : `${props.label} ${i + 1}`}
              aria-invalid={invalid(url) ? true : undefined}
              aria-describedby={describedBy === '' ? undefined : describedBy}
              onChange={(e) => set(i, e.target.value)}
            />
            {rows.length > 1 && (
              <button
                type="button"
                className="button button-small"
                aria-label={`Remove ${url === '' ? `entry ${i + 1}` : url}`}
                onClick={() => remove(i)}
              >
                Remove
              </button>
            )}
          </li>
        ))}
      </ul>
      <button type="button" className="button button-small url-list-add" onClick={() => props.onChange([...rows, ''])}>
        {props.addLabel}
      </button>
    </FieldShell>
  );
}
