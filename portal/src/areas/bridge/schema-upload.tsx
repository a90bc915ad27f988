import { type ChangeEvent, useId } from 'react';
import type { ApiForm } from '../../ui/form.tsx';
import { describedBy, FieldShell } from '../../ui/form.tsx';

/**
 * The document of a schema version: a JSON file chosen from disk fills the text area, which can also be
 * typed in. The text goes to the API as it is (a string `content`), which parses and checks it and names
 * what is wrong.
 */
export function DocumentField<V extends { content: string }>({ form }: { form: ApiForm<V> }) {
  const fileId = useId();
  const ids = form.ids('content');
  const load = async (e: ChangeEvent<HTMLInputElement>) => {
    const file = e.target.files?.[0];
    if (file !== undefined) form.set('content', (await file.text()) as V['content']);
  };
  return (
    <>
      <div className="field">
        <label htmlFor={fileId} className="field-label">
          Document file (JSON)
        </label>
        <input
          id={fileId}
          type="file"
          accept="application/json,.json"
          className="input"
          onChange={(e) => void load(e)}
        />
      </div>
      <FieldShell
        label="OpenAPI 3.0 document"
        hint="The file's text, or paste it here. info.version names the version unless given below."
        required
        error={form.errors.content}
        inputId={ids.input}
        errorId={ids.error}
        hintId={ids.hint}
      >
        <textarea
          {...describedBy(form, 'content', true)}
          className="input textarea-code"
          rows={12}
          spellCheck={false}
          value={form.values.content}
          onChange={(e) => form.set('content', e.target.value as V['content'])}
        />
      </FieldShell>
    </>
  );
}
