import { checkCondition } from './condition.ts';
import {
  CHANNEL_CODE,
  type Channel,
  CODE,
  CONTENT_TYPES,
  type ContextDefinition,
  type Definition,
  type DeliveryRule,
  type DeliveryService,
  LANGUAGE_ID,
  MASK_METHODS,
  POLICIES,
  type PolicySet,
  RECEIPT_MODES,
  RESOURCE_ID,
  ROLE,
  STRATEGIES,
  TEMPLATE_STATUSES,
  type Template,
  VARIABLE_NAME,
} from './config.model.ts';
import { checkExtraction } from './extraction.ts';
import type { Violation } from './hub.errors.ts';
import { checkSensitiveField } from './masking.ts';
import { checkTemplateText } from './render.ts';
import { checkRetryPolicy } from './retry-policy.ts';

/**
 * The rules of each configuration resource that a JSON schema cannot say (patterns of codes, cross-field
 * rules, FEEL syntax, paths, mask patterns). The HTTP schemas check shapes first; the deciders call these
 * and refuse with the resource's `….INVALID` naming every bad field.
 */
export const MAX_TEMPLATE_BODY = 65_536;
export const MAX_SUBJECT = 1000;
export const MAX_DESCRIPTION = 1000;
export const MAX_ENTRIES = 200;

const isInstant = (v: unknown) =>
  typeof v === 'string' && /^\d{4}-\d{2}-\d{2}T/.test(v) && Number.isFinite(Date.parse(v));

export function checkChannel(c: Channel): Violation[] {
  const out: Violation[] = [];
  if (!CHANNEL_CODE.test(c.Code)) out.push({ field: 'Code', message: 'must match [A-Z][A-Z0-9_]{0,39}' });
  if (c.Description !== undefined && c.Description.length > MAX_DESCRIPTION)
    out.push({ field: 'Description', message: `must be at most ${MAX_DESCRIPTION} characters` });
  return out;
}

/** the service's own fields; the driver checks Settings (commands/hub/driver.registry.ts) */
export function checkDeliveryService(s: DeliveryService): Violation[] {
  const out: Violation[] = [];
  if (!RESOURCE_ID.test(s.ServiceId))
    out.push({ field: 'ServiceId', message: 'must be 1-64 letters, digits, _ or -, starting with a letter or digit' });
  if (s.Channel !== undefined && !CHANNEL_CODE.test(s.Channel))
    out.push({ field: 'Channel', message: 'must be a channel code ([A-Z][A-Z0-9_]{0,39})' });
  if (!RECEIPT_MODES.includes(s.ReceiptMode))
    out.push({ field: 'ReceiptMode', message: 'must be FINAL_RESULT or ACCEPTANCE_ONLY' });
  if (s.ReceiptTimeoutSeconds !== undefined) {
    if (s.ReceiptMode !== 'FINAL_RESULT')
      out.push({ field: 'ReceiptTimeoutSeconds', message: 'applies to ReceiptMode FINAL_RESULT only' });
    else if (
      !Number.isInteger(s.ReceiptTimeoutSeconds) ||
      s.ReceiptTimeoutSeconds < 1 ||
      s.ReceiptTimeoutSeconds > 30 * 86_400
    ) {
      out.push({ field: 'ReceiptTimeoutSeconds', message: 'must be an integer from 1 to 2592000' });
    }
  }
  if (s.Name !== undefined && s.Name.length > 200)
    out.push({ field: 'Name', message: 'must be at most 200 characters' });
  return out;
}

export function checkTemplate(t: Template): Violation[] {
  const out: Violation[] = [];
  if (!CODE.test(t.TemplateCode)) out.push({ field: 'TemplateCode', message: 'must be 1-64 letters, digits, _ or -' });
  if (!CHANNEL_CODE.test(t.Channel))
    out.push({ field: 'Channel', message: 'must be a channel code ([A-Z][A-Z0-9_]{0,39})' });
  if (!LANGUAGE_ID.test(t.LanguageId))
    out.push({ field: 'LanguageId', message: 'must be a language id such as en, en_US or zh-CN' });
  if (!CONTENT_TYPES.includes(t.ContentType)) out.push({ field: 'ContentType', message: 'must be TEXT or HTML' });
  if (!TEMPLATE_STATUSES.includes(t.Status)) out.push({ field: 'Status', message: 'must be DRAFT, ACTIVE or RETIRED' });
  if (t.Body.length === 0 || t.Body.length > MAX_TEMPLATE_BODY)
    out.push({ field: 'Body', message: `must be 1-${MAX_TEMPLATE_BODY} characters` });
  else {
    const bad = checkTemplateText(t.Body);
    if (bad !== null) out.push({ field: 'Body', message: bad });
  }
  if (t.Subject !== undefined) {
    if (t.Subject.length > MAX_SUBJECT)
      out.push({ field: 'Subject', message: `must be at most ${MAX_SUBJECT} characters` });
    const bad = checkTemplateText(t.Subject);
    if (bad !== null) out.push({ field: 'Subject', message: bad });
  }
  return out;
}

export function checkContextDefinition(c: ContextDefinition): Violation[] {
  const out: Violation[] = [];
  if (!RESOURCE_ID.test(c.ContextDefinitionId))
    out.push({ field: 'ContextDefinitionId', message: 'must be 1-64 letters, digits, _ or -' });
  if (Object.keys(c.Contexts).length > MAX_ENTRIES)
    out.push({ field: 'Contexts', message: `must have at most ${MAX_ENTRIES} aliases` });
  if (Object.keys(c.Variables).length > MAX_ENTRIES)
    out.push({ field: 'Variables', message: `must have at most ${MAX_ENTRIES} variables` });
  if (c.SensitiveFields.length > MAX_ENTRIES)
    out.push({ field: 'SensitiveFields', message: `must have at most ${MAX_ENTRIES} entries` });
  out.push(...checkExtraction(c));
  c.SensitiveFields.forEach((f, i) => {
    if (!MASK_METHODS.includes(f.Method))
      out.push({ field: `SensitiveFields.${i}.Method`, message: 'must be FULL, KEEP_EDGES, EMAIL, NAME or REGEX' });
    for (const v of checkSensitiveField(f, c.Contexts))
      out.push({ field: `SensitiveFields.${i}.${v.field}`, message: v.message });
  });
  return out;
}

function checkPolicies(p: PolicySet, prefix: string): Violation[] {
  const out: Violation[] = [];
  for (const key of ['PreferencePolicy', 'FrequencyCapPolicy', 'QuietHoursPolicy'] as const) {
    const v = p[key];
    if (v !== undefined && !POLICIES.includes(v))
      out.push({ field: `${prefix}${key}`, message: 'must be RESPECT or BYPASS' });
  }
  if (p.RetryPolicy !== undefined)
    for (const v of checkRetryPolicy(p.RetryPolicy))
      out.push({ field: `${prefix}RetryPolicy.${v.field}`, message: v.message });
  return out;
}

export function checkDefinition(d: Definition): Violation[] {
  const out: Violation[] = [];
  if (!CODE.test(d.NotificationCode))
    out.push({ field: 'NotificationCode', message: 'must be 1-64 letters, digits, _ or -' });
  if (!Number.isInteger(d.Version) || d.Version < 1 || d.Version > 999_999_999)
    out.push({ field: 'Version', message: 'must be an integer from 1' });
  if (!isInstant(d.EffectiveTime)) out.push({ field: 'EffectiveTime', message: 'must be an ISO date-time' });
  if (d.ExpiryTime !== undefined) {
    if (!isInstant(d.ExpiryTime)) out.push({ field: 'ExpiryTime', message: 'must be an ISO date-time' });
    else if (isInstant(d.EffectiveTime) && Date.parse(d.ExpiryTime) <= Date.parse(d.EffectiveTime))
      out.push({ field: 'ExpiryTime', message: 'must be after EffectiveTime' });
  }
  if (d.ContextDefinitionId !== undefined && !RESOURCE_ID.test(d.ContextDefinitionId))
    out.push({ field: 'ContextDefinitionId', message: 'must be a context definition id' });
  if (d.DefaultLanguageId !== undefined && !LANGUAGE_ID.test(d.DefaultLanguageId))
    out.push({ field: 'DefaultLanguageId', message: 'must be a language id such as en, en_US or zh-CN' });
  if (!STRATEGIES.includes(d.DeliveryStrategy))
    out.push({ field: 'DeliveryStrategy', message: 'must be ALL or FALLBACK' });
  for (const [role, strategy] of Object.entries(d.RoleDeliveryStrategyOverrides)) {
    if (!ROLE.test(role)) out.push({ field: `RoleDeliveryStrategyOverrides.${role}`, message: 'is not a role name' });
    if (!STRATEGIES.includes(strategy))
      out.push({ field: `RoleDeliveryStrategyOverrides.${role}`, message: 'must be ALL or FALLBACK' });
  }
  if (!/^[A-Z][A-Z0-9_]{0,39}$/.test(d.NotificationClass))
    out.push({
      field: 'NotificationClass',
      message: 'must be an uppercase class such as TRANSACTIONAL, OPERATIONAL or MARKETING',
    });
  if (d.Description !== undefined && d.Description.length > MAX_DESCRIPTION)
    out.push({ field: 'Description', message: `must be at most ${MAX_DESCRIPTION} characters` });
  out.push(...checkPolicies(d, ''));
  return out;
}

/** everything but the condition's syntax, which has its own code (DELIVERY_RULE.CONDITION_INVALID) */
export function checkRule(r: DeliveryRule): Violation[] {
  const out: Violation[] = [];
  if (!ROLE.test(r.Role)) out.push({ field: 'Role', message: 'must be a role name (letters, digits, _ or -)' });
  if (!CHANNEL_CODE.test(r.Channel))
    out.push({ field: 'Channel', message: 'must be a channel code ([A-Z][A-Z0-9_]{0,39})' });
  if (!Number.isInteger(r.OrderNo) || r.OrderNo < 0 || r.OrderNo > 9999)
    out.push({ field: 'OrderNo', message: 'must be an integer from 0 to 9999' });
  if (r.RecipientSource !== 'CONTEXT' && r.RecipientSource !== 'REQUEST')
    out.push({ field: 'RecipientSource', message: 'must be CONTEXT or REQUEST' });
  if (r.RecipientSource === 'CONTEXT' && r.AddressVariable === undefined)
    out.push({ field: 'AddressVariable', message: 'is required for RecipientSource CONTEXT' });
  for (const key of ['IdentityVariable', 'AddressVariable'] as const) {
    const v = r[key];
    if (v !== undefined && !VARIABLE_NAME.test(v)) out.push({ field: key, message: 'must be a variable name' });
  }
  if (!CODE.test(r.TemplateCode)) out.push({ field: 'TemplateCode', message: 'must be a template code' });
  if (!RESOURCE_ID.test(r.ServiceId)) out.push({ field: 'ServiceId', message: 'must be a delivery service id' });
  if (r.LanguageId !== undefined && !LANGUAGE_ID.test(r.LanguageId))
    out.push({ field: 'LanguageId', message: 'must be a language id such as en, en_US or zh-CN' });
  if (r.TemplateMode !== 'HUB_MANAGED' && r.TemplateMode !== 'PROVIDER_MANAGED')
    out.push({ field: 'TemplateMode', message: 'must be HUB_MANAGED or PROVIDER_MANAGED' });
  if (r.PolicyOverrides !== undefined) out.push(...checkPolicies(r.PolicyOverrides, 'PolicyOverrides.'));
  return out;
}

/** null, or the condition's syntax error */
export const checkRuleCondition = (r: DeliveryRule): string | null =>
  r.Condition === undefined ? null : checkCondition(r.Condition);
