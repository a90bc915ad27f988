import { coreError } from '../../domain/core/core.errors.ts';
import type { Filter, ReadStore } from '../../infra/core/read-store.port.ts';
import { readModel } from '../core/read-model.ts';
import { TRACE_COLLECTION, TRACE_PROJECTION, type TraceDoc } from './trace.projection.ts';

/**
 * Trace queries, always within one tenant (the events it published):
 * - by event id: the key putEvent answered, or the producer's (source, id), optionally on one bus;
 * - by time range (receivedAt, `from` inclusive, `to` exclusive) with optional bus, source and type
 *   filters, newest first, paged by an opaque cursor (`next` of the previous page).
 */
export type TraceListQuery = {
  tenant: string;
  from?: string;
  to?: string;
  bus?: string;
  source?: string;
  type?: string;
  limit: number;
  cursor?: string;
};

export type TracePage = { items: TraceDoc[]; next: string | null };

type Cursor = { r: string; i: string };

const encodeCursor = (doc: TraceDoc): string =>
  Buffer.from(JSON.stringify({ r: doc.receivedAt, i: doc.id } satisfies Cursor)).toString('base64url');

function decodeCursor(cursor: string): Cursor {
  try {
    const c = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as Partial<Cursor>;
    if (typeof c.r === 'string' && typeof c.i === 'string') return { r: c.r, i: c.i };
  } catch {
    // falls through to the 400
  }
  throw coreError('REQUEST.INVALID', 'cursor is not one this API answered', [
    { in: 'query', field: 'cursor', message: 'is not a valid cursor' },
  ]);
}

export function createTraceQueries(readStore: ReadStore) {
  const traces = readModel<TraceDoc>(readStore, TRACE_PROJECTION, TRACE_COLLECTION);
  return {
    async byEventId(tenant: string, eventId: string): Promise<TraceDoc | null> {
      const doc = await traces.get(eventId);
      return doc !== null && doc.tenant === tenant ? doc : null;
    },

    /** the producer's id: one per bus the tenant sent it to, newest first */
    async bySourceId(tenant: string, source: string, id: string, bus?: string): Promise<TraceDoc[]> {
      return traces.find(
        { source, sourceEventId: id, tenant, ...(bus !== undefined && { bus }) },
        { sort: { receivedAt: -1 } },
      );
    },

    async list(q: TraceListQuery): Promise<TracePage> {
      const and: Filter[] = [{ tenant: q.tenant }];
      if (q.bus !== undefined) and.push({ bus: q.bus });
      if (q.source !== undefined) and.push({ source: q.source });
      if (q.type !== undefined) and.push({ type: q.type });
      if (q.from !== undefined) and.push({ receivedAt: { $gte: q.from } });
      if (q.to !== undefined) and.push({ receivedAt: { $lt: q.to } });
      if (q.cursor !== undefined) {
        const c = decodeCursor(q.cursor);
        and.push({ $or: [{ receivedAt: { $lt: c.r } }, { receivedAt: c.r, id: { $lt: c.i } }] });
      }
      // one more than asked: whether a next page exists without a count
      const found = await traces.find({ $and: and }, { sort: { receivedAt: -1, id: -1 }, limit: q.limit + 1 });
      const items = found.slice(0, q.limit);
      const last = items[items.length - 1];
      return { items, next: found.length > q.limit && last !== undefined ? encodeCursor(last) : null };
    },
  };
}

export type TraceQueries = ReturnType<typeof createTraceQueries>;
