import { api, call } from '../../api/client.ts';
import { isApiError } from '../../api/errors.ts';
import { targetTenant } from '../../api/target-tenant.ts';
import type { PageRequest, PageResult } from '../../ui/paging.ts';
import { ADMIN, type DeliveryStep } from './ops.shared.tsx';

/**
 * The trace search as the API offers it: an event id putEvent answered (64 hex digits) is one lookup; any
 * other id is the producer's own, which the API finds with its source; without an id, the bus's events by
 * time range of receipt, newest first, a page at a time through the API's cursor.
 */
export type TraceSearch = { eventId: string; source: string; type: string; from?: string; to?: string };

export type TraceItem = {
  eventId: string;
  tenant: string;
  bus: string;
  receipt: { receivedAt: string; source: string; type: string; subject?: string; id: string; time?: string };
  event: Record<string, unknown>;
  filtering: {
    routedAt: string;
    evaluated: string[];
    matched: Array<{
      ruleId: string;
      ruleTenant: string;
      platform: boolean;
      targets: Array<{
        targetId: number;
        typeId: number;
        conversion: { ok: boolean; missing: string[]; error?: string };
      }>;
    }>;
    skipped: Array<{ ruleId: string; ruleTenant: string; platform: boolean; reason: string }>;
    applied: string;
  } | null;
  delivery: DeliveryStep[];
  notes?: Array<{ at: string; kind: string; fields: string[] }>;
};

export const EVENT_KEY = /^[0-9a-f]{64}$/;

/** one trace by the id putEvent answered; null when there is none */
export async function traceById(eventId: string, signal?: AbortSignal): Promise<TraceItem | null> {
  try {
    const t = await call(api.bridge.GET(`${ADMIN}/trace/events/{eventId}`, { params: { path: { eventId } }, signal }));
    return t as unknown as TraceItem;
  } catch (err) {
    if (isApiError(err) && err.code === 'TRACE.NOT_FOUND') return null;
    throw err;
  }
}

/**
 * Each search's cursors by the offset of the page they start. Kept apart from any one fetcher: the table's
 * query cache may answer a page without calling the fetcher, and the next page still needs its cursor.
 */
const cursorsOf = new Map<string, Map<number, string>>();

/**
 * A page fetcher for <PagedTable>: the table pages by offset, the API by cursor, so each page's cursor
 * is kept by the offset it starts at (the table only steps forward and back).
 */
export function traceFetcher(bus: string, search: TraceSearch) {
  const key = JSON.stringify([targetTenant() ?? null, bus, search]);
  const cursors = cursorsOf.get(key) ?? new Map<number, string>();
  cursorsOf.set(key, cursors);
  return async ({ offset, limit }: PageRequest, signal: AbortSignal): Promise<PageResult<TraceItem>> => {
    if (EVENT_KEY.test(search.eventId)) {
      const one = await traceById(search.eventId, signal);
      return { items: one === null ? [] : [one], hasMore: false };
    }
    const cursor = cursors.get(offset);
    const page = await call(
      api.bridge.GET(`${ADMIN}/trace/events`, {
        params: {
          query: {
            bus,
            limit,
            ...(search.eventId !== '' && { id: search.eventId }),
            ...(search.source !== '' && { source: search.source }),
            ...(search.type !== '' && { type: search.type }),
            ...(search.from !== undefined && { from: search.from }),
            ...(search.to !== undefined && { to: search.to }),
            ...(cursor !== undefined && { cursor }),
          },
        },
        signal,
      }),
    );
    const next = page.next ?? null;
    if (next !== null) cursors.set(offset + limit, next);
    else cursors.delete(offset + limit);
    return { items: (page.items ?? []) as unknown as TraceItem[], hasMore: next !== null };
  };
}
