import type { DeliveryRule } from './hub-defs-api.ts';

/** A delivery rule as its form edits it (the API's field names, numbers as typed), and the rule it makes. */
export type RuleValues = {
  RuleKey: string;
  Role: string;
  Channel: string;
  OrderNo: string;
  RecipientSource: string;
  IdentityVariable: string;
  AddressVariable: string;
  Condition: string;
  TemplateCode: string;
  ServiceId: string;
  LanguageId: string;
  TemplateMode: string;
  Enabled: boolean;
  'PolicyOverrides.PreferencePolicy': string;
  'PolicyOverrides.FrequencyCapPolicy': string;
  'PolicyOverrides.QuietHoursPolicy': string;
};

export function valuesOf(r: DeliveryRule | null): RuleValues {
  const o = r?.PolicyOverrides;
  return {
    RuleKey: '',
    Role: r?.Role ?? '',
    Channel: r?.Channel ?? '',
    OrderNo: String(r?.OrderNo ?? 0),
    RecipientSource: r?.RecipientSource ?? 'CONTEXT',
    IdentityVariable: r?.IdentityVariable ?? '',
    AddressVariable: r?.AddressVariable ?? '',
    Condition: r?.Condition ?? '',
    TemplateCode: r?.TemplateCode ?? '',
    ServiceId: r?.ServiceId ?? '',
    LanguageId: r?.LanguageId ?? '',
    TemplateMode: r?.TemplateMode ?? 'HUB_MANAGED',
    Enabled: r?.Enabled ?? true,
    'PolicyOverrides.PreferencePolicy': o?.PreferencePolicy ?? '',
    'PolicyOverrides.FrequencyCapPolicy': o?.FrequencyCapPolicy ?? '',
    'PolicyOverrides.QuietHoursPolicy': o?.QuietHoursPolicy ?? '',
  };
}

export const opt = (key: string, v: string) => (v.trim() === '' ? {} : { [key]: v.trim() });

/** the rule as the API takes it (without its key: the body of a replacement and of a preview) */
export function ruleBodyOf(v: RuleValues) {
  const overrides = {
    ...opt('PreferencePolicy', v['PolicyOverrides.PreferencePolicy']),
    ...opt('FrequencyCapPolicy', v['PolicyOverrides.FrequencyCapPolicy']),
    ...opt('QuietHoursPolicy', v['PolicyOverrides.QuietHoursPolicy']),
  } as { PreferencePolicy?: 'RESPECT' | 'BYPASS' };
  return {
    Role: v.Role.trim(),
    Channel: v.Channel.trim(),
    OrderNo: v.OrderNo.trim() === '' ? 0 : Number(v.OrderNo),
    RecipientSource: v.RecipientSource as 'CONTEXT' | 'REQUEST',
    ...opt('IdentityVariable', v.IdentityVariable),
    ...opt('AddressVariable', v.AddressVariable),
    ...(v.Condition.trim() !== '' && { Condition: v.Condition }),
    TemplateCode: v.TemplateCode.trim(),
    ServiceId: v.ServiceId.trim(),
    ...opt('LanguageId', v.LanguageId),
    TemplateMode: v.TemplateMode as 'HUB_MANAGED' | 'PROVIDER_MANAGED',
    Enabled: v.Enabled,
    ...(Object.keys(overrides).length > 0 && { PolicyOverrides: overrides }),
  };
}
