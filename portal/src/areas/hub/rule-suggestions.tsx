import { useQuery } from '@tanstack/react-query';
import { api, call } from '../../api/client.ts';
import { type ApiForm, describedBy, FieldShell } from '../../ui/form.tsx';
import { type HubPage, MAX_PAGE_SIZE, typed } from './hub-defs-api.ts';
import type { RuleValues } from './rule-draft.ts';

/**
 * What a rule may name, offered as the field is typed (a datalist): the tenant's channels, template codes
 * and delivery services. Any text is still taken (a template may be added after its rule): the send's
 * preparation, and the rule's preview, say when a name resolves to nothing.
 */
type ListPath = '/comm/v1/channels' | '/comm/v1/templates' | '/comm/v1/delivery-services';

function useFirstPage<T>(key: string, path: ListPath): T[] {
  return (
    useQuery({
      queryKey: ['hub-defs', 'suggestions', key],
      queryFn: ({ signal }) =>
        typed<HubPage<T>>(
          call(api.hub.GET(path, { params: { query: { pageNo: 1, pageSize: MAX_PAGE_SIZE } }, signal })),
        ),
    }).data?.Items ?? []
  );
}

export function useRuleSuggestions() {
  const channels = useFirstPage<{ Code: string }>('channels', '/comm/v1/channels').map((c) => c.Code);
  const templates = useFirstPage<{ TemplateCode: string }>('templates', '/comm/v1/templates').map(
    (t) => t.TemplateCode,
  );
  const services = useFirstPage<{ ServiceId: string }>('services', '/comm/v1/delivery-services').map(
    (s) => s.ServiceId,
  );
  return { channels, templates: [...new Set(templates)], services };
}

type TextKeys = { [K in keyof RuleValues]: RuleValues[K] extends string ? K : never }[keyof RuleValues];

export function SuggestField(props: {
  form: ApiForm<RuleValues>;
  name: TextKeys;
  label: string;
  options: readonly string[];
  required?: boolean;
  placeholder?: string;
}) {
  const { form, name } = props;
  const ids = form.ids(name);
  const listId = `${ids.input}-options`;
  return (
    <FieldShell
      label={props.label}
      error={form.errors[name]}
      required={props.required}
      inputId={ids.input}
      errorId={ids.error}
      hintId={ids.hint}
    >
      <input
        {...describedBy(form, name, false)}
        className="input"
        list={listId}
        required={props.required}
        placeholder={props.placeholder}
        value={form.values[name]}
        onChange={(e) => form.set(name, e.target.value)}
      />
      <datalist id={listId}>
        {props.options.map((o) => (
          <option key={o} value={o} />
        ))}
      </datalist>
    </FieldShell>
  );
}
