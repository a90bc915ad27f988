import { Router } from 'express';
import type { CacheBucket } from '../../commands/hub/cache-bucket.commands.ts';
import type { ConfigBundleCommands } from '../../commands/hub/config-bundle.commands.ts';
import type { BearerAuth } from '../core/bearer-auth.ts';
import { commandIdFrom } from '../core/command-id.ts';
import type { RouteRegistry } from '../core/route-registry.ts';
import { commandContext, tenantOf } from '../core/tenancy.ts';
import { CACHE_CLEAR_PATH, CONFIG_EXPORT_PATH, CONFIG_IMPORT_PATH, HUB_ADMIN_SCOPE } from './hub.paths.ts';

/**
 * Configuration bundle and cache bucket (the spec's data-import module `commhub` and its cache
 * clear), scope hub:admin, the token's tenant:
 *
 *   GET  /comm/v1/configuration-bundle/export   → the tenant's configuration as one `commhub` bundle (no secrets)
 *   POST /comm/v1/configuration-bundle/import   a bundle → {ImportId, Created, Updated, Unchanged, Resources, SigningSecrets};
 *        400 IMPORT.INVALID (nothing imported), 409 IMPORT.LOCKED (another import holds a group's lock);
 *        Idempotency-Key: the import id (a retried import writes nothing twice)
 *   GET  /public/cache/v1/clear/bucket?bucketCode=hub   clears the hub's cache bucket in every process
 *        (the caller tenant's entries; the platform tenant's administrators clear every tenant's)
 */
export function createBundleRouter(deps: {
  bundle: ConfigBundleCommands;
  cacheBucket: CacheBucket;
  bearer: Pick<BearerAuth, 'authenticate' | 'requireScope'>;
  registry: RouteRegistry;
}): Router {
  const { bundle, cacheBucket, bearer, registry } = deps;
  const router = Router();
  for (const path of [CONFIG_EXPORT_PATH, CONFIG_IMPORT_PATH, CACHE_CLEAR_PATH])
    router.use(path, bearer.authenticate, bearer.requireScope(HUB_ADMIN_SCOPE));
  const tags = ['hub configuration bundle'];
  registry.route(
    router,
    {
      method: 'get',
      path: CONFIG_EXPORT_PATH,
      summary:
        "the tenant's hub configuration as one commhub bundle: channels, delivery services (no secrets), templates, contexts, definitions, rules",
      schemas: {
        response: {
          type: 'object',
          properties: { Module: { type: 'string', enum: ['commhub'] }, FormatVersion: { type: 'integer' } },
        },
      },
      tags,
    },
    async (_req, res) => {
      res.json(await bundle.export(tenantOf(res)));
    },
  );
  registry.route(
    router,
    {
      method: 'post',
      path: CONFIG_IMPORT_PATH,
      summary:
        'import a commhub bundle: validated whole first (all or nothing), written under the locks of its resource groups',
      schemas: {
        body: {
          type: 'object',
          required: ['Module', 'FormatVersion'],
          properties: { Module: { type: 'string', enum: ['commhub'] }, FormatVersion: { type: 'integer' } },
        },
        response: {
          type: 'object',
          properties: {
            ImportId: { type: 'string' },
            Created: { type: 'integer' },
            Updated: { type: 'integer' },
            Unchanged: { type: 'integer' },
            Resources: {
              type: 'array',
              items: {
                type: 'object',
                properties: {
                  Section: { type: 'string' },
                  Id: { type: 'string' },
                  Action: { type: 'string', enum: ['CREATE', 'UPDATE', 'UNCHANGED'] },
                },
              },
            },
            SigningSecrets: {
              type: 'object',
              description: 'new delivery services: their webhook signing secrets, shown once',
            },
          },
        },
      },
      tags,
    },
    async (req, res) => {
      res.json(await bundle.import(req.body, commandContext(res), commandIdFrom(req)));
    },
  );
  registry.route(
    router,
    {
      method: 'get',
      path: CACHE_CLEAR_PATH,
      summary:
        "clear the hub's cache bucket (definition data and comm-hub.* settings) in every process; future resolution only",
      schemas: {
        query: {
          type: 'object',
          additionalProperties: false,
          required: ['bucketCode'],
          properties: { bucketCode: { type: 'string', minLength: 1, maxLength: 64, example: 'hub' } },
        },
        response: {
          type: 'object',
          properties: {
            BucketCode: { type: 'string' },
            Scope: { type: 'string', description: 'the tenant, or * (every tenant)' },
            ClearedAt: { type: 'string' },
          },
        },
      },
      tags: ['hub cache'],
    },
    async (req, res) => {
      res.json(
        await cacheBucket.clear(
          String((req.query as { bucketCode: string }).bucketCode),
          commandContext(res),
          commandIdFrom(req),
        ),
      );
    },
  );
  return router;
}
