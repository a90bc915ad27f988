import { useId } from 'react';
import { api, call } from '../../api/client.ts';
import { CheckboxField, Form, SelectField, TextField, useApiForm } from '../../ui/form.tsx';
import { type Definition, type DeliveryRule, typed } from './hub-defs-api.ts';
import { opt, ruleBodyOf, valuesOf } from './rule-draft.ts';
import { RulePreviewPanel } from './rule-preview.tsx';
import { SuggestField, useRuleSuggestions } from './rule-suggestions.tsx';

/**
 * A delivery rule's form (a new rule of the version, or the replacement of one), with the preview of the
 * unsaved rule against the saved version on a sample payload. The API checks the FEEL condition at save:
 * its refusal is shown under the Condition field, the input kept.
 */
const POLICY_OPTIONS = [
  { value: '', label: "The definition's" },
  { value: 'RESPECT', label: 'RESPECT' },
  { value: 'BYPASS', label: 'BYPASS' },
];

export function RuleForm(props: {
  definition: Definition;
  rule: DeliveryRule | null;
  sample: Record<string, unknown> | undefined;
  onSaved: (r: DeliveryRule) => void;
  onCancel: () => void;
}) {
  const titleId = useId();
  const { definition, rule } = props;
  const suggestions = useRuleSuggestions();
  const form = useApiForm({
    initial: valuesOf(rule),
    submit: (v) =>
      rule === null
        ? typed<DeliveryRule>(
            call(
              api.hub.POST('/comm/v1/delivery-rules', {
                body: { DefinitionId: definition.DefinitionId, ...opt('RuleKey', v.RuleKey), ...ruleBodyOf(v) },
              }),
            ),
          )
        : typed<DeliveryRule>(
            call(
              api.hub.PUT('/comm/v1/delivery-rules/{ruleId}', {
                params: { path: { ruleId: rule.RuleId } },
                body: ruleBodyOf(v),
              }),
            ),
          ),
    onSuccess: (r) => props.onSaved(r),
  });
  const title = rule === null ? `New delivery rule of ${definition.DefinitionId}` : `Edit rule ${rule.RuleId}`;
  return (
    <section className="hd-rule-form" aria-labelledby={titleId}>
      <h3 id={titleId}>{title}</h3>
      <Form
        form={form}
        submitLabel={rule === null ? 'Create rule' : 'Save rule'}
        className="form hd-form"
        actions={
          <button type="button" className="button" onClick={props.onCancel}>
            Cancel
          </button>
        }
      >
        <div className="hd-field-row">
          {rule === null && (
            <TextField
              form={form}
              name="RuleKey"
              label="Rule key"
              hint="Empty: one is made up. The id is <version>:<key>."
            />
          )}
          <TextField form={form} name="Role" label="Role" required placeholder="Customer" />
          <SuggestField
            form={form}
            name="Channel"
            label="Channel"
            required
            placeholder="EMAIL"
            options={suggestions.channels}
          />
          <TextField form={form} name="OrderNo" label="Order" type="number" hint="Fallback order in the role." />
        </div>
        <div className="hd-field-row">
          <SelectField
            form={form}
            name="RecipientSource"
            label="Recipient from"
            options={[
              { value: 'CONTEXT', label: "CONTEXT: the payload's variables" },
              { value: 'REQUEST', label: "REQUEST: the send's Recipients" },
            ]}
          />
          <TextField form={form} name="IdentityVariable" label="Identity variable" placeholder="CustomerId" />
          <TextField form={form} name="AddressVariable" label="Address variable" placeholder="Email" />
        </div>
        <TextField
          form={form}
          name="Condition"
          label="Condition (FEEL)"
          hint="Over the extracted variables, e.g. Amount > 100; empty: always. Only true matches."
        />
        <div className="hd-field-row">
          <SuggestField
            form={form}
            name="TemplateCode"
            label="Template code"
            required
            options={suggestions.templates}
          />
          <SuggestField form={form} name="ServiceId" label="Delivery service" required options={suggestions.services} />
          <TextField form={form} name="LanguageId" label="Language" hint="Empty: the send's, then the definition's." />
          <SelectField
            form={form}
            name="TemplateMode"
            label="Template mode"
            options={[
              { value: 'HUB_MANAGED', label: 'HUB_MANAGED: the hub renders' },
              { value: 'PROVIDER_MANAGED', label: 'PROVIDER_MANAGED: the provider renders' },
            ]}
          />
        </div>
        <div className="hd-field-row">
          <SelectField
            form={form}
            name="PolicyOverrides.PreferencePolicy"
            label="Preference policy"
            options={POLICY_OPTIONS}
          />
          <SelectField
            form={form}
            name="PolicyOverrides.FrequencyCapPolicy"
            label="Frequency cap policy"
            options={POLICY_OPTIONS}
          />
          <SelectField
            form={form}
            name="PolicyOverrides.QuietHoursPolicy"
            label="Quiet hours policy"
            options={POLICY_OPTIONS}
          />
        </div>
        <CheckboxField form={form} name="Enabled" label="Enabled" />
      </Form>
      <RulePreviewPanel definitionId={definition.DefinitionId} values={form.values} sample={props.sample} />
    </section>
  );
}
