import { Router } from 'express';
import { coreError } from '../../domain/core/core.errors.ts';
import { INDEX_NAME } from '../../domain/workflow/index-schema.decider.ts';
import { ProjectionBehind } from '../../projections/workflow/read-your-writes.ts';
import type { SearchRequest, TaskQueries } from '../../projections/workflow/task.queries.ts';
import type { RouteRegistry } from '../core/route-registry.ts';
import { tenantOf } from '../core/tenancy.ts';
import type { JsonSchema } from '../core/validate.ts';
import { contentSchema, taskFromDoc, taskSchema } from './task.view.ts';
import { workflowRoute } from './workflow.route.ts';

/**
 * Task reads (scope workflow:user): `GET /tasks/byBusinessKey` (the database view, read your writes: the
 * open tasks, `includeCompleted=true` adds the completed and canceled ones) and `POST /tasks`, the search
 * over a task index (the spec's search condition and result).
 */
const conditions: JsonSchema = { type: 'object', maxProperties: 100 };
const schemas = {
  byBusinessKey: {
    query: {
      type: 'object',
      properties: {
        processDefinitionKey: { type: 'string', minLength: 1, maxLength: 255 },
        workflowBusinessKey: { type: 'string', minLength: 1, maxLength: 255 },
        includeCompleted: { type: 'boolean', default: false },
      },
      required: ['processDefinitionKey', 'workflowBusinessKey'],
      additionalProperties: false,
    },
    response: contentSchema({
      ...taskSchema,
      properties: { ...taskSchema.properties, businessKey: { type: 'string' }, docId: { type: 'string' } },
    }),
  },
  search: {
    body: {
      type: 'object',
      properties: {
        Module: { type: 'string', pattern: INDEX_NAME.source },
        Conditions: conditions,
        FuzzyConditions: conditions,
        FromRangeConditions: conditions,
        ToRangeConditions: conditions,
        PageNo: { type: 'integer', minimum: 1, maximum: 100000 },
        PageSize: { type: 'integer', minimum: 1, maximum: 1000 },
        SortField: { type: 'string', minLength: 1, maxLength: 64 },
        SortType: { type: 'string', enum: ['asc', 'desc', 'ASC', 'DESC'] },
        GroupField: { type: 'string', minLength: 1, maxLength: 64 },
      },
      additionalProperties: false,
    },
    response: {
      type: 'object',
      properties: {
        pageNo: { type: 'integer' },
        pageSize: { type: 'integer' },
        total: { type: 'integer' },
        groupField: { type: ['string', 'null'] },
        maxPageCount: { type: 'integer' },
        results: {
          type: 'array',
          items: {
            type: 'object',
            properties: {
              groupValue: {},
              groupTotalNum: { type: 'integer' },
              esDocs: { type: 'array' },
              innerDocs: { type: 'array' },
            },
          },
        },
      },
    },
  },
};

export function createTasksRouter(deps: { tasks: TaskQueries; registry: RouteRegistry }): Router {
  const { tasks, registry } = deps;
  const router = Router();
  const tags = ['tasks'];

  workflowRoute(
    registry,
    router,
    {
      method: 'get',
      path: '/tasks/byBusinessKey',
      summary: "a business key's tasks of a process key (read your writes)",
      schemas: schemas.byBusinessKey,
      tags,
    },
    async (req, res, base) => {
      const q = req.query as unknown as {
        processDefinitionKey: string;
        workflowBusinessKey: string;
        includeCompleted: boolean;
      };
      try {
        const docs = await tasks.byBusinessKey(tenantOf(res), q.processDefinitionKey, q.workflowBusinessKey, {
          includeClosed: q.includeCompleted,
        });
        res.json({ content: docs.map((d) => taskFromDoc(base, d)), links: [] });
      } catch (err) {
        if (err instanceof ProjectionBehind)
          throw coreError('STORE.UNAVAILABLE', err.message, { projection: err.projection });
        throw err;
      }
    },
  );

  workflowRoute(
    registry,
    router,
    { method: 'post', path: '/tasks', summary: 'search a task index', schemas: schemas.search, tags },
    async (req, res) => {
      res.json(await tasks.search(tenantOf(res), (req.body ?? {}) as SearchRequest));
    },
  );

  return router;
}
