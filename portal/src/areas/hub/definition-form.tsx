import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { api, call } from '../../api/client.ts';
import { ApiError, isApiError } from '../../api/errors.ts';
import { CheckboxField, Form, SelectField, TextField, useApiForm } from '../../ui/form.tsx';
import { type ContextDefinition, type Definition, type HubPage, MAX_PAGE_SIZE, typed, when } from './hub-defs-api.ts';

/**
 * A definition version's form: a new version (of a code, its Version the next number unless given) or
 * the replacement of one (PUT replaces the whole version). Field names are the API's, so the fields its
 * refusal names are marked (`RetryPolicy.MaxAttempts` too).
 */
type Values = {
  NotificationCode: string;
  Version: string;
  EffectiveTime: string;
  ExpiryTime: string;
  Enabled: boolean;
  ContextDefinitionId: string;
  DefaultLanguageId: string;
  DeliveryStrategy: string;
  RoleDeliveryStrategyOverrides: string;
  NotificationClass: string;
  Description: string;
  PreferencePolicy: string;
  FrequencyCapPolicy: string;
  QuietHoursPolicy: string;
  'RetryPolicy.MaxAttempts': string;
  'RetryPolicy.RetryInitialDelaySeconds': string;
  'RetryPolicy.RetryBackoffMultiplier': string;
  'RetryPolicy.RetryMaxDelaySeconds': string;
};

const nowIso = () => `${new Date().toISOString().slice(0, 19)}Z`;

function valuesOf(d: Definition | null, code: string): Values {
  const r = d?.RetryPolicy;
  return {
    NotificationCode: d?.NotificationCode ?? code,
    Version: '',
    EffectiveTime: d?.EffectiveTime ?? nowIso(),
    ExpiryTime: d?.ExpiryTime ?? '',
    Enabled: d?.Enabled ?? true,
    ContextDefinitionId: d?.ContextDefinitionId ?? '',
    DefaultLanguageId: d?.DefaultLanguageId ?? '',
    DeliveryStrategy: d?.DeliveryStrategy ?? 'ALL',
    RoleDeliveryStrategyOverrides: Object.entries(d?.RoleDeliveryStrategyOverrides ?? {})
      .map(([role, s]) => `${role}=${s}`)
      .join(', '),
    NotificationClass: d?.NotificationClass ?? 'TRANSACTIONAL',
    Description: d?.Description ?? '',
    PreferencePolicy: d?.PreferencePolicy ?? '',
    FrequencyCapPolicy: d?.FrequencyCapPolicy ?? '',
    QuietHoursPolicy: d?.QuietHoursPolicy ?? '',
    'RetryPolicy.MaxAttempts': r === undefined ? '' : String(r.MaxAttempts),
    'RetryPolicy.RetryInitialDelaySeconds': r === undefined ? '' : String(r.RetryInitialDelaySeconds),
    'RetryPolicy.RetryBackoffMultiplier': r === undefined ? '' : String(r.RetryBackoffMultiplier),
    'RetryPolicy.RetryMaxDelaySeconds': r === undefined ? '' : String(r.RetryMaxDelaySeconds),
  };
}

const opt = <K extends string>(key: K, v: string) =>
  v.trim() === '' ? {} : ({ [key]: v.trim() } as Record<K, string>);
const num = (v: string): number => (v.trim() === '' ? Number.NaN : Number(v));

/** the fields of the API's body that a create and a replacement share */
function bodyOf(v: Values) {
  const retry = [
    v['RetryPolicy.MaxAttempts'],
    v['RetryPolicy.RetryInitialDelaySeconds'],
    v['RetryPolicy.RetryBackoffMultiplier'],
    v['RetryPolicy.RetryMaxDelaySeconds'],
  ];
  const overrides = Object.fromEntries(
    v.RoleDeliveryStrategyOverrides.split(',')
      .map((p) => p.split('=').map((x) => x.trim()))
      .filter(([role]) => role !== undefined && role !== '')
      .map(([role, s]) => [role, s ?? '']),
  ) as Record<string, 'ALL' | 'FALLBACK'>;
  return {
    EffectiveTime: v.EffectiveTime.trim(),
    ...opt('ExpiryTime', v.ExpiryTime),
    Enabled: v.Enabled,
    ...opt('ContextDefinitionId', v.ContextDefinitionId),
    ...opt('DefaultLanguageId', v.DefaultLanguageId),
    DeliveryStrategy: v.DeliveryStrategy as 'ALL' | 'FALLBACK',
    RoleDeliveryStrategyOverrides: overrides,
    NotificationClass: v.NotificationClass.trim(),
    ...opt('Description', v.Description),
    ...(opt('PreferencePolicy', v.PreferencePolicy) as { PreferencePolicy?: 'RESPECT' | 'BYPASS' }),
    ...(opt('FrequencyCapPolicy', v.FrequencyCapPolicy) as { FrequencyCapPolicy?: 'RESPECT' | 'BYPASS' }),
    ...(opt('QuietHoursPolicy', v.QuietHoursPolicy) as { QuietHoursPolicy?: 'RESPECT' | 'BYPASS' }),
    ...(retry.some((x) => x.trim() !== '') && {
      RetryPolicy: {
        MaxAttempts: num(retry[0]!),
        RetryInitialDelaySeconds: num(retry[1]!),
        RetryBackoffMultiplier: num(retry[2]!),
        RetryMaxDelaySeconds: num(retry[3]!),
      },
    }),
  };
}

/**
 * DEFINITION.OVERLAP names the enabled version the window would overlap, not a field: the window's
 * start is marked with it, so that the refusal stands beside what to change.
 */
function overlapOnWindow(e: unknown): unknown {
  if (!isApiError(e) || e.code !== 'DEFINITION.OVERLAP' || typeof e.details !== 'object' || e.details === null)
    return e;
  const d = e.details as { OverlapsWith?: string; EffectiveTime?: string; ExpiryTime?: string };
  const other = d.ExpiryTime === undefined ? 'open-ended' : `until ${when(d.ExpiryTime)}`;
  const message = `overlaps enabled version ${d.OverlapsWith ?? ''} (from ${when(d.EffectiveTime)}, ${other}): move this window, end the other version's, or leave this one disabled`;
  return new ApiError(e.status, e.code, e.message, [{ field: 'EffectiveTime', message }]);
}

const POLICY_OPTIONS = [
  { value: '', label: 'Default (RESPECT)' },
  { value: 'RESPECT', label: 'RESPECT' },
  { value: 'BYPASS', label: 'BYPASS' },
];

export function DefinitionForm(props: {
  definition: Definition | null;
  code?: string;
  onSaved: (d: Definition) => void;
  actions?: ReactNode;
}) {
  const current = props.definition;
  const contexts = useQuery({
    queryKey: ['hub-defs', 'context-choices'],
    queryFn: ({ signal }) =>
      typed<HubPage<ContextDefinition>>(
        call(
          api.hub.GET('/comm/v1/context-definitions', {
            params: { query: { pageNo: 1, pageSize: MAX_PAGE_SIZE } },
            signal,
          }),
        ),
      ),
  });
  const form = useApiForm({
    initial: valuesOf(current, props.code ?? ''),
    submit: (v) =>
      (current === null
        ? typed<Definition>(
            call(
              api.hub.POST('/comm/v1/definitions', {
                body: {
                  NotificationCode: v.NotificationCode.trim(),
                  ...(v.Version.trim() !== '' && { Version: num(v.Version) }),
                  ...bodyOf(v),
                },
              }),
            ),
          )
        : typed<Definition>(
            call(
              api.hub.PUT('/comm/v1/definitions/{definitionId}', {
                params: { path: { definitionId: current.DefinitionId } },
                body: bodyOf(v),
              }),
            ),
          )
      ).catch((e: unknown) => {
        throw overlapOnWindow(e);
      }),
    onSuccess: (d) => props.onSaved(d),
  });
  const ids = (contexts.data?.Items ?? []).map((c) => c.ContextDefinitionId);
  const chosen = form.values.ContextDefinitionId;
  const contextOptions = [
    { value: '', label: contexts.isPending ? 'Loading…' : 'None' },
    ...[...ids, ...(chosen !== '' && !ids.includes(chosen) ? [chosen] : [])].map((c) => ({ value: c, label: c })),
  ];
  return (
    <Form
      form={form}
      submitLabel={current === null ? 'Create version' : 'Save version'}
      className="form hd-form"
      actions={props.actions}
    >
      {current === null && (
        <div className="hd-field-row">
          <TextField form={form} name="NotificationCode" label="Notification code" required />
          <TextField form={form} name="Version" label="Version" hint="Empty: the next number." type="number" />
        </div>
      )}
      <div className="hd-field-row">
        <TextField
          form={form}
          name="EffectiveTime"
          label="Effective from"
          required
          hint="ISO date-time: local (the tenant's time zone) or with an offset."
        />
        <TextField form={form} name="ExpiryTime" label="Until (exclusive)" hint="Empty: open-ended." />
      </div>
      <CheckboxField
        form={form}
        name="Enabled"
        label="Enabled (selectable)"
        hint="Enabled versions of a code may not overlap; a disabled one may, and is never selected."
      />
      <div className="hd-field-row">
        <SelectField form={form} name="ContextDefinitionId" label="Context definition" options={contextOptions} />
        <TextField form={form} name="DefaultLanguageId" label="Default language" placeholder="en_US" />
        <TextField form={form} name="NotificationClass" label="Notification class" placeholder="TRANSACTIONAL" />
      </div>
      <div className="hd-field-row">
        <SelectField
          form={form}
          name="DeliveryStrategy"
          label="Delivery strategy"
          options={[
            { value: 'ALL', label: 'ALL: every rule sends' },
            { value: 'FALLBACK', label: 'FALLBACK: a role tries its rules in order' },
          ]}
        />
        <TextField
          form={form}
          name="RoleDeliveryStrategyOverrides"
          label="Strategy per role"
          placeholder="Agent=FALLBACK, Customer=ALL"
        />
      </div>
      <div className="hd-field-row">
        <SelectField form={form} name="PreferencePolicy" label="Preference policy" options={POLICY_OPTIONS} />
        <SelectField form={form} name="FrequencyCapPolicy" label="Frequency cap policy" options={POLICY_OPTIONS} />
        <SelectField form={form} name="QuietHoursPolicy" label="Quiet hours policy" options={POLICY_OPTIONS} />
      </div>
      <fieldset className="hd-rows">
        <legend>Retry policy (all four, or none for the default)</legend>
        <div className="hd-field-row">
          <TextField form={form} name="RetryPolicy.MaxAttempts" label="Max attempts" type="number" />
          <TextField form={form} name="RetryPolicy.RetryInitialDelaySeconds" label="Initial delay (s)" type="number" />
          <TextField form={form} name="RetryPolicy.RetryBackoffMultiplier" label="Backoff multiplier" type="number" />
          <TextField form={form} name="RetryPolicy.RetryMaxDelaySeconds" label="Max delay (s)" type="number" />
        </div>
      </fieldset>
      <TextField form={form} name="Description" label="Description" multiline />
    </Form>
  );
}
