import { pageSizeSchema } from '../core/paging.ts';
import type { JsonSchema } from '../core/validate.ts';

/**
 * Request and response schemas of the hub's routes (ajv validates requests with them; the same schemas
 * make the `connecthub` OpenAPI document). Shapes only: codes, paths, FEEL and cross-field rules are the
 * domain's (domain/hub/config.validate.ts, send-request.ts), answered with the resource's own 400 code.
 */
const str = (maxLength: number, extra: JsonSchema = {}): JsonSchema => ({ type: 'string', maxLength, ...extra });
const policy: JsonSchema = { type: 'string', enum: ['RESPECT', 'BYPASS'] };
const strategy: JsonSchema = { type: 'string', enum: ['ALL', 'FALLBACK'] };

export const retryPolicySchema: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['MaxAttempts', 'RetryInitialDelaySeconds', 'RetryBackoffMultiplier', 'RetryMaxDelaySeconds'],
  properties: {
    MaxAttempts: { type: 'integer', description: 'includes the first attempt; 1 disables automatic retry', example: 3 },
    RetryInitialDelaySeconds: { type: 'integer', example: 300 },
    RetryBackoffMultiplier: { type: 'number', example: 2 },
    RetryMaxDelaySeconds: { type: 'integer', example: 3600 },
  },
};

const policies = {
  PreferencePolicy: policy,
  FrequencyCapPolicy: policy,
  QuietHoursPolicy: policy,
  RetryPolicy: retryPolicySchema,
};

export const channelBody: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['Code'],
  properties: {
    Code: str(40, { example: 'EMAIL' }),
    Description: str(1000),
    Enabled: { type: 'boolean', default: true },
  },
};
export const channelUpdateBody: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  properties: { Description: str(1000), Enabled: { type: 'boolean', default: true } },
};

export const serviceBody: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['ServiceId', 'DriverType', 'Settings', 'ReceiptMode'],
  properties: {
    ServiceId: str(64, { example: 'mail-receiver' }),
    Name: str(200),
    DriverType: str(64, { example: 'REST_WEBHOOK' }),
    Channel: str(40),
    Settings: {
      type: 'object',
      description:
        'nonsecret driver settings (REST_WEBHOOK: Url, ConnectTimeoutMs, ReadTimeoutMs, SupportedChannels, SupportedContentTypes, SupportsAttachments)',
    },
    ReceiptMode: { type: 'string', enum: ['FINAL_RESULT', 'ACCEPTANCE_ONLY'] },
    ReceiptTimeoutSeconds: { type: 'integer', description: 'FINAL_RESULT only; default 86400' },
  },
};
export const serviceUpdateBody: JsonSchema = { ...serviceBody, required: ['DriverType', 'Settings', 'ReceiptMode'] };
export const validateSettingsBody: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['DriverType', 'Settings'],
  properties: { DriverType: str(64), Channel: str(40), Settings: { type: 'object' } },
};
export const rotateBody: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  properties: { OverlapSeconds: { type: 'integer', minimum: 0, maximum: 30 * 86_400, default: 86_400 } },
};

export const templateBody: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['TemplateCode', 'Channel', 'LanguageId', 'ContentType', 'Body'],
  properties: {
    TemplateCode: str(64, { example: 'policy-confirmation' }),
    Channel: str(40, { example: 'EMAIL' }),
    LanguageId: str(32, { example: 'en_US' }),
    ContentType: { type: 'string', enum: ['TEXT', 'HTML'] },
    Subject: str(1000),
    Body: str(65_536, { description: 'text with ${variable} placeholders' }),
    Status: { type: 'string', enum: ['DRAFT', 'ACTIVE', 'RETIRED'], default: 'DRAFT' },
  },
};
export const templateUpdateBody: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['ContentType', 'Body'],
  properties: {
    ContentType: templateBody.properties.ContentType,
    Subject: str(1000),
    Body: str(65_536),
    Status: { type: 'string', enum: ['DRAFT', 'ACTIVE', 'RETIRED'], default: 'DRAFT' },
  },
};

const sensitiveField: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['Path', 'Method'],
  properties: {
    Path: str(512, {
      example: '$.customer.email',
      description: 'a JSONPath of the payload ($.a.b), or as Variables write one (Payload.a.b, Context.<alias>[.path])',
    }),
    Method: { type: 'string', enum: ['FULL', 'KEEP_EDGES', 'EMAIL', 'NAME', 'REGEX'] },
    Pattern: str(200),
  },
};
const contextProperties = {
  Name: str(200),
  Contexts: {
    type: 'object',
    additionalProperties: { type: 'string', maxLength: 512 },
    default: {},
    description: 'alias → JSONPath of the payload',
  },
  Variables: {
    type: 'object',
    additionalProperties: { type: 'string', maxLength: 512 },
    default: {},
    description: 'name → Context.<alias>[.path] or Payload.<path>',
  },
  SensitiveFields: { type: 'array', items: sensitiveField, default: [] },
  SamplePayload: { type: 'object' },
};
export const contextBody: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['ContextDefinitionId'],
  properties: { ContextDefinitionId: str(64), ...contextProperties },
};
export const contextUpdateBody: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  properties: contextProperties,
};

const definitionProperties = {
  EffectiveTime: str(40, {
    description: 'ISO local (tenant time zone) or offset date-time',
    example: '2026-01-01T00:00:00',
  }),
  ExpiryTime: str(40),
  Enabled: { type: 'boolean', default: true },
  ContextDefinitionId: str(64),
  DefaultLanguageId: str(32),
  DeliveryStrategy: { ...strategy, default: 'ALL' },
  RoleDeliveryStrategyOverrides: { type: 'object', additionalProperties: strategy, default: {} },
  NotificationClass: str(40, { default: 'TRANSACTIONAL' }),
  Description: str(1000),
  ...policies,
};
export const definitionBody: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['NotificationCode', 'EffectiveTime'],
  properties: {
    NotificationCode: str(64, { example: 'policy-confirmation' }),
    Version: { type: 'integer', minimum: 1, description: 'default: the next number' },
    ...definitionProperties,
  },
};
export const definitionUpdateBody: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['EffectiveTime'],
  properties: definitionProperties,
};

const ruleProperties = {
  Role: str(64, { example: 'PolicyHolder' }),
  Channel: str(40, { example: 'EMAIL' }),
  OrderNo: { type: 'integer', default: 0 },
  RecipientSource: { type: 'string', enum: ['CONTEXT', 'REQUEST'] },
  IdentityVariable: str(64),
  AddressVariable: str(64),
  Condition: str(4096, { description: 'FEEL expression over the extracted variables', example: 'Premium > 1000' }),
  TemplateCode: str(64),
  ServiceId: str(64),
  LanguageId: str(32),
  PolicyOverrides: { type: 'object', additionalProperties: false, properties: policies },
  TemplateMode: { type: 'string', enum: ['HUB_MANAGED', 'PROVIDER_MANAGED'], default: 'HUB_MANAGED' },
  Enabled: { type: 'boolean', default: true },
};
export const ruleBody: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['DefinitionId', 'Role', 'Channel', 'RecipientSource', 'TemplateCode', 'ServiceId'],
  properties: {
    DefinitionId: str(80),
    RuleKey: str(64, { description: 'default: derived from the Idempotency-Key (or random)' }),
    ...ruleProperties,
  },
};
export const ruleUpdateBody: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['Role', 'Channel', 'RecipientSource', 'TemplateCode', 'ServiceId'],
  properties: ruleProperties,
};

export const sendBody: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['RequestId', 'NotificationCode'],
  properties: {
    RequestId: str(64, { description: 'tenant-local idempotency key', example: 'order-4711-confirmation' }),
    NotificationCode: str(64, { example: 'policy-confirmation' }),
    Payload: {
      anyOf: [{ type: 'object' }, { type: 'null' }],
      description: 'business JSON, at most 64 KiB serialized; null or omitted: {}',
    },
    LanguageId: str(32),
    SenderApp: str(128),
    RefType: str(128),
    RefNumber: str(256),
    SendAt: str(40, { description: 'ISO local (tenant time zone) or offset date-time' }),
    ExpiresAt: str(40),
    Recipients: {
      type: 'array',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['Role', 'Channel'],
        properties: { Role: str(64), Channel: str(40), RecipientId: str(128), Address: str(1024) },
      },
    },
    Attachments: {
      type: 'array',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['DocId'],
        properties: {
          DocId: str(256),
          DeliveryMode: str(64, { example: 'SECURE_LINK' }),
          ExpireDays: { type: 'integer', minimum: 0, maximum: 3650 },
          RoleFilter: { anyOf: [str(64), { type: 'array', items: str(64), maxItems: 20 }] },
        },
      },
    },
    OriginalNotificationId: str(64),
    PreferenceExempt: { description: 'ignored: the effective PreferencePolicy decides' },
    LANGUAGE_ID: { description: 'replaced by LanguageId (refused)' },
  },
};

export const acknowledgementSchema: JsonSchema = {
  type: 'object',
  required: ['NotificationId', 'RequestId', 'SnapshotId', 'AcceptedAt', 'Messages'],
  properties: {
    NotificationId: { type: 'string', description: 'derived from the tenant and RequestId' },
    RequestId: { type: 'string' },
    SnapshotId: { type: 'string' },
    AcceptedAt: { type: 'string', description: 'ISO instant' },
    Messages: {
      type: 'array',
      items: {
        type: 'object',
        required: ['MessageId', 'Role', 'Channel', 'State'],
        properties: {
          MessageId: { type: 'string' },
          Role: { type: 'string' },
          Channel: { type: 'string' },
          State: { type: 'string', enum: ['PLANNED', 'WAITING', 'SCHEDULED', 'SUPPRESSED', 'FAILED'] },
          Reason: {
            type: 'string',
            description:
              'SUPPRESSED and FAILED: why the message is not sendable (CONDITION_NOT_MATCHED, RECIPIENT_MISSING, TEMPLATE_NOT_AVAILABLE …)',
          },
        },
      },
    },
  },
};

export const receiptBody: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['Status'],
  properties: {
    Status: { type: 'string', enum: ['ACCEPTED', 'DELIVERED', 'FAILED'] },
    ProviderRef: str(256),
    Retryable: { type: 'boolean', description: 'FAILED: the hub may retry automatically' },
  },
};
export const callbackHeaders: JsonSchema = {
  type: 'object',
  required: ['x-comm-callback-id'],
  properties: { 'x-comm-callback-id': str(200, { description: 'the CallbackId of the outbound request' }) },
};

export const pageQuery = (extra: Record<string, JsonSchema> = {}, required: string[] = []): JsonSchema => ({
  type: 'object',
  additionalProperties: false,
  required,
  properties: { ...extra, pageNo: { type: 'integer', minimum: 1, default: 1 }, pageSize: pageSizeSchema() },
});

export const pageOf = (item: JsonSchema): JsonSchema => ({
  type: 'object',
  properties: {
    Items: { type: 'array', items: item },
    Total: { type: 'integer' },
    PageNo: { type: 'integer' },
    PageSize: { type: 'integer' },
  },
});
