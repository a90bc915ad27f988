import { Router } from 'express';
import type { IndexSchemaCommands } from '../../commands/workflow/index-schemas.commands.ts';
import type { WorkflowTenants } from '../../commands/workflow/tenants.commands.ts';
import { tenantCodeSchema } from '../../domain/core/tenant-code.ts';
import {
  FIELD_NAME,
  INDEX_NAME,
  type IndexField,
  MAX_BUSINESS_FIELDS,
  MINIMUM_INDEX_FIELDS,
} from '../../domain/workflow/index-schema.decider.ts';
import type { TaskQueries } from '../../projections/workflow/task.queries.ts';
import type { IndexState } from '../../projections/workflow/tasks.projection.ts';
import { commandIdFrom } from '../core/command-id.ts';
import type { RouteRegistry } from '../core/route-registry.ts';
import { commandContext, PLATFORM_ADMINS_NAME_ANY, targetTenant, tenantOf } from '../core/tenancy.ts';
import { workflowRoute } from './workflow.route.ts';

/**
 * Administration (scope workflow:admin): tenant enablement (`/admin/tenants/{tenant}/enable`, `/disable`,
 * and its status; a tenant's admin names its own tenant, the platform's admins any) and index schemas
 * (`/admin/index-schemas/{name}`: the business fields of a task index; a change rebuilds the index while
 * searches keep answering from the old one).
 */
const tenantParams = {
  type: 'object',
  properties: { tenant: tenantCodeSchema },
  required: ['tenant'],
};
const indexParams = {
  type: 'object',
  properties: { name: { type: 'string', pattern: INDEX_NAME.source } },
  required: ['name'],
};
const fieldSchema = {
  type: 'object',
  properties: {
    name: { type: 'string', pattern: FIELD_NAME.source },
    type: { type: 'string', enum: ['string', 'number', 'date', 'boolean'] },
    includeAll: { type: 'boolean' },
  },
  required: ['name', 'type'],
  additionalProperties: false,
};

const indexView = (s: IndexState) => ({
  name: s.id,
  revision: s.revision,
  generation: s.generation,
  fields: [
    ...MINIMUM_INDEX_FIELDS.map((f) => ({ ...f, minimum: true })),
    ...s.fields.map((f) => ({ ...f, minimum: false })),
  ],
  rebuilding:
    s.building === undefined
      ? null
      : { revision: s.building.revision, generation: s.building.generation, fields: s.building.fields },
});

export function createAdminRouter(deps: {
  tenants: WorkflowTenants;
  indexSchemas: IndexSchemaCommands;
  tasks: TaskQueries;
  registry: RouteRegistry;
}): Router {
  const { tenants, indexSchemas, tasks, registry } = deps;
  const router = Router();
  const tags = ['administration'];

  for (const action of ['enable', 'disable'] as const) {
    workflowRoute(
      registry,
      router,
      {
        method: 'post',
        path: `/admin/tenants/:tenant/${action}`,
        summary: `${action} the workflow for a tenant`,
        schemas: { params: tenantParams },
        tags,
      },
      async (req, res) => {
        const tenant = targetTenant(res, String(req.params.tenant), PLATFORM_ADMINS_NAME_ANY);
        const r = await tenants[action](commandContext(res, tenant), commandIdFrom(req));
        res.json(r);
      },
    );
  }
  workflowRoute(
    registry,
    router,
    {
      method: 'get',
      path: '/admin/tenants/:tenant',
      summary: 'whether a tenant is enabled for the workflow',
      schemas: { params: tenantParams },
      tags,
    },
    async (req, res) => {
      const tenant = targetTenant(res, String(req.params.tenant), PLATFORM_ADMINS_NAME_ANY);
      res.json(await tenants.status(tenant));
    },
  );

  workflowRoute(
    registry,
    router,
    {
      method: 'put',
      path: '/admin/index-schemas/:name',
      summary: 'define or change an index schema (business fields); a change rebuilds the index',
      schemas: {
        params: indexParams,
        body: {
          type: 'object',
          properties: { fields: { type: 'array', maxItems: MAX_BUSINESS_FIELDS, items: fieldSchema } },
          required: ['fields'],
          additionalProperties: false,
        },
      },
      tags,
    },
    async (req, res) => {
      const name = String(req.params.name);
      const fields = (
        req.body as { fields: Array<Omit<IndexField, 'includeAll'> & { includeAll?: boolean }> }
      ).fields.map((f) => ({ name: f.name, type: f.type, includeAll: f.includeAll ?? f.type === 'string' }));
      const r = await indexSchemas.define(name, fields, commandContext(res), commandIdFrom(req));
      res.json({ name, revision: r.revision, changed: r.changed, fields: r.fields });
    },
  );
  workflowRoute(
    registry,
    router,
    { method: 'get', path: '/admin/index-schemas', summary: "the tenant's task indexes", schemas: {}, tags },
    async (_req, res) => {
      res.json({ content: (await tasks.listIndexes(tenantOf(res))).map(indexView), links: [] });
    },
  );
  workflowRoute(
    registry,
    router,
    {
      method: 'get',
      path: '/admin/index-schemas/:name',
      summary: 'a task index: fields, generation, rebuild in progress',
      schemas: { params: indexParams },
      tags,
    },
    async (req, res) => {
      res.json(indexView(await tasks.index(tenantOf(res), String(req.params.name))));
    },
  );

  return router;
}
