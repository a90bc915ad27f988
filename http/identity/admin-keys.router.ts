import { Router } from 'express';
import type { KeyRing, SigningKeyInfo } from '../../commands/identity/signing-key.ring.ts';
import { coreError } from '../../domain/core/core.errors.ts';
import type { Clock } from '../../infra/core/clock.port.ts';
import { pageAnswer, pageOf, pagingProperties } from '../core/paging.ts';
import type { RouteRegistry } from '../core/route-registry.ts';
import { isPlatformAdmin } from '../core/tenancy.ts';
import type { JsonSchema, RequestSchemas } from '../core/validate.ts';
import type { Body } from './admin.request.ts';
import { adminRoute } from './admin.route.ts';
import { type KeyState, keyState, keyView, signingKeyAnswer } from './admin-keys.views.ts';
import { ADMIN_BASE } from './identity.paths.ts';

/**
 * `/keys`: the provider's signing keys, which are the platform's (one key ring signs every tenant's
 * tokens). Any identity admin may see them (their public parts are in the JWKS anyway; never private
 * material); only the platform tenant's administrators rotate, as `platform keys rotate` does.
 */
export type AdminKeysDeps = {
  keyRing: Pick<KeyRing, 'keys' | 'rotate'>;
  clock: Clock;
  registry: RouteRegistry;
};

const MAX_DELAY_SECONDS = 7 * 86400;

const schemas = {
  listKeys: {
    query: {
      type: 'object',
      properties: {
        ...pagingProperties(),
        state: { type: 'string', enum: ['pending', 'active', 'retiring', 'retired'] },
      },
      additionalProperties: false,
    },
    response: pageOf(signingKeyAnswer),
  },
  rotate: {
    body: {
      type: 'object',
      properties: {
        now: { type: 'boolean', description: 'sign with the new key at once (the CLI: --now)' },
        delay_seconds: {
          type: 'integer',
          minimum: 0,
          maximum: MAX_DELAY_SECONDS,
          description: 'the publish delay before the new key signs (default 300; the CLI: --delay)',
        },
      },
      additionalProperties: false,
      example: {},
    },
    response: {
      type: 'object',
      properties: {
        key: signingKeyAnswer,
        superseded: { type: 'array', items: signingKeyAnswer },
      },
    },
  },
} satisfies Record<string, RequestSchemas & { response?: JsonSchema }>;

export function createAdminKeysRouter(deps: AdminKeysDeps): Router {
  const { keyRing, clock } = deps;
  const router = Router();
  const route = adminRoute(router, deps.registry);

  route(
    'get',
    '/keys',
    'the signing keys and their rotation state (newest first)',
    schemas.listKeys,
    async (req, res) => {
      const q = req.query as unknown as { limit: number; offset: number; state?: KeyState };
      const t = clock.now().getTime();
      const keys = (await keyRing.keys())
        .slice()
        .reverse()
        .filter((k) => q.state === undefined || keyState(k, t) === q.state);
      const page = { items: keys.slice(q.offset, q.offset + q.limit), total: keys.length };
      res.json(pageAnswer(page, q, (k: SigningKeyInfo) => keyView(k, t)));
    },
  );

  // the options are optional, and so is the body: an empty POST is `platform keys rotate`
  router.post(`${ADMIN_BASE}/keys/rotate`, (req, _res, next) => {
    req.body ??= {};
    next();
  });
  route(
    'post',
    '/keys/rotate',
    'a new signing key (platform administrators): published now, signing after the delay',
    schemas.rotate,
    async (req, res) => {
      if (!isPlatformAdmin(res))
        throw coreError('TENANT.FORBIDDEN', 'only administrators of the platform tenant rotate the signing keys');
      const b = req.body as Body;
      if (b.now === true && b.delay_seconds !== undefined) {
        throw coreError('REQUEST.INVALID', 'now and delay_seconds exclude each other', [
          { field: 'delay_seconds', message: 'not with now' },
        ]);
      }
      const result = await keyRing.rotate({
        ...(b.now === true && { now: true }),
        ...(typeof b.delay_seconds === 'number' && { delaySeconds: b.delay_seconds }),
      });
      const t = clock.now().getTime();
      const keys = await keyRing.keys();
      const byKid = new Map(keys.map((k) => [k.kid, k]));
      const view = (kid: string) => {
        const k = byKid.get(kid);
        return k === undefined ? { kid } : keyView(k, t);
      };
      res.status(201).json({ key: view(result.kid), superseded: result.superseded.map((s) => view(s.kid)) });
    },
    201,
  );

  return router;
}
