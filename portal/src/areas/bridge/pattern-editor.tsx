import { useId, useMemo } from 'react';
import { type EditorMark, JsonEditor } from '../../ui/json-editor.tsx';
import type { PatternCheck } from './pattern-check.ts';

/**
 * The event pattern's editor: the JSON text, and under it what the check found (the browser's JSON
 * message, or the API's code and message for the pattern), the problem's place underlined in the text.
 * The check itself is the page's (usePatternCheck), so the sample-event panel can use its result.
 */
export function PatternEditor(props: {
  id: string;
  value: string;
  onChange: (text: string) => void;
  check: PatternCheck;
  /** a refusal of the rule's save that names the pattern */
  saveError?: string;
}) {
  const statusId = useId();
  const { check } = props;
  const marks = useMemo<EditorMark[]>(() => {
    if (check.status === 'syntax') return [{ ...check.span, message: check.message }];
    if (check.status === 'invalid' && check.span !== null) return [{ ...check.span, message: check.message }];
    return [];
  }, [check]);
  const invalid = check.status === 'syntax' || check.status === 'invalid' || props.saveError !== undefined;
  return (
    <div className={invalid ? 'field field-invalid' : 'field'}>
      <label className="field-label" htmlFor={props.id}>
        Event pattern<span aria-hidden="true"> *</span>
      </label>
      <p className="field-hint" id={`${statusId}-hint`}>
        A JSON object mirroring the event: each field lists the values (or matchers) that match.
      </p>
      <JsonEditor
        id={props.id}
        label="Event pattern"
        value={props.value}
        onChange={props.onChange}
        marks={marks}
        invalid={invalid}
        describedBy={`${statusId}-hint ${statusId}`}
      />
      <div id={statusId} className="check-line" aria-live="polite">
        <CheckLine check={check} />
        {props.saveError !== undefined && <p className="field-error">{props.saveError}</p>}
      </div>
    </div>
  );
}

function CheckLine({ check }: { check: PatternCheck }) {
  switch (check.status) {
    case 'empty':
      return <p className="field-error">Enter a pattern.</p>;
    case 'checking':
      return <p className="check-muted">Checking the pattern…</p>;
    case 'valid':
      return <p className="check-ok">The pattern is valid.</p>;
    case 'syntax':
      return <p className="field-error">Not JSON: {check.message}</p>;
    case 'invalid':
    case 'unavailable':
      return (
        <p className="field-error" data-code={check.code}>
          <code>{check.code}</code> {check.message}
        </p>
      );
    default:
      return check satisfies never;
  }
}
