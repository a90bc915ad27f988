import { type ReactNode, useEffect, useState } from 'react';
import { api, call } from '../../api/client.ts';
import { ApiError, fieldErrors, isApiError } from '../../api/errors.ts';
import { type ApiForm, FieldShell } from '../../ui/form.tsx';
import { JsonEditor } from '../../ui/json-editor.tsx';
import { useSettled } from './hub-setup-api.ts';

/**
 * A delivery service's Settings as a form: REST_WEBHOOK's own fields (domain/hub/rest-webhook.settings.ts),
 * any other driver's as JSON. What is typed is checked by the driver itself through
 * `POST /delivery-services/validateSettings` once typing pauses; its refusal is shown beside the field it
 * names (`Settings.Url`), "valid" otherwise. The form's keys are the API's dotted field names, so a
 * refused save marks the same fields.
 */
export const REST_WEBHOOK = 'REST_WEBHOOK';

export type SettingsValues = {
  DriverType: string;
  Channel: string;
  'Settings.Url': string;
  'Settings.ConnectTimeoutMs': string;
  'Settings.ReadTimeoutMs': string;
  'Settings.SupportedChannels': string;
  /** TEXT, HTML or both, comma separated ('' = not declared) */
  'Settings.SupportedContentTypes': string;
  /** '' (not declared), 'true', 'false' */
  'Settings.SupportsAttachments': string;
  /** another driver's settings, as JSON text */
  Settings: string;
};

export const emptySettings = (driverType: string): SettingsValues => ({
  DriverType: driverType,
  Channel: '',
  'Settings.Url': '',
  'Settings.ConnectTimeoutMs': '',
  'Settings.ReadTimeoutMs': '',
  'Settings.SupportedChannels': '',
  'Settings.SupportedContentTypes': '',
  'Settings.SupportsAttachments': '',
  Settings: '{}',
});

const list = (v: unknown) => (Array.isArray(v) ? v.map(String).join(', ') : '');
const text = (v: unknown) => (v === undefined || v === null ? '' : String(v));

/** the form's values of stored settings */
export function settingsValues(driverType: string, channel: string | undefined, s: Record<string, unknown>) {
  return {
    ...emptySettings(driverType),
    Channel: channel ?? '',
    ...(driverType === REST_WEBHOOK
      ? {
          'Settings.Url': text(s.Url),
          'Settings.ConnectTimeoutMs': text(s.ConnectTimeoutMs),
          'Settings.ReadTimeoutMs': text(s.ReadTimeoutMs),
          'Settings.SupportedChannels': list(s.SupportedChannels),
          'Settings.SupportedContentTypes': list(s.SupportedContentTypes),
          'Settings.SupportsAttachments': text(s.SupportsAttachments),
        }
      : { Settings: JSON.stringify(s, null, 2) }),
  };
}

/** a number where the text is an integer; else the text, so the driver names the field it refuses */
const numberOr = (t: string): number | string => (/^\s*-?\d+\s*$/.test(t) ? Number(t) : t.trim());
const codes = (t: string) => t.split(/[\s,]+/).filter((x) => x !== '');

/** the Settings object the values make; a JSON text that does not parse is refused naming Settings */
export function settingsOf(v: SettingsValues): Record<string, unknown> {
  if (v.DriverType !== REST_WEBHOOK) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(v.Settings);
    } catch {
      parsed = undefined;
    }
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
      throw new ApiError(400, 'REQUEST.INVALID', 'Settings must be a JSON object', [
        { field: 'Settings', message: 'must be a JSON object' },
      ]);
    return parsed as Record<string, unknown>;
  }
  const out: Record<string, unknown> = { Url: v['Settings.Url'].trim() };
  if (v['Settings.ConnectTimeoutMs'].trim() !== '') out.ConnectTimeoutMs = numberOr(v['Settings.ConnectTimeoutMs']);
  if (v['Settings.ReadTimeoutMs'].trim() !== '') out.ReadTimeoutMs = numberOr(v['Settings.ReadTimeoutMs']);
  const channels = codes(v['Settings.SupportedChannels']);
  if (channels.length > 0) out.SupportedChannels = channels;
  const types = codes(v['Settings.SupportedContentTypes']);
  if (types.length > 0) out.SupportedContentTypes = types;
  if (v['Settings.SupportsAttachments'] !== '') out.SupportsAttachments = v['Settings.SupportsAttachments'] === 'true';
  return out;
}

export type SettingsCheck = {
  state: 'idle' | 'checking' | 'valid' | 'invalid';
  /** the refusal's messages by form field */
  byField: Record<string, string>;
  /** what the refusal says about no field of the form */
  other: string[];
};

const SETTINGS_FIELDS: ReadonlyArray<keyof SettingsValues> = Object.keys(emptySettings('')) as never;

/** the driver's answer to the settings as they stand, asked once typing pauses (`active`: once touched) */
export function useSettingsCheck(values: SettingsValues, active: boolean): SettingsCheck {
  let body: { DriverType: string; Channel?: string; Settings: Record<string, unknown> } | null = null;
  let local: ApiError | null = null;
  try {
    body = {
      DriverType: values.DriverType,
      ...(values.Channel !== '' && { Channel: values.Channel }),
      Settings: settingsOf(values),
    };
  } catch (e) {
    local = e as ApiError;
  }
  const key = JSON.stringify(body);
  const settled = useSettled(key);
  // the last answer, kept (with what it answered) until the next one: no flicker while typing
  const [answer, setAnswer] = useState<{ key: string; error: unknown } | null>(null);
  // biome-ignore lint/correctness/useExhaustiveDependencies: body and the driver are what `key` spells
  useEffect(() => {
    // only what has stopped changing is sent (not the value before the first keystroke)
    if (!active || settled !== key || body === null || values.DriverType === '') return;
    const abort = new AbortController();
    call(api.hub.POST('/comm/v1/delivery-services/validateSettings', { body, signal: abort.signal })).then(
      () => setAnswer({ key, error: null }),
      (error: unknown) => {
        if (!abort.signal.aborted) setAnswer({ key, error });
      },
    );
    return () => abort.abort();
  }, [active, settled, key]);
  if (!active) return { state: 'idle', byField: {}, other: [] };
  const refusal = local ?? answer?.error ?? null;
  const pending = local === null && answer?.key !== key;
  if (refusal !== null) {
    if (!isApiError(refusal)) return { state: pending ? 'checking' : 'invalid', byField: {}, other: [String(refusal)] };
    const { byField, unmatched } = fieldErrors(refusal.details, SETTINGS_FIELDS as string[]);
    const other = unmatched.map((p) => `${p.field} ${p.message}`);
    if (Object.keys(byField).length === 0 && other.length === 0) other.push(refusal.message);
    return { state: pending ? 'checking' : 'invalid', byField, other };
  }
  return { state: pending ? 'checking' : 'valid', byField: {}, other: [] };
}

/** a settings input with its hint and the live check's (else the last save's) message */
function LiveField<V extends SettingsValues>(props: {
  form: ApiForm<V>;
  name: keyof SettingsValues & string;
  label: string;
  hint?: ReactNode;
  check: SettingsCheck;
  required?: boolean;
  children?: (attrs: Record<string, unknown>) => ReactNode;
}) {
  const { form, name } = props;
  const ids = form.ids(name);
  const error = props.check.byField[name] ?? form.errors[name];
  const describedBy = [props.hint !== undefined ? ids.hint : null, error !== undefined ? ids.error : null]
    .filter((x) => x !== null)
    .join(' ');
  const attrs = {
    id: ids.input,
    name,
    'aria-invalid': error !== undefined ? true : undefined,
    'aria-describedby': describedBy === '' ? undefined : describedBy,
  };
  return (
    <FieldShell
      label={props.label}
      hint={props.hint}
      error={error}
      required={props.required}
      inputId={ids.input}
      errorId={ids.error}
      hintId={ids.hint}
    >
      {props.children?.(attrs) ?? (
        <input
          {...attrs}
          className="input"
          value={String(form.values[name] ?? '')}
          onChange={(e) => form.set(name, e.target.value as V[typeof name])}
        />
      )}
    </FieldShell>
  );
}

const CONTENT_TYPES = ['TEXT', 'HTML'] as const;

/** SupportedContentTypes as two checkboxes (none checked: not declared) */
function ContentTypes<V extends SettingsValues>({ form, check }: { form: ApiForm<V>; check: SettingsCheck }) {
  const name = 'Settings.SupportedContentTypes';
  const ids = form.ids(name);
  const types = codes(form.values[name]);
  const error = check.byField[name] ?? form.errors[name];
  return (
    <fieldset
      className={error !== undefined ? 'hs-checks field-invalid' : 'hs-checks'}
      aria-describedby={error !== undefined ? ids.error : undefined}
    >
      <legend>Supported content types</legend>
      {CONTENT_TYPES.map((t) => (
        <label key={t}>
          <input
            type="checkbox"
            id={t === 'TEXT' ? ids.input : undefined}
            checked={types.includes(t)}
            onChange={(e) =>
              form.set(
                name,
                CONTENT_TYPES.filter((x) => (x === t ? e.target.checked : types.includes(x))).join(
                  ', ',
                ) as V[typeof name],
              )
            }
          />
          {t}
        </label>
      ))}
      {error !== undefined && (
        <p id={ids.error} className="field-error">
          {error}
        </p>
      )}
    </fieldset>
  );
}

/** the settings fields of the chosen driver, and the live check's answer below them */
export function SettingsFields<V extends SettingsValues>({ form, check }: { form: ApiForm<V>; check: SettingsCheck }) {
  const v = form.values;
  const set = (name: keyof SettingsValues & string, value: string) => form.set(name, value as V[typeof name]);
  return (
    <fieldset className="hs-fieldset hs-wide">
      <legend>Settings ({v.DriverType || 'no driver'})</legend>
      {v.DriverType === REST_WEBHOOK ? (
        <>
          <div className="hs-wide">
            <LiveField
              form={form}
              name="Settings.Url"
              label="Receiver URL"
              hint="http or https, no credentials in it: where the webhook POSTs each message"
              required
              check={check}
            />
          </div>
          <LiveField
            form={form}
            name="Settings.ConnectTimeoutMs"
            label="Connect timeout (ms)"
            hint="1 to 120000; empty: the tenant's default (5000)"
            check={check}
          />
          <LiveField
            form={form}
            name="Settings.ReadTimeoutMs"
            label="Read timeout (ms)"
            hint="1 to 600000; empty: the tenant's default (10000)"
            check={check}
          />
          <LiveField
            form={form}
            name="Settings.SupportedChannels"
            label="Supported channels"
            hint="Channel codes, comma separated; empty: not declared"
            check={check}
          />
          <ContentTypes form={form} check={check} />
          <LiveField form={form} name="Settings.SupportsAttachments" label="Attachments" check={check}>
            {(attrs) => (
              <select
                {...attrs}
                className="input"
                value={v['Settings.SupportsAttachments']}
                onChange={(e) => set('Settings.SupportsAttachments', e.target.value)}
              >
                <option value="">Not declared</option>
                <option value="true">Supported</option>
                <option value="false">Not supported (messages with attachments fail)</option>
              </select>
            )}
          </LiveField>
        </>
      ) : (
        <div className="hs-wide">
          <LiveField
            form={form}
            name="Settings"
            label="Settings (JSON)"
            hint="The driver's nonsecret settings as one JSON object"
            check={check}
          >
            {(attrs) => (
              <JsonEditor
                id={String(attrs.id)}
                label="Settings (JSON)"
                value={v.Settings}
                onChange={(t) => set('Settings', t)}
                describedBy={attrs['aria-describedby'] as string | undefined}
                invalid={attrs['aria-invalid'] === true}
              />
            )}
          </LiveField>
        </div>
      )}
      <p className={`hs-check-state hs-${check.state}`} role="status">
        {check.state === 'checking' && 'Checking the settings…'}
        {check.state === 'valid' && 'Settings valid'}
        {check.state === 'invalid' &&
          (check.other.length > 0
            ? `Settings refused: ${check.other.join('; ')}`
            : 'Settings refused: see the fields marked above')}
      </p>
    </fieldset>
  );
}
