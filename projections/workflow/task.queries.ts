import { INSTANCE_CATEGORY } from '../../domain/workflow/engine/instance.events.ts';
import { DEFAULT_INDEX, type FieldType } from '../../domain/workflow/index-schema.decider.ts';
import { localDateTime, parseDateTime } from '../../domain/workflow/time/iso8601.ts';
import { workflowError } from '../../domain/workflow/workflow.errors.ts';
import type { EventStore } from '../../infra/core/event-store.port.ts';
import type { Filter, ReadStore, Sort } from '../../infra/core/read-store.port.ts';
import { readModel } from '../core/read-model.ts';
import { createCatchUp } from './read-your-writes.ts';
import { fieldTypes, hasTwin, orderedText, type SearchDoc, twinOf } from './search-doc.ts';
import { OPEN_STATUSES, type TaskDoc } from './task-doc.ts';
import { defaultIndexState, type IndexState, TASKS_PROJECTION } from './tasks.projection.ts';
import { searchPartition, tenantPartition } from './workflow-partitions.ts';

/** the spec's search condition */
export type SearchRequest = {
  Module?: string;
  Conditions?: Record<string, unknown>;
  FuzzyConditions?: Record<string, unknown>;
  FromRangeConditions?: Record<string, unknown>;
  ToRangeConditions?: Record<string, unknown>;
  PageNo?: number;
  PageSize?: number;
  SortField?: string;
  SortType?: 'asc' | 'desc' | 'ASC' | 'DESC';
  GroupField?: string;
};
export type SearchGroup = {
  groupValue: unknown;
  groupTotalNum: number;
  esDocs: Record<string, unknown>[];
  innerDocs: Record<string, unknown>[];
};
export type SearchResult = {
  pageNo: number;
  pageSize: number;
  total: number;
  groupField: string | null;
  maxPageCount: number;
  results: SearchGroup[];
};

/** documents a group lists besides its first (innerDocs) */
export const INNER_DOCS = 20;
/** the `_all` pseudo-field of fuzzy conditions: every INCLUDE_ALL field */
export const ALL_FIELD = '_all';

const escapeRegex = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const bad = (message: string, field?: string) =>
  workflowError('SEARCH.INVALID', message, field === undefined ? {} : { field });

function coerceCondition(field: string, type: FieldType, v: unknown): unknown {
  if (Array.isArray(v)) return v.map((x) => coerceCondition(field, type, x));
  switch (type) {
    case 'string':
      if (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') return String(v);
      throw bad(`${field}: a string is expected`, field);
    case 'number': {
      const n = typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' ? Number(v) : NaN;
      if (!Number.isFinite(n)) throw bad(`${field}: a number is expected`, field);
      return n;
    }
    case 'boolean':
      if (typeof v === 'boolean') return v;
      if (v === 'true' || v === 'false') return v === 'true';
      throw bad(`${field}: true or false is expected`, field);
    case 'date': {
      const at = typeof v === 'string' ? parseDateTime(v) : null;
      if (at === null) throw bad(`${field}: an ISO 8601 date or date-time is expected`, field);
      return localDateTime(at);
    }
  }
}

/** an esDoc as answered: without the `_all` text and the text twins */
const withoutAll = ({ _all: _a, ...doc }: SearchDoc) =>
  Object.fromEntries(Object.entries(doc).filter(([k]) => !k.endsWith('__k')));

/** fields every task document holds (text): a sort on one may assert it, and the read store then walks an index in that order */
const ALWAYS_TEXT = new Set([
  'CreatedDate',
  'TaskId',
  'Status',
  'TaskDefinitionKey',
  'ProcessDefinitionId',
  'ProcessInstanceId',
  'ProcessDefinitionVersion',
  'Priority',
  'WorkflowBusinessKey',
  'SaveTime',
]);

/**
 * Task queries: by business key (the `tasks` documents, after the projection caught up with the log: read
 * your writes) and the search over a tenant's index (the index's live generation; the spec: "the search
 * index has latency", so no wait).
 */
export function createTaskQueries(o: { readStore: ReadStore; eventStore: EventStore; catchUpTimeoutMs?: number }) {
  const { readStore } = o;
  const caughtUp = createCatchUp({
    eventStore: o.eventStore,
    readStore,
    projection: TASKS_PROJECTION,
    filter: { categories: [INSTANCE_CATEGORY] },
    ...(o.catchUpTimeoutMs !== undefined && { timeoutMs: o.catchUpTimeoutMs }),
  });
  const tasks = (tenant: string) => readModel<TaskDoc>(readStore, TASKS_PROJECTION, 'tasks', tenantPartition(tenant));
  const indexes = (tenant: string) =>
    readModel<IndexState>(readStore, TASKS_PROJECTION, 'indexes', tenantPartition(tenant));

  return {
    caughtUp,

    /** the tasks of a business key's instances of a process key (its called processes' instances share the business key) */
    async byBusinessKey(
      tenant: string,
      processKey: string,
      businessKey: string,
      o2: { includeClosed?: boolean } = {},
    ): Promise<TaskDoc[]> {
      await caughtUp();
      const filter: Filter = {
        businessKey,
        processKey,
        ...(o2.includeClosed ? {} : { status: { $in: OPEN_STATUSES } }),
      };
      return tasks(tenant).find(filter, { sort: { createdAt: 1 } });
    },

    async index(tenant: string, name: string): Promise<IndexState> {
      return (await indexes(tenant).get(name)) ?? defaultIndexState(name);
    },

    async listIndexes(tenant: string): Promise<IndexState[]> {
      return indexes(tenant).find({}, { sort: { id: 1 } });
    },

    async search(tenant: string, req: SearchRequest): Promise<SearchResult> {
      const module = req.Module ?? DEFAULT_INDEX;
      const state = (await indexes(tenant).get(module)) ?? defaultIndexState(module);
      const types = fieldTypes(state.fields);
      const typeOf = (field: string, what: string): FieldType => {
        const t = types.get(field);
        if (t === undefined) throw bad(`${what}: ${field} is not a field of the index ${module}`, field);
        return t;
      };
      // one flat filter, a key per field (the read store expresses top-level string conditions exactly in SQL)
      const filter: Filter = {};
      const and: Filter[] = [];
      const add = (key: string, condition: unknown) => {
        if (!(key in filter)) filter[key] = condition;
        else and.push({ [key]: condition });
      };
      const keyFor = (field: string, type: FieldType) => (hasTwin(type) ? twinOf(field) : field);
      const valueFor = (type: FieldType, v: unknown) => (hasTwin(type) ? orderedText(v) : v);
      for (const [field, value] of Object.entries(req.Conditions ?? {})) {
        const type = typeOf(field, 'Conditions');
        const coerced = coerceCondition(field, type, value);
        add(
          keyFor(field, type),
          Array.isArray(coerced) ? { $in: coerced.map((v) => valueFor(type, v)) } : valueFor(type, coerced),
        );
      }
      for (const [field, value] of Object.entries(req.FuzzyConditions ?? {})) {
        if (field !== ALL_FIELD) typeOf(field, 'FuzzyConditions');
        if (typeof value !== 'string' && typeof value !== 'number')
          throw bad(`FuzzyConditions: ${field} takes a string`, field);
        add(field, { $regex: escapeRegex(String(value)), $options: 'i' });
      }
      const range = (conditions: Record<string, unknown> | undefined, op: '$gte' | '$lte', what: string) => {
        for (const [field, value] of Object.entries(conditions ?? {})) {
          const type = typeOf(field, what);
          if (type !== 'date' && type !== 'number')
            throw bad(`${what}: ${field} is a ${type} field; ranges take dates and numbers`, field);
          const key = keyFor(field, type);
          const bound = valueFor(type, coerceCondition(field, type, value));
          const existing = filter[key];
          if (
            existing !== undefined &&
            typeof existing === 'object' &&
            existing !== null &&
            !Array.isArray(existing) &&
            !(op in existing)
          )
            (existing as Record<string, unknown>)[op] = bound;
          else add(key, { [op]: bound });
        }
      };
      range(req.FromRangeConditions, '$gte', 'FromRangeConditions');
      range(req.ToRangeConditions, '$lte', 'ToRangeConditions');
      if (and.length > 0) filter.$and = and;
      const sortField = req.SortField ?? 'CreatedDate';
      const sortType = typeOf(sortField, 'SortField');
      const sortKey = keyFor(sortField, sortType);
      const sort: Sort = { [sortKey]: (req.SortType ?? 'desc').toLowerCase() === 'asc' ? 1 : -1 };
      // a field every document holds as text: saying so lets the sort walk the index (it selects no fewer
      // documents); counts go without it (it would steer the count to that index)
      const pageFilter: Filter =
        ALWAYS_TEXT.has(sortField) && !(sortField in filter) ? { ...filter, [sortField]: { $gte: '' } } : filter;
      const pageNo = req.PageNo ?? 1;
      const pageSize = req.PageSize ?? 10;

      const docs = readModel<SearchDoc>(
        readStore,
        TASKS_PROJECTION,
        'search',
        searchPartition(tenant, module, state.generation),
      );
      const total = await docs.count(filter);
      if (req.GroupField === undefined) {
        const page = await docs.find(pageFilter, { sort, skip: (pageNo - 1) * pageSize, limit: pageSize });
        return {
          pageNo,
          pageSize,
          total,
          groupField: null,
          maxPageCount: Math.ceil(total / pageSize),
          results: [{ groupValue: null, groupTotalNum: total, esDocs: page.map(withoutAll), innerDocs: [] }],
        };
      }
      const groupField = req.GroupField;
      typeOf(groupField, 'GroupField');
      const groupFilter = (key: unknown): Filter =>
        groupField in pageFilter
          ? { ...pageFilter, $and: [...((pageFilter.$and as Filter[] | undefined) ?? []), { [groupField]: key }] }
          : { ...pageFilter, [groupField]: key };
      const groups = await docs.groupCount(groupField, filter);
      const onPage = groups.slice((pageNo - 1) * pageSize, pageNo * pageSize);
      const results: SearchGroup[] = [];
      for (const g of onPage) {
        const members = await docs.find(groupFilter(g.key), { sort, limit: INNER_DOCS + 1 });
        results.push({
          groupValue: g.key,
          groupTotalNum: g.count,
          esDocs: members.slice(0, 1).map(withoutAll),
          innerDocs: members.slice(1).map(withoutAll),
        });
      }
      return { pageNo, pageSize, total, groupField, maxPageCount: Math.ceil(groups.length / pageSize), results };
    },
  };
}

export type TaskQueries = ReturnType<typeof createTaskQueries>;
