import { type RequestHandler, type Response, Router } from 'express';
import type { CatalogCommands, CatalogInput } from '../../commands/audit/catalog.commands.ts';
import type { AuditMetadata } from '../../commands/audit/metadata.cache.ts';
import { auditError } from '../../domain/audit/audit.errors.ts';
import type { CatalogState, ModuleInfo, TransactionInfo } from '../../domain/audit/catalog.decider.ts';
import type { WarningLevel } from '../../domain/audit/warning-levels.decider.ts';
import { coreError } from '../../domain/core/core.errors.ts';
import type { BearerAuth } from '../core/bearer-auth.ts';
import { commandIdFrom } from '../core/command-id.ts';
import type { HttpMethod, RouteRegistry } from '../core/route-registry.ts';
import { commandContext, isPlatformAdmin, tenantOf } from '../core/tenancy.ts';
import type { JsonSchema, RequestSchemas } from '../core/validate.ts';
import { AUDIT_ADMIN_SCOPE, MODULES, WARNING_LEVELS } from './audit.paths.ts';
import {
  levelBody,
  levelView,
  list,
  moduleBody,
  moduleChange,
  moduleParams,
  moduleView,
  transactionBody,
  transactionChange,
  transactionParams,
  transactionView,
} from './audit.schemas.ts';

/**
 * The tenant's audit metadata (scope audit:admin), under `/api/platform/audit/1.0/audit/v3`:
 *
 *   POST   /modules                                   {module_name, description?} → 201
 *   GET    /modules                                   the tenant's modules (with their transaction counts)
 *   GET    /modules/{module_name}                     one module with its transactions
 *   PUT    /modules/{module_name}                     {description?}
 *   DELETE /modules/{module_name}                     204; 409 MODULE.HAS_TRANSACTIONS while it has any
 *   POST   /modules/{m}/transactions                  {transaction_name, transaction_vendor?, description?} → 201
 *   GET    /modules/{m}/transactions(/{t})            list, one
 *   PUT    /modules/{m}/transactions/{t}              {transaction_vendor?, description?}
 *   DELETE /modules/{m}/transactions/{t}              204 (records written with it keep its name)
 *   GET    /warning-levels                            INFO, WARN and the platform's levels
 *   POST   /warning-levels                            {name, description?} → 201; the platform tenant only (403)
 *
 * A PUT body may repeat the path's name (a GET answer sent back); another name is a 400. Reads are
 * consistent with the metadata's stream (a change is seen at once, by any process).
 */
export type MetadataRouterDeps = {
  commands: CatalogCommands;
  metadata: Pick<AuditMetadata, 'catalog' | 'levels'>;
  bearer: Pick<BearerAuth, 'authenticate' | 'requireScope'>;
  registry: RouteRegistry;
};

export const transactionOf = (t: TransactionInfo) => ({
  module_name: t.module_name,
  transaction_name: t.transaction_name,
  transaction_vendor: t.transaction_vendor,
  description: t.description,
  created_at: t.created_at,
  updated_at: t.updated_at,
});
const byName = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
const transactionsOf = (m: ModuleInfo) =>
  Object.keys(m.transactions)
    .sort(byName)
    .map((t) => transactionOf(m.transactions[t]!));
const moduleOf = (m: ModuleInfo) => ({
  module_name: m.module_name,
  description: m.description,
  transaction_count: Object.keys(m.transactions).length,
  created_at: m.created_at,
  updated_at: m.updated_at,
});
const levelOf = (l: WarningLevel) => ({
  name: l.name,
  description: l.description,
  built_in: l.built_in,
  ...(l.created_at !== undefined && { created_at: l.created_at }),
});

function moduleIn(state: CatalogState, name: string): ModuleInfo {
  const m = state.modules[name];
  if (m === undefined) throw auditError('MODULE.NOT_FOUND', `no module ${name}`, { module_name: name });
  return m;
}
function transactionIn(state: CatalogState, module: string, name: string): TransactionInfo {
  const t = moduleIn(state, module).transactions[name];
  if (t === undefined)
    throw auditError('TRANSACTION.NOT_FOUND', `no transaction ${name} in module ${module}`, {
      module_name: module,
      transaction_name: name,
    });
  return t;
}

/** a PUT body naming another resource than its path */
function samePath(field: string, inBody: unknown, inPath: string): void {
  if (inBody !== undefined && inBody !== inPath) {
    throw coreError(
      'REQUEST.INVALID',
      `request validation failed: body.${field} differs from the path (names cannot be changed)`,
      [{ in: 'body', field, message: 'must equal the name in the path (names cannot be changed)', keyword: 'const' }],
    );
  }
}

export function createMetadataRouter(deps: MetadataRouterDeps): Router {
  const { commands, metadata, bearer, registry } = deps;
  const router = Router();
  router.use([MODULES, WARNING_LEVELS], bearer.authenticate, bearer.requireScope(AUDIT_ADMIN_SCOPE));

  const route = (
    method: HttpMethod,
    path: string,
    summary: string,
    schemas: RequestSchemas & { response?: JsonSchema },
    handler: RequestHandler,
    successStatus = 200,
  ) => registry.route(router, { method, path, summary, schemas, successStatus, tags: ['metadata'] }, handler);

  const run = (res: Response, input: CatalogInput, req: Parameters<RequestHandler>[0]) =>
    commands.run(input, commandContext(res), commandIdFrom(req));
  const current = async (res: Response) => (await metadata.catalog(tenantOf(res), 'verified')).state;
  const param = (req: Parameters<RequestHandler>[0], name: string) => String(req.params[name]);

  route(
    'post',
    MODULES,
    'create a module',
    { body: moduleBody, response: moduleView },
    async (req, res) => {
      const b = req.body as { module_name: string; description?: string };
      const { state } = await run(
        res,
        {
          type: 'CreateModule',
          module_name: b.module_name,
          ...(b.description !== undefined && { description: b.description }),
        },
        req,
      );
      res.status(201).json(moduleOf(moduleIn(state, b.module_name)));
    },
    201,
  );

  route('get', MODULES, "the tenant's modules", { response: list(moduleView) }, async (_req, res) => {
    const state = await current(res);
    res.json({
      items: Object.keys(state.modules)
        .sort(byName)
        .map((n) => moduleOf(state.modules[n]!)),
    });
  });

  route(
    'get',
    `${MODULES}/:module_name`,
    'one module with its transactions',
    { params: moduleParams, response: moduleView },
    async (req, res) => {
      const m = moduleIn(await current(res), param(req, 'module_name'));
      res.json({ ...moduleOf(m), transactions: transactionsOf(m) });
    },
  );

  route(
    'put',
    `${MODULES}/:module_name`,
    "change a module's description",
    { params: moduleParams, body: moduleChange, response: moduleView },
    async (req, res) => {
      const name = param(req, 'module_name');
      const b = req.body as { module_name?: string; description?: string };
      samePath('module_name', b.module_name, name);
      const { state } = await run(
        res,
        { type: 'UpdateModule', module_name: name, ...(b.description !== undefined && { description: b.description }) },
        req,
      );
      res.json(moduleOf(moduleIn(state, name)));
    },
  );

  route(
    'delete',
    `${MODULES}/:module_name`,
    'delete a module without transactions',
    { params: moduleParams },
    async (req, res) => {
      await run(res, { type: 'DeleteModule', module_name: param(req, 'module_name') }, req);
      res.status(204).end();
    },
    204,
  );

  const txPath = `${MODULES}/:module_name/transactions`;
  route(
    'post',
    txPath,
    'create a transaction in a module',
    { params: moduleParams, body: transactionBody, response: transactionView },
    async (req, res) => {
      const module_name = param(req, 'module_name');
      const b = req.body as { transaction_name: string; transaction_vendor?: string; description?: string };
      const { state } = await run(
        res,
        {
          type: 'CreateTransaction',
          module_name,
          transaction_name: b.transaction_name,
          ...(b.transaction_vendor !== undefined && { transaction_vendor: b.transaction_vendor }),
          ...(b.description !== undefined && { description: b.description }),
        },
        req,
      );
      res.status(201).json(transactionOf(transactionIn(state, module_name, b.transaction_name)));
    },
    201,
  );

  route(
    'get',
    txPath,
    "a module's transactions",
    { params: moduleParams, response: list(transactionView) },
    async (req, res) => {
      res.json({ items: transactionsOf(moduleIn(await current(res), param(req, 'module_name'))) });
    },
  );

  route(
    'get',
    `${txPath}/:transaction_name`,
    'one transaction',
    { params: transactionParams, response: transactionView },
    async (req, res) => {
      res.json(
        transactionOf(transactionIn(await current(res), param(req, 'module_name'), param(req, 'transaction_name'))),
      );
    },
  );

  route(
    'put',
    `${txPath}/:transaction_name`,
    "change a transaction's vendor or description",
    { params: transactionParams, body: transactionChange, response: transactionView },
    async (req, res) => {
      const module_name = param(req, 'module_name');
      const transaction_name = param(req, 'transaction_name');
      const b = req.body as { transaction_name?: string; transaction_vendor?: string; description?: string };
      samePath('transaction_name', b.transaction_name, transaction_name);
      const { state } = await run(
        res,
        {
          type: 'UpdateTransaction',
          module_name,
          transaction_name,
          ...(b.transaction_vendor !== undefined && { transaction_vendor: b.transaction_vendor }),
          ...(b.description !== undefined && { description: b.description }),
        },
        req,
      );
      res.json(transactionOf(transactionIn(state, module_name, transaction_name)));
    },
  );

  route(
    'delete',
    `${txPath}/:transaction_name`,
    'delete a transaction',
    { params: transactionParams },
    async (req, res) => {
      await run(
        res,
        {
          type: 'DeleteTransaction',
          module_name: param(req, 'module_name'),
          transaction_name: param(req, 'transaction_name'),
        },
        req,
      );
      res.status(204).end();
    },
    204,
  );

  route('get', WARNING_LEVELS, 'the warning levels', { response: list(levelView) }, async (_req, res) => {
    const { state } = await metadata.levels('verified');
    res.json({ items: Object.values(state.levels).map(levelOf) });
  });

  route(
    'post',
    WARNING_LEVELS,
    'create a warning level (platform operators)',
    { body: levelBody, response: levelView },
    async (req, res) => {
      if (!isPlatformAdmin(res)) {
        throw auditError(
          'WARNING_LEVEL.FORBIDDEN',
          'warning levels are created by the platform operators (a token of the platform tenant); ask them for one',
          {
            tenant: tenantOf(res),
          },
        );
      }
      const b = req.body as { name: string; description?: string };
      const level = await commands.createLevel(b.name, b.description, commandContext(res), commandIdFrom(req));
      res.status(201).json(levelOf(level));
    },
    201,
  );

  return router;
}
