import sanitizeHtml from 'sanitize-html';
import { checkCondition, evaluateCondition } from './condition.ts';
import {
  CHANNEL_CODE,
  type Channel,
  type ContentType,
  type ContextDefinition,
  DEFAULT_RETRY_POLICY,
  type Definition,
  type DeliveryRule,
  type DeliveryService,
  LANGUAGE_ID,
  type Policy,
  type RetryPolicy,
  type Template,
  templateIdOf,
} from './config.model.ts';
import { checkRule } from './config.validate.ts';
import { checkExtraction, extract } from './extraction.ts';
import type { Violation } from './hub.errors.ts';
import { checkSensitiveField, maskPayload, maskText } from './masking.ts';
import { languageFor, planMessages } from './plan.ts';
import { checkTemplateText, placeholders, render } from './render.ts';
import type { SendRequest } from './send-request.ts';

/**
 * Previews (spec "Send request rules" 6 and 7): pure functions over a sample payload and configuration the
 * command layer loaded. They never create notifications and never evaluate live policies (preferences,
 * counts, quiet hours, expiry, fallback scheduling): `RuntimeGuardsEvaluated` is always false.
 *
 * What they show follows the send's rule for stored payloads: extraction and requirement checks run on the
 * ORIGINAL sample (so a preview fails where a send would), but every value a preview displays is taken from
 * the sample MASKED per the context's SensitiveFields (a preview is an administrator's screen, not a
 * delivery). HTML bodies are sanitized (sanitize-html's default allowlist: no scripts, no event handlers, no
 * javascript: URLs) before they are shown.
 */
export type ContextInput = Pick<ContextDefinition, 'Contexts' | 'Variables' | 'SensitiveFields'>;

/** violations of an inline context (field names relative to `prefix`) */
export function checkContextInput(c: ContextInput, prefix = ''): Violation[] {
  const out: Violation[] = checkExtraction(c).map((v) => ({ field: `${prefix}${v.field}`, message: v.message }));
  c.SensitiveFields.forEach((f, i) => {
    for (const v of checkSensitiveField(f, c.Contexts))
      out.push({ field: `${prefix}SensitiveFields.${i}.${v.field}`, message: v.message });
  });
  return out;
}

// ---- previewExtraction ----

export type ExtractionPreview = {
  /** variable → its value for display (read from the masked sample) */
  Variables: Record<string, unknown>;
  /** variable → the source path it is read from */
  Sources: Record<string, string>;
  /** variables whose value is (partly) masked for display */
  MaskedVariables: string[];
  /** the sample as it would be stored (masked per SensitiveFields) */
  MaskedPayload: Record<string, unknown>;
  Diagnostics: string[];
};

export function previewExtraction(context: ContextInput, payload: Record<string, unknown>): ExtractionPreview {
  const original = extract(context, payload);
  const masked = maskPayload(payload, context.SensitiveFields, context.Contexts);
  const shown = extract(context, masked);
  const maskedNames = Object.keys(original.variables).filter(
    (n) => JSON.stringify(original.variables[n]) !== JSON.stringify(shown.variables[n]),
  );
  return {
    Variables: shown.variables,
    Sources: original.sources,
    MaskedVariables: maskedNames,
    MaskedPayload: masked,
    Diagnostics: original.diagnostics,
  };
}

// ---- previewContent, renderPreview, renderPreviewById ----

export type ContentInput = {
  Channel: string;
  LanguageId: string;
  ContentType: ContentType;
  Subject?: string;
  Body: string;
};

export type ContentPreview = {
  /** the requirements hold on the original sample: every placeholder declared and valued, the length within the limit */
  Valid: boolean;
  Subject?: string;
  BodyText?: string;
  BodyHtml?: string;
  LanguageId: string;
  Diagnostics: string[];
};

/** what sanitize-html keeps of an HTML body: its default allowlist (no script, style, iframe, on* attributes, javascript: URLs) */
export const sanitizeBody = (html: string): string =>
  sanitizeHtml(html, { allowedSchemes: ['http', 'https', 'mailto', 'tel'], allowProtocolRelative: false });

export function checkContentInput(c: ContentInput): Violation[] {
  const out: Violation[] = [];
  if (!CHANNEL_CODE.test(c.Channel))
    out.push({ field: 'Channel', message: 'must be a channel code ([A-Z][A-Z0-9_]{0,39})' });
  if (!LANGUAGE_ID.test(c.LanguageId))
    out.push({ field: 'LanguageId', message: 'must be a platform language id such as en, en_US or zh-CN' });
  for (const [field, text] of [
    ['Subject', c.Subject],
    ['Body', c.Body],
  ] as const) {
    if (text === undefined) continue;
    const why = checkTemplateText(text);
    if (why !== null) out.push({ field, message: why });
  }
  return out;
}

export function previewContent(
  content: ContentInput,
  context: ContextInput | undefined,
  payload: Record<string, unknown>,
  maxRenderedLength: number,
): ContentPreview {
  const declared = new Set(Object.keys(context?.Variables ?? {}));
  const original = extract(context, payload);
  const shown = extract(context, maskPayload(payload, context?.SensitiveFields ?? [], context?.Contexts ?? {}));
  const diagnostics = [...original.diagnostics];
  let valid = true;

  // requirements, on the original sample: what a send would render
  const names = new Set([
    ...placeholders(content.Body),
    ...(content.Subject === undefined ? [] : placeholders(content.Subject)),
  ]);
  const subjectRaw =
    content.Subject === undefined ? undefined : render(content.Subject, original.variables, declared, 'TEXT');
  const bodyRaw = render(content.Body, original.variables, declared, content.ContentType);
  for (const r of [subjectRaw, bodyRaw]) {
    if (r !== undefined && !r.ok) {
      valid = false;
      diagnostics.push(r.error);
    }
  }
  const missing = [...names].filter(
    (n) => declared.has(n) && (original.variables[n] === undefined || original.variables[n] === null),
  );
  if (missing.length > 0) {
    valid = false;
    diagnostics.push(`the sample gives no value for ${missing.join(', ')} (rendered empty)`);
  }
  const length = (subjectRaw?.ok === true ? subjectRaw.text.length : 0) + (bodyRaw.ok ? bodyRaw.text.length : 0);
  if (length > maxRenderedLength) {
    valid = false;
    diagnostics.push(
      `the rendered content is ${length} characters; at most ${maxRenderedLength} (comm-hub.template.max-rendered-length)`,
    );
  }

  // display, with the masked values (an undeclared placeholder, already a diagnostic, renders empty)
  const lenient = new Set([...declared, ...names]);
  const subject = content.Subject === undefined ? undefined : render(content.Subject, shown.variables, lenient, 'TEXT');
  const body = render(content.Body, shown.variables, lenient, content.ContentType);
  const bodyText = body.ok ? body.text : content.Body;
  let shownBody = bodyText;
  if (content.ContentType === 'HTML') {
    shownBody = sanitizeBody(bodyText);
    if (shownBody !== bodyText)
      diagnostics.push('the HTML body was sanitized for display (scripts, event handlers or unsafe URLs removed)');
  }
  return {
    Valid: valid,
    ...(subject?.ok === true && { Subject: subject.text }),
    ...(content.ContentType === 'HTML' ? { BodyHtml: shownBody } : { BodyText: shownBody }),
    LanguageId: content.LanguageId,
    Diagnostics: diagnostics,
  };
}

export const contentOfTemplate = (t: Template): ContentInput => ({
  Channel: t.Channel,
  LanguageId: t.LanguageId,
  ContentType: t.ContentType,
  ...(t.Subject !== undefined && { Subject: t.Subject }),
  Body: t.Body,
});

// ---- delivery rule preview ----

export type PolicySource = 'RULE' | 'DEFINITION' | 'DEFAULT';

export type RulePreviewInput = {
  definition: Definition;
  context: ContextDefinition | undefined;
  rule: DeliveryRule;
  payload: Record<string, unknown>;
  request: Pick<SendRequest, 'LanguageId' | 'Recipients'>;
  /** the configuration the rule names, as stored now (absent: not there) */
  templates: ReadonlyMap<string, Template>;
  services: ReadonlyMap<string, DeliveryService>;
  channels: ReadonlyMap<string, Channel>;
  maxRenderedLength: number;
};

export type RulePreview = {
  ConditionValid: boolean;
  ConditionMatched: boolean;
  Recipient?: { RecipientId?: string; Address?: string };
  Template: { TemplateId?: string; LanguageId?: string; Status?: Template['Status']; Available: boolean };
  EffectivePolicies: {
    PreferencePolicy: { Value: Policy; Source: PolicySource };
    FrequencyCapPolicy: { Value: Policy; Source: PolicySource };
    QuietHoursPolicy: { Value: Policy; Source: PolicySource };
    RetryPolicy: { Value: RetryPolicy; Source: PolicySource };
  };
  /** what a send accepted now would make of this rule's message (live policies aside) */
  Outcome: { State: string; Reason?: string };
  Violations: Violation[];
  Diagnostics: string[];
  RuntimeGuardsEvaluated: false;
};

const maskAddress = (a: string) => maskText(a, a.includes('@') ? 'EMAIL' : 'KEEP_EDGES');

function sourced<T>(
  ruleValue: T | undefined,
  definitionValue: T | undefined,
  fallback: T,
): { Value: T; Source: PolicySource } {
  if (ruleValue !== undefined) return { Value: ruleValue, Source: 'RULE' };
  if (definitionValue !== undefined) return { Value: definitionValue, Source: 'DEFINITION' };
  return { Value: fallback, Source: 'DEFAULT' };
}

export function previewRule(input: RulePreviewInput): RulePreview {
  const { definition, rule, context, payload } = input;
  const diagnostics: string[] = [];
  const violations = checkRule(rule);
  const original = extract(context, payload);
  diagnostics.push(...original.diagnostics);

  const conditionError = rule.Condition === undefined ? null : checkCondition(rule.Condition);
  if (conditionError !== null) diagnostics.push(`Condition ${conditionError}`);
  const condition =
    conditionError === null ? evaluateCondition(rule.Condition, original.variables) : { matched: false };
  if (conditionError === null && !condition.matched && condition.diagnostic !== undefined)
    diagnostics.push(condition.diagnostic);

  // the recipient the rule resolves (shown masked)
  let recipient: RulePreview['Recipient'];
  const text = (v: unknown) =>
    typeof v === 'string' && v.trim() !== '' ? v : typeof v === 'number' ? String(v) : undefined;
  if (rule.RecipientSource === 'CONTEXT') {
    const address = rule.AddressVariable === undefined ? undefined : text(original.variables[rule.AddressVariable]);
    const id = rule.IdentityVariable === undefined ? undefined : text(original.variables[rule.IdentityVariable]);
    if (address === undefined)
      diagnostics.push(`the address variable ${rule.AddressVariable ?? '(none)'} has no value in the sample`);
    if (address !== undefined || id !== undefined)
      recipient = {
        ...(id !== undefined && { RecipientId: maskText(id, 'KEEP_EDGES') }),
        ...(address !== undefined && { Address: maskAddress(address) }),
      };
  } else {
    const entry = input.request.Recipients.find((r) => r.Role === rule.Role && r.Channel === rule.Channel);
    if (entry === undefined)
      diagnostics.push(`Recipients has no entry for role ${rule.Role} and channel ${rule.Channel}`);
    else
      recipient = {
        ...(entry.RecipientId !== undefined && { RecipientId: maskText(entry.RecipientId, 'KEEP_EDGES') }),
        ...(entry.Address !== undefined && { Address: maskAddress(entry.Address) }),
      };
  }

  const language = languageFor(rule, input.request, definition);
  const templateId =
    language === undefined
      ? undefined
      : templateIdOf({ TemplateCode: rule.TemplateCode, Channel: rule.Channel, LanguageId: language });
  const template = templateId === undefined ? undefined : input.templates.get(templateId);
  if (language === undefined) diagnostics.push('no LanguageId on the rule, the request or the definition');

  const o = rule.PolicyOverrides ?? {};
  const policies: RulePreview['EffectivePolicies'] = {
    PreferencePolicy: sourced(o.PreferencePolicy, definition.PreferencePolicy, 'RESPECT'),
    FrequencyCapPolicy: sourced(o.FrequencyCapPolicy, definition.FrequencyCapPolicy, 'RESPECT'),
    QuietHoursPolicy: sourced(o.QuietHoursPolicy, definition.QuietHoursPolicy, 'RESPECT'),
    RetryPolicy: sourced(o.RetryPolicy, definition.RetryPolicy, DEFAULT_RETRY_POLICY),
  };

  // the send's own preparation of this one rule: the same checks in the same order (nothing is stored)
  const plan =
    violations.length > 0 || conditionError !== null
      ? undefined
      : planMessages({
          notificationId: 'preview',
          now: '1970-01-01T00:00:00.000Z',
          request: {
            RequestId: 'preview',
            NotificationCode: definition.NotificationCode,
            Payload: payload,
            Recipients: input.request.Recipients,
            Attachments: [],
            ...(input.request.LanguageId !== undefined && { LanguageId: input.request.LanguageId }),
          },
          definition,
          context,
          rules: [{ ...rule, Enabled: true }],
          templates: input.templates,
          services: input.services,
          channels: input.channels,
          maxRenderedLength: input.maxRenderedLength,
        });
  let outcome: RulePreview['Outcome'] = { State: 'INVALID' };
  if (plan !== undefined && !plan.ok) {
    outcome = { State: 'INVALID', Reason: 'RECIPIENTS_INVALID' };
    diagnostics.push(...plan.violations.map((v) => `${v.field} ${v.message}`));
  } else if (plan?.ok) {
    const m = plan.messages[0]!;
    outcome = { State: m.State, ...(m.Reason !== undefined && { Reason: m.Reason }) };
    for (const d of m.Diagnostics ?? []) if (!diagnostics.includes(d)) diagnostics.push(d);
  }

  return {
    ConditionValid: conditionError === null,
    ConditionMatched: condition.matched,
    ...(recipient !== undefined && { Recipient: recipient }),
    Template: {
      ...(templateId !== undefined && { TemplateId: templateId }),
      ...(language !== undefined && { LanguageId: language }),
      ...(template !== undefined && { Status: template.Status }),
      Available: template?.Status === 'ACTIVE',
    },
    EffectivePolicies: policies,
    Outcome: outcome,
    Violations: violations,
    Diagnostics: diagnostics,
    RuntimeGuardsEvaluated: false,
  };
}

/** the sample a saved-context preview uses: the request's, else the context's stored SamplePayload, else {} */
export const sampleOf = (
  given: Record<string, unknown> | undefined,
  context: ContextDefinition | undefined,
): Record<string, unknown> => given ?? context?.SamplePayload ?? {};
