import { useEffect, useState } from 'react';
import { api, call } from '../../api/client.ts';

/**
 * The hub's configuration resources as the setup pages (channels, delivery services, templates) read
 * them: docs/hub.md "Endpoints"; the OpenAPI document leaves the answers' metadata open, so the shapes
 * are named here once.
 */
type Meta = { Revision: number; CreatedAt: string; UpdatedAt: string };

export type Channel = Meta & { Code: string; Description?: string; Enabled: boolean };

export type ReceiptMode = 'FINAL_RESULT' | 'ACCEPTANCE_ONLY';
export type DeliveryService = Meta & {
  ServiceId: string;
  Name?: string;
  DriverType: string;
  Channel?: string;
  Settings: Record<string, unknown>;
  ReceiptMode: ReceiptMode;
  ReceiptTimeoutSeconds?: number;
};

export type ContentType = 'TEXT' | 'HTML';
export type TemplateStatus = 'DRAFT' | 'ACTIVE' | 'RETIRED';
export type Template = Meta & {
  TemplateId: string;
  TemplateCode: string;
  Channel: string;
  LanguageId: string;
  ContentType: ContentType;
  Subject?: string;
  Body: string;
  Status: TemplateStatus;
};

export type ContentPreview = {
  Valid: boolean;
  Subject?: string;
  BodyText?: string;
  BodyHtml?: string;
  LanguageId?: string;
  Diagnostics?: string[];
};

export type ContextDefinitionSummary = { ContextDefinitionId: string; Name?: string; SamplePayload?: unknown };

type HubPage<T> = { Items: T[]; Total: number };

/** the hub's pageNo/pageSize paging from the table's offset/limit */
export const hubPaging = (offset: number, limit: number) => ({
  pageNo: limit > 0 ? Math.floor(offset / limit) + 1 : 1,
  pageSize: limit > 0 ? limit : 200,
});

export const SETUP_KEY = ['hub', 'setup'] as const;

/** what a signing secret shown once says about itself */
export const SIGNING_NOTE =
  'Receivers verify the webhook-signature header with it (Standard Webhooks). The platform keeps it sealed and never answers it again; a lost secret is replaced by rotating it.';

/** the tenant's channel codes (the selects of services and templates offer them) */
export async function allChannels(signal?: AbortSignal): Promise<Channel[]> {
  const page = (await call(
    api.hub.GET('/comm/v1/channels', { params: { query: { pageNo: 1, pageSize: 200 } }, signal }),
  )) as unknown as HubPage<Channel>;
  return page.Items;
}

/** the tenant's context definitions (a template's preview renders through one) */
export async function allContexts(signal?: AbortSignal): Promise<ContextDefinitionSummary[]> {
  const page = (await call(
    api.hub.GET('/comm/v1/context-definitions', { params: { query: { pageNo: 1, pageSize: 200 } }, signal }),
  )) as unknown as HubPage<ContextDefinitionSummary>;
  return page.Items;
}

/** a value once it has stopped changing for `ms`: what the as-you-type checks send */
export function useSettled<T>(value: T, ms = 350): T {
  const [settled, setSettled] = useState(value);
  const key = JSON.stringify(value);
  // biome-ignore lint/correctness/useExhaustiveDependencies: the value is compared by its JSON (a fresh object each render)
  useEffect(() => {
    const t = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(t);
  }, [key, ms]);
  return settled;
}

/** a time as the platform stores it, shortened to the minute and marked UTC */
export const at = (iso: string | undefined) => (iso === undefined ? '' : `${iso.slice(0, 16).replace('T', ' ')} UTC`);

/**
 * Lists come from the hub's read model, which follows a write by a moment: after a write, ask again
 * (a few times, briefly) until the list shows it, so the table the user looks at next is not stale.
 */
export async function untilListed(check: () => Promise<boolean>, tries = 20): Promise<void> {
  for (let i = 0; i < tries; i++) {
    if (await check().catch(() => false)) return;
    await new Promise((r) => setTimeout(r, 150));
  }
}
