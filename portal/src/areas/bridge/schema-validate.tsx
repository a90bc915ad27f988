import { useState } from 'react';
import { api, call } from '../../api/client.ts';
import { ApiError } from '../../api/errors.ts';
import { Form, SelectField, useApiForm } from '../../ui/form.tsx';
import { isJsonObject } from './json-text.ts';
import { ADMIN } from './ops.shared.tsx';

type Values = { version: string; event: string };
type Answer = { valid: boolean; version: string; errors: Array<{ field: string; message: string; keyword: string }> };

/**
 * Checks an event against a version, as putEvent would, without publishing it: the event (or only its data)
 * is pasted as JSON; the answer lists each field that does not follow the schema.
 */
export function ValidateForm({ schemaId, versions }: { schemaId: string; versions: string[] }) {
  const [answer, setAnswer] = useState<Answer | null>(null);
  const form = useApiForm<Values, Answer>({
    initial: { version: versions[versions.length - 1] ?? 'latest', event: '' },
    submit: async (v) => {
      setAnswer(null);
      let parsed: unknown;
      try {
        parsed = JSON.parse(v.event);
      } catch (err) {
        // refused here the way the API refuses a field, so the form marks it
        throw new ApiError(0, 'REQUEST.INVALID', 'the event is not JSON', [
          { field: 'event', message: `is not JSON: ${(err as Error).message}` },
        ]);
      }
      // narrowed here, not through a flag: an object with `data` is an event, anything else only its data
      const event = isJsonObject(parsed) && 'data' in parsed ? { ...parsed, data: parsed.data } : null;
      const r = await call(
        api.bridge.POST(`${ADMIN}/schemas/{id}/versions/{version}/validate`, {
          params: { path: { id: schemaId, version: v.version } },
          body: event !== null ? { event } : { data: parsed },
        }),
      );
      return r as unknown as Answer;
    },
    onSuccess: (r) => setAnswer(r),
  });
  return (
    <>
      <Form form={form} submitLabel="Validate" busyLabel="Validating…">
        <SelectField
          form={form}
          name="version"
          label="Version"
          options={[...versions].reverse().map((v) => ({ value: v, label: v }))}
        />
        <div className={form.errors.event !== undefined ? 'field field-invalid' : 'field'}>
          <label htmlFor={form.ids('event').input} className="field-label">
            Event (JSON)
          </label>
          <p id={form.ids('event').hint} className="field-hint">
            An event as putEvent takes it (its data is checked), or only the data.
          </p>
          <textarea
            id={form.ids('event').input}
            className="input textarea-code"
            rows={8}
            spellCheck={false}
            value={form.values.event}
            aria-invalid={form.errors.event !== undefined ? true : undefined}
            aria-describedby={`${form.ids('event').hint}${form.errors.event !== undefined ? ` ${form.ids('event').error}` : ''}`}
            onChange={(e) => form.set('event', e.target.value)}
          />
          {form.errors.event !== undefined && (
            <p id={form.ids('event').error} className="field-error">
              {form.errors.event}
            </p>
          )}
        </div>
      </Form>
      <div aria-live="polite">
        {answer !== null &&
          (answer.valid ? (
            <div className="result-panel">
              <p>
                <span className="badge badge-ok">valid</span> The event follows version {answer.version}.
              </p>
            </div>
          ) : (
            <div className="result-panel">
              <p>
                <span className="badge badge-bad">invalid</span> The event does not follow version {answer.version}:
              </p>
              <ul>
                {answer.errors.map((e) => (
                  <li key={`${e.field} ${e.keyword}`}>
                    <code>{e.field}</code> {e.message}
                  </li>
                ))}
              </ul>
            </div>
          ))}
      </div>
    </>
  );
}
