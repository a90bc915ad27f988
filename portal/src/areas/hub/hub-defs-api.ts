import type { QueryClient, QueryKey } from '@tanstack/react-query';
import { api, call } from '../../api/client.ts';
import type { Span } from '../../ui/json-locate.ts';

/**
 * The hub's context definitions, definition versions, delivery rules and snapshots as the portal reads
 * them: the OpenAPI document declares no answer schema for the hub's reads, so their shapes are written
 * here (domain/hub/config.model.ts and snapshot.ts are the server's).
 */
export type MaskMethod = 'FULL' | 'KEEP_EDGES' | 'EMAIL' | 'NAME' | 'REGEX';
export const MASK_METHODS: readonly MaskMethod[] = ['FULL', 'KEEP_EDGES', 'EMAIL', 'NAME', 'REGEX'];
export type Policy = 'RESPECT' | 'BYPASS';
export type RetryPolicy = {
  MaxAttempts: number;
  RetryInitialDelaySeconds: number;
  RetryBackoffMultiplier: number;
  RetryMaxDelaySeconds: number;
};

export type SensitiveField = { Path: string; Method: MaskMethod; Pattern?: string };
export type ContextDefinition = {
  ContextDefinitionId: string;
  Name?: string;
  Contexts: Record<string, string>;
  Variables: Record<string, string>;
  SensitiveFields: SensitiveField[];
  SamplePayload?: Record<string, unknown>;
  UpdatedAt?: string;
};

export type Definition = {
  DefinitionId: string;
  NotificationCode: string;
  Version: number;
  EffectiveTime: string;
  ExpiryTime?: string;
  Enabled: boolean;
  ContextDefinitionId?: string;
  DefaultLanguageId?: string;
  DeliveryStrategy: 'ALL' | 'FALLBACK';
  RoleDeliveryStrategyOverrides: Record<string, 'ALL' | 'FALLBACK'>;
  NotificationClass: string;
  Description?: string;
  PreferencePolicy?: Policy;
  FrequencyCapPolicy?: Policy;
  QuietHoursPolicy?: Policy;
  RetryPolicy?: RetryPolicy;
};

export type DeliveryRule = {
  RuleId: string;
  DefinitionId: string;
  Role: string;
  Channel: string;
  OrderNo: number;
  RecipientSource: 'CONTEXT' | 'REQUEST';
  IdentityVariable?: string;
  AddressVariable?: string;
  Condition?: string;
  TemplateCode: string;
  ServiceId: string;
  LanguageId?: string;
  PolicyOverrides?: { PreferencePolicy?: Policy; FrequencyCapPolicy?: Policy; QuietHoursPolicy?: Policy };
  TemplateMode: 'HUB_MANAGED' | 'PROVIDER_MANAGED';
  Enabled: boolean;
};

export type SnapshotSummary = {
  SnapshotId: string;
  DefinitionId: string;
  NotificationCode: string;
  Version: number;
  CapturedAt: string;
};
export type Snapshot = SnapshotSummary & {
  Content: {
    Definition: Definition;
    ContextDefinition?: ContextDefinition;
    Rules: DeliveryRule[];
    Templates: Array<{
      TemplateId: string;
      ContentType: string;
      Status: string;
      Subject?: string;
      Body: string;
    }>;
    Services: Array<{
      ServiceId: string;
      Name?: string;
      DriverType: string;
      Channel?: string;
      ReceiptMode: string;
      ReceiptTimeoutSeconds?: number;
      Settings: Record<string, unknown>;
    }>;
    Channels: Array<{ Code: string; Enabled: boolean; Description?: string }>;
  };
};
export type SnapshotUse = {
  SnapshotId: string;
  NotificationId: string;
  RequestId: string;
  NotificationCode: string;
  AcceptedAt: string;
};

export type ExtractionPreview = {
  Variables: Record<string, unknown>;
  Sources: Record<string, string>;
  MaskedVariables: string[];
  MaskedPayload: Record<string, unknown>;
  Diagnostics: string[];
};

export type RulePreview = {
  ConditionValid: boolean;
  ConditionMatched: boolean;
  Recipient?: { RecipientId?: string; Address?: string };
  Template: { TemplateId?: string; LanguageId?: string; Status?: string; Available: boolean };
  EffectivePolicies: Record<string, { Value: unknown; Source: 'RULE' | 'DEFINITION' | 'DEFAULT' }>;
  Outcome: { State: string; Reason?: string };
  Violations: Array<{ field: string; message: string }>;
  Diagnostics: string[];
  RuntimeGuardsEvaluated: false;
};

/** the hub's paged answer (pageNo from 1) */
export type HubPage<T> = { Items: T[]; Total: number; PageNo: number; PageSize: number };

/** the largest page the hub answers */
export const MAX_PAGE_SIZE = 200;

/** an answer the document leaves untyped, as the shape above */
export const typed = <T>(pending: Promise<unknown>): Promise<T> => pending as Promise<T>;

/** every definition version of the tenant (pages of 200 until the total) */
export async function allDefinitions(signal?: AbortSignal): Promise<Definition[]> {
  const out: Definition[] = [];
  for (let pageNo = 1; ; pageNo++) {
    const page = await typed<HubPage<Definition>>(
      call(api.hub.GET('/comm/v1/definitions', { params: { query: { pageNo, pageSize: MAX_PAGE_SIZE } }, signal })),
    );
    out.push(...page.Items);
    if (page.Items.length === 0 || out.length >= page.Total) return out;
  }
}

/** the rules of one version (every page) */
export async function rulesOf(definitionId: string, signal?: AbortSignal): Promise<DeliveryRule[]> {
  const out: DeliveryRule[] = [];
  for (let pageNo = 1; ; pageNo++) {
    const page = await typed<HubPage<DeliveryRule>>(
      call(
        api.hub.GET('/comm/v1/delivery-rules', {
          params: { query: { definitionId, pageNo, pageSize: MAX_PAGE_SIZE } },
          signal,
        }),
      ),
    );
    out.push(...page.Items);
    if (page.Items.length === 0 || out.length >= page.Total) return out;
  }
}

/**
 * The hub's lists come from a read model that catches up a moment after a write: the cached list is
 * changed at once from the write's own answer, and asked again a little later.
 */
export function updateCached<T>(queryClient: QueryClient, queryKey: QueryKey, update: (items: T[]) => T[]): void {
  queryClient.setQueriesData<T[]>({ queryKey }, (old) => (old === undefined ? old : update(old)));
  setTimeout(() => void queryClient.invalidateQueries({ queryKey }), 1500);
}

/** JSON typed by a person: its value, or where and why it does not parse */
export type JsonText = { ok: true; value: unknown } | { ok: false; message: string; span: Span };
export function parseJson(text: string): JsonText {
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch (e) {
    const message = e instanceof Error ? e.message : String(e);
    const at = /position (\d+)/.exec(message);
    const from = at === null ? Math.max(0, text.length - 1) : Number(at[1]);
    return { ok: false, message, span: { from, to: Math.min(text.length, from + 1) } };
  }
}
export const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);
export const pretty = (v: unknown): string => JSON.stringify(v, null, 2);

/** a value for display: strings as they are, anything else as JSON */
export const shown = (v: unknown): string => (typeof v === 'string' ? v : v === undefined ? '' : JSON.stringify(v));

/** an instant in the browser's locale with its date and time (the API keeps ISO instants) */
export const when = (iso: string | undefined): string => {
  if (iso === undefined) return '';
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : d.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
};
