import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type {
  Channel,
  ContextDefinition,
  Definition,
  DeliveryRule,
  DeliveryService,
  Template,
} from '../../../domain/hub/config.model.ts';
import { type PlanInput, planMessages } from '../../../domain/hub/plan.ts';
import { normalizeSendRequest, type SendRequestInput } from '../../../domain/hub/send-request.ts';

const NOW = '2026-03-01T10:00:00.000Z';
const definition: Definition = {
  DefinitionId: 'renewal:1',
  NotificationCode: 'renewal',
  Version: 1,
  EffectiveTime: '2020-01-01T00:00:00.000Z',
  Enabled: true,
  ContextDefinitionId: 'ctx',
  DefaultLanguageId: 'en_US',
  DeliveryStrategy: 'ALL',
  RoleDeliveryStrategyOverrides: {},
  NotificationClass: 'TRANSACTIONAL',
};
const context: ContextDefinition = {
  ContextDefinitionId: 'ctx',
  Contexts: { holder: '$.policy.holder' },
  Variables: {
    Name: 'Context.holder.name',
    Email: 'Context.holder.email',
    Id: 'Context.holder.id',
    Premium: 'Payload.policy.premium',
    Html: 'Payload.note',
  },
  SensitiveFields: [],
};
const rule = (o: Partial<DeliveryRule> = {}): DeliveryRule => ({
  RuleId: 'renewal:1:email',
  DefinitionId: 'renewal:1',
  Role: 'Holder',
  Channel: 'EMAIL',
  OrderNo: 0,
  RecipientSource: 'CONTEXT',
  IdentityVariable: 'Id',
  AddressVariable: 'Email',
  TemplateCode: 'renewal',
  ServiceId: 'mail',
  TemplateMode: 'HUB_MANAGED',
  Enabled: true,
  ...o,
});
const template = (o: Partial<Template> = {}): Template => ({
  TemplateId: 'renewal:EMAIL:en_US',
  TemplateCode: 'renewal',
  Channel: 'EMAIL',
  LanguageId: 'en_US',
  ContentType: 'TEXT',
  Subject: 'Renewal for ${Name}',
  Body: 'Premium ${Premium}',
  Status: 'ACTIVE',
  ...o,
});
const service = (o: Partial<DeliveryService> = {}): DeliveryService => ({
  ServiceId: 'mail',
  DriverType: 'REST_WEBHOOK',
  Settings: { Url: 'https://rx.example/notify', SupportedChannels: ['EMAIL', 'SMS'], SupportedContentTypes: ['TEXT'] },
  ReceiptMode: 'FINAL_RESULT',
  ...o,
});
const channels = new Map<string, Channel>([
  ['EMAIL', { Code: 'EMAIL', Enabled: true }],
  ['SMS', { Code: 'SMS', Enabled: true }],
]);
const payload = {
  policy: { premium: 120, holder: { id: 'H-1', name: 'Ann <b>', email: 'ann@example.com' } },
  note: '<script>',
};

function plan(
  o: {
    request?: Partial<SendRequestInput>;
    rules?: DeliveryRule[];
    templates?: Template[];
    services?: DeliveryService[];
    definition?: Partial<Definition>;
    max?: number;
  } = {},
) {
  const n = normalizeSendRequest(
    { RequestId: 'r', NotificationCode: 'renewal', Payload: payload, ...o.request },
    'UTC',
  );
  if (!n.ok) throw new Error(JSON.stringify(n.violations));
  const input: PlanInput = {
    notificationId: '11111111-2222-5333-8444-555555555555',
    now: NOW,
    request: n.request,
    definition: { ...definition, ...o.definition },
    context,
    rules: o.rules ?? [rule()],
    templates: new Map((o.templates ?? [template()]).map((t) => [t.TemplateId, t])),
    services: new Map((o.services ?? [service()]).map((s) => [s.ServiceId, s])),
    channels,
    maxRenderedLength: o.max ?? 65_536,
  };
  return planMessages(input);
}
const messages = (p: ReturnType<typeof plan>) => {
  if (!p.ok) throw new Error(JSON.stringify(p.violations));
  return p.messages;
};

test('a rule is prepared PLANNED with its recipient, rendered content (original values) and frozen receipt mode', () => {
  const [m] = messages(plan());
  assert.is(m!.State, 'PLANNED');
  assert.equal(m!.Recipient, { RecipientId: 'H-1', Address: 'ann@example.com' });
  assert.is(m!.Content!.Subject, 'Renewal for Ann <b>');
  assert.is(m!.Content!.BodyText, 'Premium 120');
  assert.is(m!.ReceiptMode, 'FINAL_RESULT');
  assert.is(m!.ReceiptTimeoutSeconds, 86_400);
  assert.equal(m!.Policies, {
    PreferencePolicy: 'RESPECT',
    FrequencyCapPolicy: 'RESPECT',
    QuietHoursPolicy: 'RESPECT',
  });
});

test('HTML templates escape every inserted value; the subject stays text', () => {
  const [m] = messages(
    plan({
      templates: [template({ ContentType: 'HTML', Body: '<p>${Name} ${Html}</p>' })],
      services: [service({ Settings: { Url: 'https://rx.example/n' } })],
    }),
  );
  assert.is(m!.Content!.BodyHtml, '<p>Ann &lt;b&gt; &lt;script&gt;</p>');
});

test('language: rule LanguageId, then request LanguageId, then DefaultLanguageId; no fallback: a missing exact template fails', () => {
  assert.is(
    messages(
      plan({
        request: { LanguageId: 'de_DE' },
        templates: [template({ TemplateId: 'renewal:EMAIL:de_DE', LanguageId: 'de_DE' })],
      }),
    )[0]!.Content!.LanguageId,
    'de_DE',
  );
  assert.is(
    messages(
      plan({
        rules: [rule({ LanguageId: 'fr' })],
        request: { LanguageId: 'de_DE' },
        templates: [template({ TemplateId: 'renewal:EMAIL:fr', LanguageId: 'fr' })],
      }),
    )[0]!.Content!.LanguageId,
    'fr',
  );
  const [m] = messages(plan({ request: { LanguageId: 'en' } }));
  assert.is(m!.State, 'FAILED');
  assert.is(m!.Reason, 'TEMPLATE_NOT_AVAILABLE');
  assert.is(messages(plan({ templates: [template({ Status: 'DRAFT' })] }))[0]!.Reason, 'TEMPLATE_NOT_AVAILABLE');
});

test('a condition that does not match suppresses the message; FEEL sees the extracted variables', () => {
  assert.is(messages(plan({ rules: [rule({ Condition: 'Premium > 100' })] }))[0]!.State, 'PLANNED');
  const [m] = messages(plan({ rules: [rule({ Condition: 'Premium > 1000' })] }));
  assert.is(m!.State, 'SUPPRESSED');
  assert.is(m!.Reason, 'CONDITION_NOT_MATCHED');
});

test('recipients: REQUEST entries by role and channel; RecipientId required under RESPECT, not under BYPASS', () => {
  const req = rule({
    RecipientSource: 'REQUEST',
    Channel: 'SMS',
    RuleId: 'renewal:1:sms',
    IdentityVariable: undefined,
    AddressVariable: undefined,
  });
  const sms = template({ TemplateId: 'renewal:SMS:en_US', Channel: 'SMS' });
  assert.is(messages(plan({ rules: [req], templates: [sms] }))[0]!.Reason, 'RECIPIENT_MISSING');
  const noId = messages(
    plan({
      rules: [req],
      templates: [sms],
      request: { Recipients: [{ Role: 'Holder', Channel: 'SMS', Address: '+491' }] },
    }),
  )[0]!;
  assert.is(noId.Reason, 'RECIPIENT_ID_REQUIRED');
  const bypass = messages(
    plan({
      rules: [req],
      templates: [sms],
      definition: { PreferencePolicy: 'BYPASS' },
      request: { Recipients: [{ Role: 'Holder', Channel: 'SMS', Address: '+491' }] },
    }),
  )[0]!;
  assert.is(bypass.State, 'PLANNED');
  assert.equal(bypass.Recipient, { Address: '+491' });
  // a rule override wins over the definition's default
  assert.is(
    messages(
      plan({
        rules: [{ ...req, PolicyOverrides: { PreferencePolicy: 'RESPECT' } }],
        templates: [sms],
        definition: { PreferencePolicy: 'BYPASS' },
        request: { Recipients: [{ Role: 'Holder', Channel: 'SMS', Address: '+491' }] },
      }),
    )[0]!.Reason,
    'RECIPIENT_ID_REQUIRED',
  );
});

test('FALLBACK: the first sendable candidate holds the turn, later ones WAIT; an unsendable one does not take the turn', () => {
  const sms = rule({ RuleId: 'renewal:1:sms', Channel: 'SMS', OrderNo: 1 });
  const smsTemplate = template({ TemplateId: 'renewal:SMS:en_US', Channel: 'SMS' });
  const both = messages(
    plan({ definition: { DeliveryStrategy: 'FALLBACK' }, rules: [rule(), sms], templates: [template(), smsTemplate] }),
  );
  assert.equal(
    both.map((m) => m.State),
    ['PLANNED', 'WAITING'],
  );
  const first = messages(
    plan({ definition: { DeliveryStrategy: 'FALLBACK' }, rules: [rule(), sms], templates: [smsTemplate] }),
  );
  assert.equal(
    first.map((m) => m.State),
    ['FAILED', 'PLANNED'],
  );
  // a role override
  assert.equal(
    messages(
      plan({
        definition: { RoleDeliveryStrategyOverrides: { Holder: 'FALLBACK' } },
        rules: [rule(), sms],
        templates: [template(), smsTemplate],
      }),
    ).map((m) => m.State),
    ['PLANNED', 'WAITING'],
  );
});

test('FALLBACK candidates of one role must agree on a nonblank RecipientId', () => {
  const p = plan({
    definition: { DeliveryStrategy: 'FALLBACK' },
    request: {
      Recipients: [
        { Role: 'Holder', Channel: 'EMAIL', RecipientId: 'a', Address: 'a@x.io' },
        { Role: 'Holder', Channel: 'SMS', RecipientId: 'b', Address: '+1' },
      ],
    },
  });
  assert.is(p.ok, false);
  const q = plan({
    definition: { DeliveryStrategy: 'FALLBACK' },
    request: { Recipients: [{ Role: 'Holder', Channel: 'EMAIL', Address: 'a@x.io' }] },
  });
  assert.is(q.ok, false);
});

test('channel, service and capabilities: unregistered channel, unsupported channel or content type, attachments refused', () => {
  assert.is(
    messages(
      plan({
        rules: [rule({ Channel: 'FAX', RuleId: 'renewal:1:fax' })],
        templates: [template({ TemplateId: 'renewal:FAX:en_US', Channel: 'FAX' })],
      }),
    )[0]!.Reason,
    'CHANNEL_NOT_REGISTERED',
  );
  assert.is(messages(plan({ services: [] }))[0]!.Reason, 'SERVICE_NOT_AVAILABLE');
  assert.is(
    messages(plan({ services: [service({ Settings: { Url: 'u', SupportedChannels: ['SMS'] } })] }))[0]!.Reason,
    'CHANNEL_NOT_SUPPORTED',
  );
  assert.is(
    messages(plan({ templates: [template({ ContentType: 'HTML' })] }))[0]!.Reason,
    'CONTENT_TYPE_NOT_SUPPORTED',
  );
  const att = { Attachments: [{ DocId: 'd1' }] };
  assert.is(
    messages(plan({ request: att, services: [service({ Settings: { Url: 'u', SupportsAttachments: false } })] }))[0]!
      .Reason,
    'ATTACHMENTS_NOT_SUPPORTED',
  );
  // a RoleFilter that leaves this role out: no attachment for it
  assert.is(
    messages(
      plan({
        request: { Attachments: [{ DocId: 'd1', RoleFilter: ['Agent'] }] },
        services: [service({ Settings: { Url: 'u', SupportsAttachments: false } })],
      }),
    )[0]!.State,
    'PLANNED',
  );
});

test('rendered content is limited (comm-hub.template.max-rendered-length); an undeclared variable fails the render', () => {
  assert.is(messages(plan({ max: 10 }))[0]!.Reason, 'RENDERED_TOO_LONG');
  assert.is(messages(plan({ templates: [template({ Body: 'x ${Nope}' })] }))[0]!.Reason, 'TEMPLATE_RENDER_FAILED');
});

test('PROVIDER_MANAGED passes the template identity and the variables it names; SendAt ahead makes it SCHEDULED', () => {
  const [m] = messages(
    plan({ rules: [rule({ TemplateMode: 'PROVIDER_MANAGED' })], request: { SendAt: '2026-03-02T08:00:00' } }),
  );
  assert.is(m!.State, 'SCHEDULED');
  assert.is(m!.DueAt, '2026-03-02T08:00:00.000Z');
  assert.equal(m!.Content, {
    TemplateMode: 'PROVIDER_MANAGED',
    TemplateId: 'renewal:EMAIL:en_US',
    TemplateCode: 'renewal',
    LanguageId: 'en_US',
    ContentType: 'TEXT',
    Parameters: { Premium: 120, Name: 'Ann <b>' },
  });
});

test.run();
