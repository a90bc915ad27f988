import { type RequestHandler, Router } from 'express';
import type { ConfigCommands } from '../../commands/bridge/config-center.commands.ts';
import { checkConversion, convert } from '../../domain/bridge/conversion/index.ts';
import type { BridgeEvent, Conversion } from '../../domain/bridge/model.ts';
import { coreError } from '../../domain/core/core.errors.ts';
import { EVENT_DATA_LIMITS } from '../../domain/core/input-limits.ts';
import type { BearerAuth } from '../core/bearer-auth.ts';
import { assertWithinLimits } from '../core/body-limits.ts';
import { createRouteRegistry, type RouteRegistry } from '../core/route-registry.ts';
import { tenantOf } from '../core/tenancy.ts';
import type { JsonSchema, RequestSchemas } from '../core/validate.ts';
import { BRIDGE_ADMIN_BASE, BRIDGE_ADMIN_SCOPE } from './bridge.paths.ts';
import { SECRET_MASK } from './rules.router.ts';
import { conversionSchema } from './rules.schemas.ts';

/**
 * `POST /admin/v1/test-conversion {conversion, event}`: the payload a target would be handed for the event,
 * rendered by the same domain code as the delivery (domain/bridge/conversion), so an editor can preview a
 * target's body before the rule is saved. Scope `bridge:admin`. A conversion record the rule API would
 * refuse is the same 400 (REQUEST.INVALID naming `conversion.<field>`); content that does not convert (a
 * path matching nothing, a template that is not JSON) is 200 `{ok: false, error}`, as the trace would
 * show it. An `env` conversion reads the caller's configuration key, a secret answered masked.
 */
export type ConversionPreviewDeps = {
  config: Pick<ConfigCommands, 'get'>;
  bearer: Pick<BearerAuth, 'authenticate' | 'requireScope'>;
  registry?: RouteRegistry;
};

const TEST_CONVERSION = `${BRIDGE_ADMIN_BASE}/test-conversion`;

const schemas = {
  testConversion: {
    body: {
      type: 'object',
      properties: {
        conversion: conversionSchema,
        event: { type: 'object', description: 'the sample event (as test-pattern takes it)' },
      },
      required: ['conversion', 'event'],
      additionalProperties: false,
    },
    response: {
      type: 'object',
      properties: {
        ok: { type: 'boolean' },
        body: { description: 'the payload handed to the target (when ok)' },
        missing: {
          type: 'array',
          items: { type: 'string' },
          description: 'template variables whose path matched nothing (left empty)',
        },
        error: { type: 'string', description: 'why the event does not convert (when not ok)' },
      },
      required: ['ok'],
    },
  },
} satisfies Record<string, RequestSchemas & { response?: JsonSchema }>;

export function createConversionPreviewRouter(deps: ConversionPreviewDeps): Router {
  const registry = deps.registry ?? createRouteRegistry();
  const router = Router();
  router.use(TEST_CONVERSION, deps.bearer.authenticate, deps.bearer.requireScope(BRIDGE_ADMIN_SCOPE));

  const handler: RequestHandler = async (req, res) => {
    const b = req.body as { conversion: unknown; event: Record<string, unknown> };
    // the same bounds as test-pattern: what putEvent would refuse is not converted either
    for (const [field, value] of Object.entries(b.event))
      assertWithinLimits(value, EVENT_DATA_LIMITS, `body.event.${field}`);
    const violations = checkConversion(b.conversion, 'conversion');
    if (violations.length > 0) {
      throw coreError(
        'REQUEST.INVALID',
        `request validation failed: ${violations.map((v) => `body.${v.field} ${v.message}`).join('; ')}`,
        violations.map((v) => ({ in: 'body', ...v })),
      );
    }
    const tenant = tenantOf(res);
    const outcome = await convert(b.event as BridgeEvent, b.conversion as Conversion, async (key) => {
      const entry = await deps.config.get(tenant, key);
      if (entry === null) return undefined;
      return entry.secret ? SECRET_MASK : entry.value;
    });
    res.json(outcome.ok ? { ok: true, body: outcome.payload, missing: outcome.missing } : outcome);
  };

  registry.route(
    router,
    {
      method: 'post',
      path: TEST_CONVERSION,
      summary: "render a target's content conversion for a sample event: {ok, body, missing} or {ok: false, error}",
      schemas: schemas.testConversion,
      successStatus: 200,
      tags: ['bridge test-pattern'],
    },
    handler,
  );
  return router;
}
