import { type FormEvent, type ReactNode, useCallback, useId, useRef, useState } from 'react';
import { fieldErrors, isApiError } from '../api/errors.ts';
import { ApiErrorView } from './api-error.tsx';

/**
 * Forms that talk to the API. The input stays when the server refuses it; the fields the error's details
 * name are marked (aria-invalid, the message below the field), the error itself is shown above the
 * buttons, and focus moves to the first marked field (or the error).
 *
 *   const form = useApiForm({
 *     initial: { name: '', description: '' },
 *     submit: (v) => call(api.bridge.POST('/api/…/buses', { body: v })),
 *     onSuccess: () => notify({ text: 'Bus created' }),
 *   });
 *   <Form form={form} submitLabel="Create bus">
 *     <TextField form={form} name="name" label="Name" required />
 *   </Form>
 */
export type FormValues = Record<string, unknown>;

export type ApiForm<V extends FormValues> = {
  values: V;
  set<K extends keyof V & string>(name: K, value: V[K]): void;
  /** messages by field, from the last refusal */
  errors: Partial<Record<keyof V & string, string>>;
  /** the last refusal (or any other failure), null after a success or a new submit */
  error: unknown;
  /** details that name no field of the form */
  otherProblems: Array<{ field: string; message: string }>;
  submitting: boolean;
  handleSubmit(e?: FormEvent): Promise<void>;
  /** the ids of a field's parts */
  ids(name: keyof V & string): { input: string; error: string; hint: string };
  /** the id of the error summary (focused when no field is named) */
  summaryId: string;
  reset(values?: V): void;
};

export function useApiForm<V extends FormValues, R = unknown>(o: {
  initial: V;
  submit: (values: V) => Promise<R>;
  onSuccess?: (result: R, values: V) => void;
}): ApiForm<V> {
  const [values, setValues] = useState<V>(o.initial);
  const [errors, setErrors] = useState<Partial<Record<keyof V & string, string>>>({});
  const [otherProblems, setOther] = useState<Array<{ field: string; message: string }>>([]);
  const [error, setError] = useState<unknown>(null);
  const [submitting, setSubmitting] = useState(false);
  const prefix = useId();
  const latest = useRef(o);
  latest.current = o;

  const ids = useCallback(
    (name: string) => ({
      input: `${prefix}-${name}`,
      error: `${prefix}-${name}-error`,
      hint: `${prefix}-${name}-hint`,
    }),
    [prefix],
  );

  const handleSubmit = async (e?: FormEvent) => {
    e?.preventDefault();
    if (submitting) return;
    setSubmitting(true);
    setError(null);
    setErrors({});
    setOther([]);
    try {
      const result = await latest.current.submit(values);
      latest.current.onSuccess?.(result, values);
    } catch (err) {
      setError(err);
      if (isApiError(err)) {
        const { byField, unmatched } = fieldErrors(err.details, Object.keys(values));
        setErrors(byField as Partial<Record<keyof V & string, string>>);
        setOther(unmatched);
        const first = Object.keys(values).find((k) => k in byField);
        // after the render that marks the fields
        setTimeout(
          () => document.getElementById(first !== undefined ? ids(first).input : `${prefix}-summary`)?.focus(),
          0,
        );
      } else {
        setTimeout(() => document.getElementById(`${prefix}-summary`)?.focus(), 0);
      }
    } finally {
      setSubmitting(false);
    }
  };

  return {
    values,
    set: (name, value) => setValues((v) => ({ ...v, [name]: value })),
    errors,
    error,
    otherProblems,
    submitting,
    handleSubmit,
    ids,
    summaryId: `${prefix}-summary`,
    reset: (next) => {
      setValues(next ?? o.initial);
      setErrors({});
      setOther([]);
      setError(null);
    },
  };
}

export function Form<V extends FormValues>(props: {
  form: ApiForm<V>;
  submitLabel: string;
  busyLabel?: string;
  children: ReactNode;
  /** more buttons beside the submit button (Cancel) */
  actions?: ReactNode;
  className?: string;
}) {
  const { form } = props;
  return (
    <form className={props.className ?? 'form'} onSubmit={form.handleSubmit} noValidate>
      {props.children}
      {form.error !== null && (
        <div id={form.summaryId} tabIndex={-1} className="form-summary">
          <ApiErrorView error={form.error} title="Not saved" />
          {form.otherProblems.length > 0 && (
            <ul className="form-problems">
              {form.otherProblems.map((p) => (
                <li key={`${p.field}:${p.message}`}>
                  {p.field === '' ? '' : <code>{p.field}</code>} {p.message}
                </li>
              ))}
            </ul>
          )}
        </div>
      )}
      <div className="form-actions">
        <button type="submit" className="button button-primary" disabled={form.submitting}>
          {form.submitting ? (props.busyLabel ?? 'Saving…') : props.submitLabel}
        </button>
        {props.actions}
      </div>
    </form>
  );
}

/**
 * A labelled control with its hint and error: for custom controls (a code editor) give it `children`
 * that use `ids.input` as their id.
 */
export function FieldShell(props: {
  label: string;
  hint?: ReactNode;
  error?: string;
  required?: boolean;
  inputId: string;
  errorId: string;
  hintId: string;
  children: ReactNode;
}) {
  return (
    <div className={props.error !== undefined ? 'field field-invalid' : 'field'}>
      <label htmlFor={props.inputId} className="field-label">
        {props.label}
        {props.required && <span aria-hidden="true"> *</span>}
      </label>
      {props.hint !== undefined && (
        <p id={props.hintId} className="field-hint">
          {props.hint}
        </p>
      )}
      {props.children}
      {props.error !== undefined && (
        <p id={props.errorId} className="field-error">
          {props.error}
        </p>
      )}
    </div>
  );
}

/** aria attributes that tie a control to its hint and error */
export function describedBy<V extends FormValues>(form: ApiForm<V>, name: keyof V & string, hasHint: boolean) {
  const ids = form.ids(name);
  const parts = [hasHint ? ids.hint : null, form.errors[name] !== undefined ? ids.error : null].filter(
    (x): x is string => x !== null,
  );
  return {
    id: ids.input,
    name,
    'aria-invalid': form.errors[name] !== undefined ? true : undefined,
    'aria-describedby': parts.length > 0 ? parts.join(' ') : undefined,
  } as const;
}

type StringKeys<V> = { [K in keyof V]: V[K] extends string ? K : never }[keyof V] & string;

export function TextField<V extends FormValues>(props: {
  form: ApiForm<V>;
  name: StringKeys<V>;
  label: string;
  hint?: ReactNode;
  required?: boolean;
  type?: 'text' | 'email' | 'url' | 'password' | 'number' | 'search';
  multiline?: boolean;
  autoComplete?: string;
  placeholder?: string;
}) {
  const { form, name } = props;
  const ids = form.ids(name);
  const common = {
    ...describedBy(form, name, props.hint !== undefined),
    value: String(form.values[name] ?? ''),
    required: props.required,
    placeholder: props.placeholder,
    className: 'input',
  };
  const onChange = (e: { target: { value: string } }) => form.set(name, e.target.value as V[typeof name]);
  return (
    <FieldShell
      label={props.label}
      hint={props.hint}
      error={form.errors[name]}
      required={props.required}
      inputId={ids.input}
      errorId={ids.error}
      hintId={ids.hint}
    >
      {props.multiline ? (
        <textarea {...common} rows={4} onChange={onChange} />
      ) : (
        <input {...common} type={props.type ?? 'text'} autoComplete={props.autoComplete} onChange={onChange} />
      )}
    </FieldShell>
  );
}

export function SelectField<V extends FormValues>(props: {
  form: ApiForm<V>;
  name: StringKeys<V>;
  label: string;
  options: ReadonlyArray<{ value: string; label: string }>;
  hint?: ReactNode;
  required?: boolean;
}) {
  const { form, name } = props;
  const ids = form.ids(name);
  return (
    <FieldShell
      label={props.label}
      hint={props.hint}
      error={form.errors[name]}
      required={props.required}
      inputId={ids.input}
      errorId={ids.error}
      hintId={ids.hint}
    >
      <select
        {...describedBy(form, name, props.hint !== undefined)}
        className="input"
        value={String(form.values[name] ?? '')}
        onChange={(e) => form.set(name, e.target.value as V[typeof name])}
      >
        {props.options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
    </FieldShell>
  );
}

type BooleanKeys<V> = { [K in keyof V]: V[K] extends boolean ? K : never }[keyof V] & string;

export function CheckboxField<V extends FormValues>(props: {
  form: ApiForm<V>;
  name: BooleanKeys<V>;
  label: string;
  hint?: ReactNode;
}) {
  const { form, name } = props;
  const ids = form.ids(name);
  return (
    <div className={form.errors[name] !== undefined ? 'field field-check field-invalid' : 'field field-check'}>
      <input
        {...describedBy(form, name, props.hint !== undefined)}
        type="checkbox"
        checked={form.values[name] === true}
        onChange={(e) => form.set(name, e.target.checked as V[typeof name])}
      />
      <label htmlFor={ids.input}>{props.label}</label>
      {props.hint !== undefined && (
        <p id={ids.hint} className="field-hint">
          {props.hint}
        </p>
      )}
      {form.errors[name] !== undefined && (
        <p id={ids.error} className="field-error">
          {form.errors[name]}
        </p>
      )}
    </div>
  );
}
