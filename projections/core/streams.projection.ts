import { parseStreamName } from '../../domain/core/stream-name.ts';
import type { Projection } from './projection.ts';

/**
 * The stream catalog: one document per aggregate stream (category, tenant, last revision and event,
 * first and last time). What `platform replay` and operators use to find the streams of a category or tenant.
 */
export type StreamSummary = {
  id: string;
  category: string;
  tenant: string;
  aggregateId: string;
  revision: number;
  events: number;
  lastType: string;
  lastPosition: string;
  firstAt: string;
  lastAt: string;
};

export const streamsProjection: Projection = {
  name: 'core.streams',
  version: 1,
  collections: {
    streams: {
      indexes: [
        { name: 'by_category_tenant', fields: { category: 1, tenant: 1 } },
        { name: 'by_last_at', fields: { lastAt: 1 } },
      ],
    },
  },
  async apply(events, store) {
    const streams = store.collection<StreamSummary>('streams');
    // fold the batch in memory first: one write per stream instead of one per event
    const touched = new Map<string, StreamSummary>();
    for (const e of events) {
      const name = parseStreamName(e.stream);
      // a stream's first event (revision 0) has no summary before it: a page applies once, in log order,
      // with its checkpoint, so there is nothing to read (a new stream per send or command, half the reads);
      // a parked one applied late (store.late) comes after the summary its later events wrote
      const prev = touched.get(e.stream) ?? (e.revision === 0 && !store.late ? null : await streams.get(e.stream));
      touched.set(e.stream, {
        id: e.stream,
        category: name?.category ?? e.stream,
        tenant: name?.tenant ?? '',
        aggregateId: name?.id ?? '',
        revision: e.revision,
        events: (prev?.events ?? 0) + 1,
        lastType: e.type,
        lastPosition: e.position,
        firstAt: prev?.firstAt ?? e.metadata.occurredAt,
        lastAt: e.metadata.occurredAt,
      });
    }
    for (const doc of touched.values()) await streams.upsert(doc);
  },
};
