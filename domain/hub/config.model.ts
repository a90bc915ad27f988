/**
 * The notification hub's configuration resources (spec "Communication hub: configuration resources"), in
 * the platform's PascalCase JSON convention. Each is an aggregate (one stream per resource; a definition's
 * stream holds every version of one NotificationCode and their delivery rules). Instants are ISO-8601 UTC.
 */

/** `CommHubChannel` codes: uppercase, 1–40 characters */
export const CHANNEL_CODE = /^[A-Z][A-Z0-9_]{0,39}$/;
/** ids the API names resources by (service ids, context ids, template and rule keys) */
export const RESOURCE_ID = /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/;
/** NotificationCode and TemplateCode */
export const CODE = /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/;
/** platform language ids: `en`, `en_US`, `zh-CN`, `pt_BR` (exact: no fallback between them) */
export const LANGUAGE_ID = /^[A-Za-z]{2,3}([_-][A-Za-z0-9]{2,8}){0,2}$/;
/** roles of recipients (`Customer`, `Agent`, `POLICY_HOLDER`) */
export const ROLE = /^[A-Za-z][A-Za-z0-9_-]{0,63}$/;
/** variable names (FEEL names: no dots, no spaces) */
export const VARIABLE_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/;

export type Policy = 'RESPECT' | 'BYPASS';
export const POLICIES: readonly Policy[] = ['RESPECT', 'BYPASS'];
export type Strategy = 'ALL' | 'FALLBACK';
export const STRATEGIES: readonly Strategy[] = ['ALL', 'FALLBACK'];
export type ReceiptMode = 'FINAL_RESULT' | 'ACCEPTANCE_ONLY';
export const RECEIPT_MODES: readonly ReceiptMode[] = ['FINAL_RESULT', 'ACCEPTANCE_ONLY'];
export type ContentType = 'TEXT' | 'HTML';
export const CONTENT_TYPES: readonly ContentType[] = ['TEXT', 'HTML'];
export type TemplateStatus = 'DRAFT' | 'ACTIVE' | 'RETIRED';
export const TEMPLATE_STATUSES: readonly TemplateStatus[] = ['DRAFT', 'ACTIVE', 'RETIRED'];
export type RecipientSource = 'CONTEXT' | 'REQUEST';
export type TemplateMode = 'HUB_MANAGED' | 'PROVIDER_MANAGED';
export type MaskMethod = 'FULL' | 'KEEP_EDGES' | 'EMAIL' | 'NAME' | 'REGEX';
export const MASK_METHODS: readonly MaskMethod[] = ['FULL', 'KEEP_EDGES', 'EMAIL', 'NAME', 'REGEX'];

/** MaxAttempts includes the first attempt (1: no automatic retry) */
export type RetryPolicy = {
  MaxAttempts: number;
  RetryInitialDelaySeconds: number;
  RetryBackoffMultiplier: number;
  RetryMaxDelaySeconds: number;
};

/** the spec leaves the defaults unshown; these are ours */
export const DEFAULT_RETRY_POLICY: RetryPolicy = {
  MaxAttempts: 3,
  RetryInitialDelaySeconds: 300,
  RetryBackoffMultiplier: 2,
  RetryMaxDelaySeconds: 3600,
};

/** a definition's policy defaults, or a rule's whole-policy overrides */
export type PolicySet = {
  PreferencePolicy?: Policy;
  FrequencyCapPolicy?: Policy;
  QuietHoursPolicy?: Policy;
  /** a rule's retry override replaces the whole retry policy */
  RetryPolicy?: RetryPolicy;
};

export type Channel = { Code: string; Description?: string; Enabled: boolean };

export type DeliveryService = {
  ServiceId: string;
  Name?: string;
  DriverType: string;
  /** when set, the service serves this channel only */
  Channel?: string;
  /** nonsecret driver settings (REST_WEBHOOK: rest-webhook.settings.ts) */
  Settings: Record<string, unknown>;
  ReceiptMode: ReceiptMode;
  /** FINAL_RESULT only; default 86400 */
  ReceiptTimeoutSeconds?: number;
};

export const DEFAULT_RECEIPT_TIMEOUT_SECONDS = 86_400;

export type Template = {
  /** `<TemplateCode>:<Channel>:<LanguageId>` */
  TemplateId: string;
  TemplateCode: string;
  Channel: string;
  LanguageId: string;
  ContentType: ContentType;
  Subject?: string;
  /** `${variable}` placeholders */
  Body: string;
  Status: TemplateStatus;
};

export const templateIdOf = (t: { TemplateCode: string; Channel: string; LanguageId: string }) =>
  `${t.TemplateCode}:${t.Channel}:${t.LanguageId}`;

export type SensitiveField = {
  /** a path into the payload (`$.customer.email`, `$.parties[*].name`), or as Variables write one (`Payload.customer.email`, `Context.<alias>[.path]`) */
  Path: string;
  Method: MaskMethod;
  /** REGEX: the constrained pattern whose matches are masked */
  Pattern?: string;
};

export type ContextDefinition = {
  ContextDefinitionId: string;
  Name?: string;
  /** alias → JSONPath of the payload (`holder` → `$.policy.holder`) */
  Contexts: Record<string, string>;
  /** name → `Context.<alias>[.path]` or `Payload.<path>` */
  Variables: Record<string, string>;
  SensitiveFields: SensitiveField[];
  /** a sample payload for previews */
  SamplePayload?: Record<string, unknown>;
};

export type Definition = PolicySet & {
  /** `<NotificationCode>:<Version>` */
  DefinitionId: string;
  NotificationCode: string;
  Version: number;
  /** [EffectiveTime, ExpiryTime); no ExpiryTime: open-ended */
  EffectiveTime: string;
  ExpiryTime?: string;
  /** only enabled versions are selectable; selectable versions of one code never overlap */
  Enabled: boolean;
  ContextDefinitionId?: string;
  DefaultLanguageId?: string;
  DeliveryStrategy: Strategy;
  RoleDeliveryStrategyOverrides: Record<string, Strategy>;
  /** TRANSACTIONAL, OPERATIONAL, MARKETING …: bypasses no control */
  NotificationClass: string;
  Description?: string;
};

export const definitionIdOf = (code: string, version: number) => `${code}:${version}`;

export type DeliveryRule = {
  /** `<DefinitionId>:<RuleKey>`: the rule is found from its id alone */
  RuleId: string;
  DefinitionId: string;
  Role: string;
  Channel: string;
  /** fallback order within the role (lower first) */
  OrderNo: number;
  RecipientSource: RecipientSource;
  /** variable holding the recipient identity (RecipientId), CONTEXT source */
  IdentityVariable?: string;
  /** variable holding the address, CONTEXT source */
  AddressVariable?: string;
  /** a FEEL expression over the extracted variables; absent: always */
  Condition?: string;
  TemplateCode: string;
  ServiceId: string;
  LanguageId?: string;
  PolicyOverrides?: PolicySet;
  TemplateMode: TemplateMode;
  Enabled: boolean;
};

export const ruleIdOf = (definitionId: string, key: string) => `${definitionId}:${key}`;

/** `<code>:<version>:<key>` → its parts; null when it is not a rule id */
export function parseRuleId(
  ruleId: string,
): { code: string; version: number; key: string; definitionId: string } | null {
  const m = /^([A-Za-z0-9][A-Za-z0-9_-]{0,63}):([1-9][0-9]{0,8}):([A-Za-z0-9][A-Za-z0-9_-]{0,63})$/.exec(ruleId);
  if (m === null) return null;
  return { code: m[1]!, version: Number(m[2]), key: m[3]!, definitionId: `${m[1]}:${m[2]}` };
}

/** `<code>:<version>` → its parts; null when it is not a definition id */
export function parseDefinitionId(definitionId: string): { code: string; version: number } | null {
  const m = /^([A-Za-z0-9][A-Za-z0-9_-]{0,63}):([1-9][0-9]{0,8})$/.exec(definitionId);
  return m === null ? null : { code: m[1]!, version: Number(m[2]) };
}
