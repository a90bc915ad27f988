import type { Router } from 'express';
import { coreError } from '../../domain/core/core.errors.ts';
import { categoryOf } from '../../domain/core/stream-name.ts';
import { opsError } from '../../domain/operations/operations.errors.ts';
import type { RouteRegistry } from '../core/route-registry.ts';
import { STREAM_STATE, TIMELINE } from './operations.paths.ts';
import type { TimelineBackend, TimelineSelection } from './timeline.ports.ts';
import { stateQuery, streamParams, streamState, timelinePage, timelineQuery } from './timeline.schemas.ts';

type TimelineQuery = {
  correlation?: string;
  stream?: string;
  from?: string;
  to?: string;
  category?: string;
  limit: number;
  offset: number;
};

/** the query's one selection, as `platform replay` takes it (one of three; a category only with a window) */
export function selectionOf(q: TimelineQuery): TimelineSelection {
  const given = [q.correlation, q.stream, q.from ?? q.to].filter((v) => v !== undefined).length;
  if (given !== 1)
    throw invalid('give one of correlation, stream, or from and to', ['correlation', 'stream', 'from', 'to']);
  if (q.correlation !== undefined) return noCategory(q, { kind: 'correlation', correlationId: q.correlation });
  if (q.stream !== undefined) return noCategory(q, { kind: 'stream', stream: q.stream });
  if (q.from === undefined || q.to === undefined) throw invalid('a time window needs both from and to', ['from', 'to']);
  const from = new Date(q.from).toISOString();
  const to = new Date(q.to).toISOString();
  if (from > to) throw invalid('from is after to', ['from', 'to']);
  return { kind: 'window', from, to, ...(q.category !== undefined && { category: q.category }) };
}

/** 400 with a problem per field, so a form marks them */
const invalid = (message: string, fields: string[]) =>
  coreError(
    'REQUEST.INVALID',
    message,
    fields.map((field) => ({ field, message })),
  );

const noCategory = (q: TimelineQuery, s: TimelineSelection): TimelineSelection => {
  if (q.category !== undefined) throw invalid('category narrows a time window only', ['category']);
  return s;
};

/**
 * The incident view's routes on the operations router (behind its ops:admin and operator-tenant checks):
 *
 *   GET /ops/v1/timeline?correlation=C | stream=S | from=T&to=T[&category=X]   the events, oldest first, paged
 *   GET /ops/v1/streams/{stream}/state?revision=N                              the aggregate's state after N
 */
export function registerTimelineRoutes(router: Router, registry: RouteRegistry, backend: TimelineBackend): void {
  registry.route(
    router,
    {
      method: 'get',
      path: TIMELINE,
      summary: 'the events of an incident across the services, as `platform replay` shows them (secrets sealed)',
      schemas: { query: timelineQuery, response: timelinePage },
      tags: ['incident'],
    },
    async (req, res) => {
      const q = req.query as unknown as TimelineQuery;
      const page = await backend.timeline(selectionOf(q), { offset: q.offset, limit: q.limit });
      res.json({ ...page, limit: q.limit, offset: q.offset });
    },
  );

  registry.route(
    router,
    {
      method: 'get',
      path: STREAM_STATE,
      summary: "an aggregate's state after one revision of its stream, as `platform replay --state` (secrets sealed)",
      schemas: { params: streamParams, query: stateQuery, response: streamState },
      tags: ['incident'],
    },
    async (req, res) => {
      const { stream } = req.params as { stream: string };
      const { revision } = req.query as unknown as { revision: number };
      const category = categoryOf(stream);
      if (!backend.folds(category))
        throw opsError('STREAM.NO_STATE', `no decider folds streams of category "${category}"`, { stream, category });
      const state = await backend.stateAfter(stream, revision);
      if (state === undefined)
        throw opsError('STREAM.REVISION_NOT_FOUND', `${stream} has no event at revision ${revision}`, {
          stream,
          revision,
        });
      res.json(state);
    },
  );
}
