import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { api, call, type RequestBody } from '../../api/client.ts';
import type { paths as HubPaths } from '../../api/schema/hub.d.ts';
import { type ApiForm, describedBy, FieldShell, Form, SelectField, TextField, useApiForm } from '../../ui/form.tsx';
import { allChannels, type ContentType, SETUP_KEY, type Template, type TemplateStatus } from './hub-setup-api.ts';
import { TemplatePreview } from './template-preview.tsx';

export type TemplateValues = {
  TemplateCode: string;
  Channel: string;
  LanguageId: string;
  ContentType: string;
  Subject: string;
  Body: string;
  Status: string;
};

type CreateBody = RequestBody<HubPaths, '/comm/v1/templates', 'post'>;

const CONTENT_TYPES = [
  { value: 'HTML', label: 'HTML (sanitized at send)' },
  { value: 'TEXT', label: 'Text' },
];
const STATUSES = [
  { value: 'DRAFT', label: 'Draft (previewed, never sent)' },
  { value: 'ACTIVE', label: 'Active (used by sends)' },
  { value: 'RETIRED', label: 'Retired' },
];

export const newTemplateValues = (): TemplateValues => ({
  TemplateCode: '',
  Channel: '',
  LanguageId: 'en_US',
  ContentType: 'HTML',
  Subject: '',
  Body: '',
  Status: 'DRAFT',
});

export const storedTemplateValues = (t: Template): TemplateValues => ({
  TemplateCode: t.TemplateCode,
  Channel: t.Channel,
  LanguageId: t.LanguageId,
  ContentType: t.ContentType,
  Subject: t.Subject ?? '',
  Body: t.Body,
  Status: t.Status,
});

/**
 * A template's form beside its live rendered preview. Creating (no `templateId`) names the code, channel
 * and exact language, which make the TemplateId and are fixed afterwards; editing replaces the content
 * and status (an active template's new content reaches new sends only).
 */
export function TemplateEditor(props: {
  initial: TemplateValues;
  templateId?: string;
  submitLabel: string;
  onSaved: (saved: Template) => void;
}) {
  const editing = props.templateId !== undefined;
  const channels = useQuery({
    queryKey: [...SETUP_KEY, 'channels', 'all'],
    queryFn: ({ signal }) => allChannels(signal),
  });
  const form = useApiForm<TemplateValues, Template>({
    initial: props.initial,
    submit: async (v) => {
      const content = {
        ContentType: v.ContentType as ContentType,
        ...(v.Subject !== '' && { Subject: v.Subject }),
        Body: v.Body,
        Status: v.Status as TemplateStatus,
      };
      if (props.templateId !== undefined)
        return (await call(
          api.hub.PUT('/comm/v1/templates/{templateId}', {
            params: { path: { templateId: props.templateId } },
            body: content,
          }),
        )) as unknown as Template;
      const body: CreateBody = {
        TemplateCode: v.TemplateCode.trim(),
        Channel: v.Channel,
        LanguageId: v.LanguageId.trim(),
        ...content,
      };
      return (await call(api.hub.POST('/comm/v1/templates', { body }))) as unknown as Template;
    },
    onSuccess: (saved) => props.onSaved(saved),
  });
  // what the live preview refuses of the content is shown beside the field, like a refused save
  const [refused, setRefused] = useState<Record<string, string>>({});
  const v = form.values;
  const channelOptions = [
    ...(v.Channel === '' ? [{ value: '', label: 'Choose a channel' }] : []),
    ...(channels.data ?? []).map((c) => ({ value: c.Code, label: c.Enabled ? c.Code : `${c.Code} (disabled)` })),
  ];
  if (v.Channel !== '' && !channelOptions.some((o) => o.value === v.Channel))
    channelOptions.push({ value: v.Channel, label: v.Channel });
  return (
    <div className="hs-editor">
      <Form form={form} submitLabel={props.submitLabel}>
        {editing ? (
          <dl className="hs-facts">
            <div>
              <dt>Code</dt>
              <dd>{v.TemplateCode}</dd>
            </div>
            <div>
              <dt>Channel</dt>
              <dd>{v.Channel}</dd>
            </div>
            <div>
              <dt>Language</dt>
              <dd>{v.LanguageId}</dd>
            </div>
          </dl>
        ) : (
          <>
            <TextField
              form={form}
              name="TemplateCode"
              label="Template code"
              hint="What delivery rules name (policy-confirmation)"
              required
            />
            <SelectField
              form={form}
              name="Channel"
              label="Channel"
              options={channelOptions}
              hint={
                channels.isError
                  ? 'The channels could not be loaded'
                  : channels.data?.length === 0
                    ? 'No channel yet: add one on the Channels page'
                    : undefined
              }
              required
            />
            <TextField
              form={form}
              name="LanguageId"
              label="Language"
              hint="The exact language it is for (en_US, de_DE)"
              required
            />
          </>
        )}
        <SelectField form={form} name="ContentType" label="Content type" options={CONTENT_TYPES} required />
        <SelectField form={form} name="Status" label="Status" options={STATUSES} />
        <ContentField form={form} name="Subject" label="Subject" hint="Placeholders: ${Variable}" refused={refused} />
        <ContentField
          form={form}
          name="Body"
          label="Body"
          hint="Placeholders name the context's variables: ${Name}"
          refused={refused}
          multiline
          required
        />
      </Form>
      <TemplatePreview
        onRefusal={setRefused}
        content={{
          Channel: v.Channel,
          LanguageId: v.LanguageId.trim(),
          ContentType: v.ContentType as ContentType,
          Subject: v.Subject,
          Body: v.Body,
        }}
      />
    </div>
  );
}

/** Subject or Body: the last save's refusal, else the live preview's, beside the field */
function ContentField(props: {
  form: ApiForm<TemplateValues>;
  name: 'Subject' | 'Body';
  label: string;
  hint: string;
  refused: Record<string, string>;
  multiline?: boolean;
  required?: boolean;
}) {
  const { form, name } = props;
  const ids = form.ids(name);
  const error = form.errors[name] ?? props.refused[name];
  const attrs = describedBy(form, name, true);
  const common = {
    ...attrs,
    'aria-invalid': error !== undefined ? true : undefined,
    'aria-describedby': error !== undefined ? `${ids.hint} ${ids.error}` : ids.hint,
    className: 'input',
    required: props.required,
    value: form.values[name],
    onChange: (e: { target: { value: string } }) => form.set(name, e.target.value),
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
      {props.multiline ? <textarea {...common} rows={8} /> : <input {...common} type="text" />}
    </FieldShell>
  );
}
