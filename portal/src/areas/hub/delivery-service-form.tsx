import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { api, call, type RequestBody } from '../../api/client.ts';
import { ApiError } from '../../api/errors.ts';
import type { paths as HubPaths } from '../../api/schema/hub.d.ts';
import { Form, SelectField, TextField, useApiForm } from '../../ui/form.tsx';
import {
  emptySettings,
  REST_WEBHOOK,
  SettingsFields,
  type SettingsValues,
  settingsOf,
  settingsValues,
  useSettingsCheck,
} from './delivery-service-settings.tsx';
import { allChannels, type DeliveryService, type ReceiptMode, SETUP_KEY } from './hub-setup-api.ts';

export type ServiceValues = SettingsValues & {
  ServiceId: string;
  Name: string;
  ReceiptMode: string;
  ReceiptTimeoutSeconds: string;
};

type CreateBody = RequestBody<HubPaths, '/comm/v1/delivery-services', 'post'>;
export type Created = DeliveryService & { SigningSecret?: string };

const RECEIPT_MODES = [
  { value: 'FINAL_RESULT', label: 'Final result' },
  { value: 'ACCEPTANCE_ONLY', label: 'Acceptance only' },
];

/** an integer field's number; text that is none is refused here, naming the field as the API would */
function integer(field: string, t: string): number {
  if (/^\s*\d+\s*$/.test(t)) return Number(t);
  throw new ApiError(400, 'REQUEST.INVALID', `${field} must be an integer`, [{ field, message: 'must be an integer' }]);
}

function bodyOf(v: ServiceValues): CreateBody {
  return {
    ServiceId: v.ServiceId.trim(),
    ...(v.Name.trim() !== '' && { Name: v.Name.trim() }),
    DriverType: v.DriverType,
    ...(v.Channel !== '' && { Channel: v.Channel }),
    Settings: settingsOf(v),
    ReceiptMode: v.ReceiptMode as ReceiptMode,
    ...(v.ReceiptMode === 'FINAL_RESULT' &&
      v.ReceiptTimeoutSeconds.trim() !== '' && {
        ReceiptTimeoutSeconds: integer('ReceiptTimeoutSeconds', v.ReceiptTimeoutSeconds),
      }),
  };
}

/**
 * A delivery service's form, to create one (`serviceId` absent: POST, whose answer carries the signing
 * secret) or to replace one (PUT). The driver's settings are checked as they are typed.
 */
export function DeliveryServiceForm(props: {
  initial: ServiceValues;
  serviceId?: string;
  submitLabel: string;
  onSaved: (saved: Created) => void;
}) {
  const editing = props.serviceId !== undefined;
  const drivers = useQuery({
    queryKey: [...SETUP_KEY, 'driverTypes'],
    queryFn: ({ signal }) => call(api.hub.GET('/comm/v1/delivery-services/driverTypes', { signal })),
  });
  const channels = useQuery({
    queryKey: [...SETUP_KEY, 'channels', 'all'],
    queryFn: ({ signal }) => allChannels(signal),
  });
  const [touched, setTouched] = useState(editing);
  const form = useApiForm<ServiceValues, Created>({
    initial: props.initial,
    submit: async (v) => {
      const body = bodyOf(v);
      if (props.serviceId === undefined)
        return (await call(api.hub.POST('/comm/v1/delivery-services', { body }))) as unknown as Created;
      const { ServiceId: _id, ...rest } = body;
      return (await call(
        api.hub.PUT('/comm/v1/delivery-services/{serviceId}', {
          params: { path: { serviceId: props.serviceId } },
          body: rest,
        }),
      )) as unknown as Created;
    },
    onSuccess: (saved) => props.onSaved(saved),
  });
  const watched: ApiFormWithTouch = {
    ...form,
    set: (name, value) => {
      if (name !== 'ServiceId' && name !== 'Name' && name !== 'ReceiptMode' && name !== 'ReceiptTimeoutSeconds')
        setTouched(true);
      form.set(name, value);
    },
  };
  const check = useSettingsCheck(form.values, touched);
  const driverOptions = [
    ...(drivers.data?.DriverTypes ?? [form.values.DriverType]).map((t) => ({ value: t, label: t })),
  ];
  if (!driverOptions.some((o) => o.value === form.values.DriverType))
    driverOptions.unshift({ value: form.values.DriverType, label: form.values.DriverType || 'Choose a driver' });
  const channelOptions = [
    { value: '', label: 'None (any channel the rule names)' },
    ...(channels.data ?? []).map((c) => ({ value: c.Code, label: c.Enabled ? c.Code : `${c.Code} (disabled)` })),
  ];
  if (form.values.Channel !== '' && !channelOptions.some((o) => o.value === form.values.Channel))
    channelOptions.push({ value: form.values.Channel, label: form.values.Channel });
  return (
    <Form form={watched} submitLabel={props.submitLabel} className="form hs-inline-form">
      {!editing && (
        <TextField
          form={watched}
          name="ServiceId"
          label="Service ID"
          hint="Letters, digits, - and _ (mail-receiver); fixed once created"
          required
        />
      )}
      <TextField form={watched} name="Name" label="Name" />
      <SelectField
        form={watched}
        name="DriverType"
        label="Driver type"
        options={driverOptions}
        hint={drivers.isError ? 'The driver types could not be loaded' : 'The registered drivers'}
        required
      />
      <SelectField
        form={watched}
        name="Channel"
        label="Channel"
        options={channelOptions}
        hint={channels.isError ? 'The channels could not be loaded' : 'The channel this service serves'}
      />
      <SelectField
        form={watched}
        name="ReceiptMode"
        label="Receipt mode"
        options={RECEIPT_MODES}
        hint="Final result: the receiver posts a receipt; acceptance only: its 2xx ends the message"
        required
      />
      {form.values.ReceiptMode === 'FINAL_RESULT' && (
        <TextField
          form={watched}
          name="ReceiptTimeoutSeconds"
          label="Receipt timeout (seconds)"
          hint="How long a final receipt is awaited; empty: 86400"
        />
      )}
      <SettingsFields form={watched} check={check} />
    </Form>
  );
}

type ApiFormWithTouch = ReturnType<typeof useApiForm<ServiceValues, Created>>;

export const newServiceValues = (): ServiceValues => ({
  ServiceId: '',
  Name: '',
  ReceiptMode: 'FINAL_RESULT',
  ReceiptTimeoutSeconds: '',
  ...emptySettings(REST_WEBHOOK),
});

/** the form's values of a stored service */
export const storedServiceValues = (s: DeliveryService): ServiceValues => ({
  ServiceId: s.ServiceId,
  Name: s.Name ?? '',
  ReceiptMode: s.ReceiptMode,
  ReceiptTimeoutSeconds: s.ReceiptTimeoutSeconds === undefined ? '' : String(s.ReceiptTimeoutSeconds),
  ...settingsValues(s.DriverType, s.Channel, s.Settings),
});
