import { attachmentsFor } from './attachments.ts';
import { evaluateCondition } from './condition.ts';
import {
  type Channel,
  type ContextDefinition,
  DEFAULT_RECEIPT_TIMEOUT_SECONDS,
  DEFAULT_RETRY_POLICY,
  type Definition,
  type DeliveryRule,
  type DeliveryService,
  type Strategy,
  type Template,
  templateIdOf,
} from './config.model.ts';
import { extract } from './extraction.ts';
import type { Violation } from './hub.errors.ts';
import {
  type Attachment,
  type EffectivePolicies,
  type MessageContent,
  messageIdOf,
  type PlannedMessage,
  type PreparationReason,
  type Recipient,
} from './notification.model.ts';
import { placeholders, render } from './render.ts';
import type { SendRequest } from './send-request.ts';

/**
 * Send request rule 2: with the selected definition and the configuration captured for it, resolve
 * context, rules, recipients, content and role strategy, and prepare each message as PLANNED, SCHEDULED,
 * WAITING or a recorded outcome (SUPPRESSED: the rule's condition did not match; FAILED: it failed
 * synchronous validation, with the reason). Pure: the command layer loads the configuration first.
 *
 * Per rule, in Role then OrderNo order:
 * 1. condition (FEEL over the extracted variables) — false: SUPPRESSED CONDITION_NOT_MATCHED;
 * 2. recipient — CONTEXT: IdentityVariable and AddressVariable; REQUEST: the Recipients entry of the rule's
 *    role and channel; no address: RECIPIENT_MISSING; no RecipientId under an effective RESPECT preference
 *    policy: RECIPIENT_ID_REQUIRED;
 * 3. language — rule LanguageId, then request LanguageId, then DefaultLanguageId, no other fallback;
 * 4. template — exact code, channel and language, ACTIVE: else TEMPLATE_NOT_AVAILABLE;
 * 5. channel registered (and enabled), delivery service present, serving the channel, and its declared
 *    capabilities (SupportedChannels, SupportedContentTypes, SupportsAttachments) met;
 * 6. content — HUB_MANAGED: rendered with the original values, at most `maxRenderedLength` characters
 *    (subject and body); PROVIDER_MANAGED: the template's identity and the variables it names;
 * 7. state — the first sendable candidate of a FALLBACK role holds the turn, the later sendable ones
 *    WAIT; under ALL every sendable message goes; SendAt ahead: SCHEDULED, else PLANNED.
 */
export type PlanInput = {
  notificationId: string;
  now: string;
  request: SendRequest;
  definition: Definition;
  context: ContextDefinition | undefined;
  rules: DeliveryRule[];
  /** by templateIdOf */
  templates: ReadonlyMap<string, Template>;
  services: ReadonlyMap<string, DeliveryService>;
  channels: ReadonlyMap<string, Channel>;
  maxRenderedLength: number;
};

export type Plan =
  | { ok: true; messages: PlannedMessage[]; diagnostics: string[] }
  | { ok: false; violations: Violation[] };

/** the language a rule's message is written in: rule, request, definition default (no other fallback) */
export const languageFor = (
  rule: DeliveryRule,
  request: Pick<SendRequest, 'LanguageId'>,
  definition: Definition,
): string | undefined => rule.LanguageId ?? request.LanguageId ?? definition.DefaultLanguageId;

export const strategyFor = (definition: Definition, role: string): Strategy =>
  definition.RoleDeliveryStrategyOverrides[role] ?? definition.DeliveryStrategy;

/** the customer/timing policies in force for a rule: the rule's override wins over the definition's default; default RESPECT */
export function effectivePolicies(definition: Definition, rule: DeliveryRule): EffectivePolicies {
  const o = rule.PolicyOverrides ?? {};
  return {
    PreferencePolicy: o.PreferencePolicy ?? definition.PreferencePolicy ?? 'RESPECT',
    FrequencyCapPolicy: o.FrequencyCapPolicy ?? definition.FrequencyCapPolicy ?? 'RESPECT',
    QuietHoursPolicy: o.QuietHoursPolicy ?? definition.QuietHoursPolicy ?? 'RESPECT',
  };
}

/** a rule's retry override replaces the whole policy */
export const retryPolicyFor = (definition: Definition, rule: DeliveryRule) =>
  rule.PolicyOverrides?.RetryPolicy ?? definition.RetryPolicy ?? DEFAULT_RETRY_POLICY;

const asIdentity = (v: unknown): string | undefined =>
  typeof v === 'string' && v.trim() !== '' ? v : typeof v === 'number' && Number.isFinite(v) ? String(v) : undefined;

const stringList = (v: unknown): string[] | undefined =>
  Array.isArray(v) && v.every((x) => typeof x === 'string') ? (v as string[]) : undefined;

/** the service's declared capabilities refuse this message: why (omitted declarations leave it to the receiver) */
function capabilityProblem(
  service: DeliveryService,
  channel: string,
  template: Template,
  attachments: Attachment[],
): { reason: PreparationReason; detail: string } | null {
  if (service.Channel !== undefined && service.Channel !== channel)
    return {
      reason: 'CHANNEL_NOT_SUPPORTED',
      detail: `delivery service ${service.ServiceId} serves channel ${service.Channel} only`,
    };
  const channels = stringList(service.Settings.SupportedChannels);
  if (channels !== undefined && !channels.includes(channel))
    return {
      reason: 'CHANNEL_NOT_SUPPORTED',
      detail: `delivery service ${service.ServiceId} does not support channel ${channel}`,
    };
  const types = stringList(service.Settings.SupportedContentTypes);
  if (types !== undefined && !types.includes(template.ContentType)) {
    return {
      reason: 'CONTENT_TYPE_NOT_SUPPORTED',
      detail: `delivery service ${service.ServiceId} does not support ${template.ContentType} content`,
    };
  }
  if (attachments.length > 0 && service.Settings.SupportsAttachments === false) {
    return {
      reason: 'ATTACHMENTS_NOT_SUPPORTED',
      detail: `delivery service ${service.ServiceId} does not take attachments`,
    };
  }
  return null;
}

export function planMessages(input: PlanInput): Plan {
  const { request, definition, rules, now } = input;
  const extraction = extract(input.context, request.Payload);
  const declared = new Set(Object.keys(input.context?.Variables ?? {}));
  const dueAt = request.SendAt !== undefined && request.SendAt > now ? request.SendAt : now;

  // recipient rules that need the role strategies: FALLBACK candidates of one role agree on a nonblank RecipientId
  const violations: Violation[] = [];
  const byRole = new Map<string, Set<string>>();
  request.Recipients.forEach((r, i) => {
    if (strategyFor(definition, r.Role) !== 'FALLBACK') return;
    const id = r.RecipientId?.trim() ?? '';
    if (id === '')
      violations.push({
        field: `Recipients.${i}.RecipientId`,
        message: `role ${r.Role} delivers by FALLBACK: its candidates need a RecipientId`,
      });
    const ids = byRole.get(r.Role) ?? new Set<string>();
    ids.add(id);
    byRole.set(r.Role, ids);
  });
  for (const [role, ids] of byRole) {
    if (ids.size > 1)
      violations.push({
        field: 'Recipients',
        message: `the FALLBACK candidates of role ${role} name different RecipientIds: they must agree`,
      });
  }
  if (violations.length > 0) return { ok: false, violations };

  const turnTaken = new Set<string>();
  const messages = rules.map((rule, index): PlannedMessage => {
    const strategy = strategyFor(definition, rule.Role);
    const policies = effectivePolicies(definition, rule);
    const base = {
      MessageId: messageIdOf(input.notificationId, index),
      RuleId: rule.RuleId,
      Role: rule.Role,
      Channel: rule.Channel,
      OrderNo: rule.OrderNo,
      Strategy: strategy,
      DueAt: dueAt,
      RetryPolicy: retryPolicyFor(definition, rule),
      Policies: policies,
    };
    const notSendable = (
      state: 'SUPPRESSED' | 'FAILED',
      reason: PreparationReason,
      detail: string,
      more: Partial<PlannedMessage> = {},
    ): PlannedMessage => ({
      ...base,
      ...more,
      State: state,
      Reason: reason,
      Diagnostics: [detail],
    });

    const condition = evaluateCondition(rule.Condition, extraction.variables);
    if (!condition.matched)
      return notSendable('SUPPRESSED', 'CONDITION_NOT_MATCHED', condition.diagnostic ?? 'the condition did not match');

    let recipient: Recipient | undefined;
    if (rule.RecipientSource === 'CONTEXT') {
      const address =
        rule.AddressVariable === undefined ? undefined : asIdentity(extraction.variables[rule.AddressVariable]);
      const id =
        rule.IdentityVariable === undefined ? undefined : asIdentity(extraction.variables[rule.IdentityVariable]);
      if (address !== undefined) recipient = { ...(id !== undefined && { RecipientId: id }), Address: address };
      else
        return notSendable(
          'FAILED',
          'RECIPIENT_MISSING',
          `the address variable ${rule.AddressVariable ?? '(none)'} has no value in the payload`,
        );
    } else {
      const entry = request.Recipients.find((r) => r.Role === rule.Role && r.Channel === rule.Channel);
      if (entry === undefined)
        return notSendable(
          'FAILED',
          'RECIPIENT_MISSING',
          `Recipients has no entry for role ${rule.Role} and channel ${rule.Channel}`,
        );
      recipient = {
        ...(entry.RecipientId !== undefined && entry.RecipientId.trim() !== '' && { RecipientId: entry.RecipientId }),
        Address: entry.Address!,
      };
    }
    if (policies.PreferencePolicy === 'RESPECT' && recipient.RecipientId === undefined) {
      return notSendable(
        'FAILED',
        'RECIPIENT_ID_REQUIRED',
        'the preference policy is RESPECT: the recipient needs a RecipientId (the preference subject)',
        { Recipient: recipient },
      );
    }

    const language = languageFor(rule, request, definition);
    if (language === undefined)
      return notSendable('FAILED', 'LANGUAGE_MISSING', 'no LanguageId on the rule, the request or the definition', {
        Recipient: recipient,
      });
    const templateId = templateIdOf({ TemplateCode: rule.TemplateCode, Channel: rule.Channel, LanguageId: language });
    const template = input.templates.get(templateId);
    if (template === undefined || template.Status !== 'ACTIVE') {
      return notSendable(
        'FAILED',
        'TEMPLATE_NOT_AVAILABLE',
        `no ACTIVE template ${templateId} (exact language ${language}; there is no language fallback)`,
        { Recipient: recipient },
      );
    }
    const channel = input.channels.get(rule.Channel);
    if (channel === undefined || !channel.Enabled)
      return notSendable(
        'FAILED',
        'CHANNEL_NOT_REGISTERED',
        `channel ${rule.Channel} is not registered (or disabled) in CommHubChannel`,
        { Recipient: recipient },
      );
    const service = input.services.get(rule.ServiceId);
    if (service === undefined)
      return notSendable('FAILED', 'SERVICE_NOT_AVAILABLE', `no delivery service ${rule.ServiceId}`, {
        Recipient: recipient,
      });
    const attachments = attachmentsFor(request.Attachments, rule.Role);
    const capability = capabilityProblem(service, rule.Channel, template, attachments);
    if (capability !== null)
      return notSendable('FAILED', capability.reason, capability.detail, { Recipient: recipient });

    let content: MessageContent;
    const identity = {
      TemplateMode: rule.TemplateMode,
      TemplateId: templateId,
      TemplateCode: rule.TemplateCode,
      LanguageId: language,
      ContentType: template.ContentType,
    };
    if (rule.TemplateMode === 'HUB_MANAGED') {
      const subject =
        template.Subject === undefined ? undefined : render(template.Subject, extraction.variables, declared, 'TEXT');
      const body = render(template.Body, extraction.variables, declared, template.ContentType);
      const failure = [subject, body].find((r) => r !== undefined && !r.ok);
      if (failure !== undefined && !failure.ok)
        return notSendable('FAILED', 'TEMPLATE_RENDER_FAILED', failure.error, { Recipient: recipient });
      const subjectText = subject?.ok === true ? subject.text : undefined;
      const bodyText = body.ok ? body.text : '';
      const length = (subjectText?.length ?? 0) + bodyText.length;
      if (length > input.maxRenderedLength) {
        return notSendable(
          'FAILED',
          'RENDERED_TOO_LONG',
          `the rendered content is ${length} characters; at most ${input.maxRenderedLength} (comm-hub.template.max-rendered-length)`,
          { Recipient: recipient },
        );
      }
      content = {
        ...identity,
        ...(subjectText !== undefined && { Subject: subjectText }),
        ...(template.ContentType === 'HTML' ? { BodyHtml: bodyText } : { BodyText: bodyText }),
      };
    } else {
      const names = new Set([
        ...placeholders(template.Body),
        ...(template.Subject === undefined ? [] : placeholders(template.Subject)),
      ]);
      content = {
        ...identity,
        Parameters: Object.fromEntries(
          [...names].filter((n) => extraction.variables[n] !== undefined).map((n) => [n, extraction.variables[n]]),
        ),
      };
    }

    const holdsTurn = strategy === 'ALL' || !turnTaken.has(rule.Role);
    if (strategy === 'FALLBACK') turnTaken.add(rule.Role);
    return {
      ...base,
      State: !holdsTurn ? 'WAITING' : dueAt > now ? 'SCHEDULED' : 'PLANNED',
      Recipient: recipient,
      Content: content,
      ServiceId: service.ServiceId,
      ReceiptMode: service.ReceiptMode,
      ...(service.ReceiptMode === 'FINAL_RESULT' && {
        ReceiptTimeoutSeconds: service.ReceiptTimeoutSeconds ?? DEFAULT_RECEIPT_TIMEOUT_SECONDS,
      }),
      ...(attachments.length > 0 && { Attachments: attachments }),
    };
  });
  return { ok: true, messages, diagnostics: extraction.diagnostics };
}
