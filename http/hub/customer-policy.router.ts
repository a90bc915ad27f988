import { randomUUID } from 'node:crypto';
import { type RequestHandler, type Response, Router } from 'express';
import type { CustomerPolicies } from '../../commands/hub/customer-policy.commands.ts';
import { MAX_CAP_WINDOW_SECONDS } from '../../domain/hub/frequency-cap.decider.ts';
import { hubError } from '../../domain/hub/hub.errors.ts';
import {
  INTERACTION_TYPES,
  type InteractionInput,
  type InteractionStatus,
  type InteractionType,
} from '../../domain/hub/interaction.decider.ts';
import { parseDateTime } from '../../domain/hub/local-time.ts';
import { ANY_CLASS, type PreferenceDecision } from '../../domain/hub/preference.decider.ts';
import type { CustomerQueries } from '../../projections/hub/customer.projection.ts';
import type { BearerAuth } from '../core/bearer-auth.ts';
import { commandIdFrom } from '../core/command-id.ts';
import type { HttpMethod, RouteRegistry } from '../core/route-registry.ts';
import { authOf, commandContext, tenantOf } from '../core/tenancy.ts';
import { type JsonSchema, type RequestSchemas, validate } from '../core/validate.ts';
import {
  FREQUENCY_CAPS_PATH,
  HUB_ADMIN_SCOPE,
  HUB_OPERATOR_SCOPE,
  HUB_SEND_SCOPE,
  INTERACTIONS_PATH,
  PREFERENCES_PATH,
  QUIET_HOURS_PATH,
} from './hub.paths.ts';
import { pageQuery } from './hub.schemas.ts';

/**
 * The customer-policy API (docs/hub.md#customer-policies; paths ours, the spec does not show them), under
 * `/comm/v1`, the token's tenant:
 *
 *   /preferences                 GET ?recipientId (a recipient's stored preferences) · PUT {RecipientId, Channel,
 *                                NotificationClass (default *), Decision ALLOW|DENY} · DELETE ?recipientId&channel&notificationClass
 *   /preferences/effective       GET ?recipientId&channel&notificationClass: what the dispatch gate answers now
 *                                (scopes: hub:admin, or hub:send for customer-facing applications)
 *   /interactions                POST {InteractionId?, Type REPLY|OPT_OUT|OPT_IN, RecipientId, Channel, NotificationClass?,
 *                                MessageId?, Text?, ReceivedAt?} (201; 200 for the same interaction resent) · GET ?recipientId&status
 *   /interactions/{id}           GET · POST /{id}/handle {Resolution HANDLED|DISMISSED, Note?} (hub:operator)
 *                                (recording: hub:send, hub:operator or hub:admin; reading: hub:operator or hub:admin)
 *   /frequency-caps              GET · GET|PUT {Limit, WindowSeconds}|DELETE /{category} (a NotificationClass or *) (hub:admin)
 *   /frequency-caps/usage        GET ?recipientId: reservations and usage per cap (hub:admin or hub:operator)
 *   /quiet-hours                 GET · GET|PUT {Windows: [{Start, End}]}|DELETE /{channel} (hub:admin)
 */
export type CustomerPolicyRouterDeps = {
  policies: CustomerPolicies;
  queries: CustomerQueries;
  bearer: Pick<BearerAuth, 'authenticate' | 'requireScope'>;
  registry: RouteRegistry;
  timeZoneOf(tenant: string): Promise<string>;
};

const str = (max: number, pattern?: string): JsonSchema => ({
  type: 'string',
  minLength: 1,
  maxLength: max,
  ...(pattern !== undefined && { pattern }),
});
const CHANNEL = str(40, '^[A-Z][A-Z0-9_]{0,39}$');
const CLASS = str(40, '^([A-Z][A-Z0-9_]{0,39}|\\*)$');
const RECIPIENT = str(200);
const obj = (properties: Record<string, JsonSchema>, required: string[] = []): JsonSchema => ({
  type: 'object',
  additionalProperties: false,
  required,
  properties,
});

export function createCustomerPolicyRouter(deps: CustomerPolicyRouterDeps): Router {
  const { policies: p, queries: q, bearer, registry } = deps;
  const router = Router();
  const tags = ['hub customer policies'];
  // authentication and scope before validation (401 / 403 before 400, as the other routers answer)
  const route = (
    method: HttpMethod,
    path: string,
    summary: string,
    schemas: RequestSchemas,
    scopes: string[],
    handler: RequestHandler,
    successStatus = 200,
  ) => {
    registry.describeRoute({ method, path, summary, schemas, successStatus, tags });
    router[method](path, bearer.authenticate, anyScope(scopes), validate(schemas), handler);
  };

  /** one of the scopes suffices; lacking all, the standard insufficient-scope answer naming the first */
  function anyScope(scopes: string[]): RequestHandler {
    const first = bearer.requireScope(scopes[0]!);
    return (req, res, next) => (scopes.some((s) => authOf(res).scopes.includes(s)) ? next() : first(req, res, next));
  }
  const ctx = (res: Response) => commandContext(res);
  const query = (req: { query: unknown }) => req.query as Record<string, string>;
  const prefKeyOf = (req: { query: unknown }) => {
    const k = query(req);
    return { RecipientId: k.recipientId!, Channel: k.channel!, NotificationClass: k.notificationClass ?? ANY_CLASS };
  };

  // preferences
  const prefKeyQuery = obj({ recipientId: RECIPIENT, channel: CHANNEL, notificationClass: CLASS }, [
    'recipientId',
    'channel',
  ]);
  route(
    'get',
    PREFERENCES_PATH,
    "a recipient's stored preferences",
    { query: obj({ recipientId: RECIPIENT }, ['recipientId']) },
    [HUB_ADMIN_SCOPE, HUB_SEND_SCOPE],
    async (req, res) => {
      const recipientId = query(req).recipientId!;
      res.json({ RecipientId: recipientId, Items: await q.preferences(tenantOf(res), recipientId) });
    },
  );
  route(
    'get',
    `${PREFERENCES_PATH}/effective`,
    'the preference the dispatch gate applies now (RESPECT policy)',
    { query: prefKeyQuery },
    [HUB_ADMIN_SCOPE, HUB_SEND_SCOPE],
    async (req, res) => {
      res.json(await p.preferences.effective(tenantOf(res), prefKeyOf(req)));
    },
  );
  route(
    'put',
    PREFERENCES_PATH,
    'sets a preference (ALLOW or DENY) for a recipient, channel and class (* = every class)',
    {
      body: obj(
        {
          RecipientId: RECIPIENT,
          Channel: CHANNEL,
          NotificationClass: CLASS,
          Decision: { type: 'string', enum: ['ALLOW', 'DENY'] },
        },
        ['RecipientId', 'Channel', 'Decision'],
      ),
    },
    [HUB_ADMIN_SCOPE, HUB_SEND_SCOPE],
    async (req, res) => {
      const b = req.body as {
        RecipientId: string;
        Channel: string;
        NotificationClass?: string;
        Decision: PreferenceDecision;
      };
      res.json(
        await p.preferences.set(
          { RecipientId: b.RecipientId, Channel: b.Channel, NotificationClass: b.NotificationClass ?? ANY_CLASS },
          b.Decision,
          ctx(res),
          commandIdFrom(req),
        ),
      );
    },
  );
  route(
    'delete',
    PREFERENCES_PATH,
    'removes a preference (the default applies again)',
    { query: prefKeyQuery },
    [HUB_ADMIN_SCOPE, HUB_SEND_SCOPE],
    async (req, res) => {
      await p.preferences.remove(prefKeyOf(req), ctx(res), commandIdFrom(req));
      res.status(204).end();
    },
    204,
  );

  // interactions
  route(
    'post',
    INTERACTIONS_PATH,
    'records a customer interaction (a reply, an opt-out, an opt-in); OPT_OUT / OPT_IN set the channel preference',
    {
      body: obj(
        {
          InteractionId: str(100, '^[A-Za-z0-9._:@-]{1,100}$'),
          Type: { type: 'string', enum: [...INTERACTION_TYPES] },
          RecipientId: RECIPIENT,
          Channel: CHANNEL,
          NotificationClass: CLASS,
          MessageId: str(120),
          Text: { type: 'string', maxLength: 4000 },
          ReceivedAt: str(40),
        },
        ['Type', 'RecipientId', 'Channel'],
      ),
    },
    [HUB_SEND_SCOPE, HUB_OPERATOR_SCOPE, HUB_ADMIN_SCOPE],
    async (req, res) => {
      const b = req.body as Omit<InteractionInput, 'InteractionId' | 'ReceivedAt'> & {
        InteractionId?: string;
        ReceivedAt?: string;
        Type: InteractionType;
      };
      const tenant = tenantOf(res);
      let receivedAt: string | null = null;
      if (b.ReceivedAt !== undefined) {
        receivedAt = parseDateTime(b.ReceivedAt, await deps.timeZoneOf(tenant));
        if (receivedAt === null)
          throw hubError('INTERACTION.INVALID', 'ReceivedAt must be an ISO local or offset date-time', [
            { field: 'ReceivedAt', message: 'must be an ISO local or offset date-time' },
          ]);
      }
      // the id: the caller's, else its Idempotency-Key (a resend is the same interaction), else a new one
      const id = b.InteractionId ?? req.get('idempotency-key') ?? randomUUID();
      const input: Omit<InteractionInput, 'ReceivedAt'> & { ReceivedAt?: string } = {
        InteractionId: id,
        Type: b.Type,
        RecipientId: b.RecipientId,
        Channel: b.Channel,
        ...(b.NotificationClass !== undefined && { NotificationClass: b.NotificationClass }),
        ...(b.MessageId !== undefined && { MessageId: b.MessageId }),
        ...(b.Text !== undefined && { Text: b.Text }),
        ...(receivedAt !== null && { ReceivedAt: receivedAt }),
      };
      const r = await p.interactions.record(input, ctx(res));
      res
        .status(r.created ? 201 : 200)
        .json({ Interaction: r.interaction, ...(r.preference !== undefined && { Preference: r.preference }) });
    },
    201,
  );
  route(
    'get',
    INTERACTIONS_PATH,
    'interactions, newest first (by recipient and/or handling status)',
    {
      query: pageQuery({
        recipientId: RECIPIENT,
        status: { type: 'string', enum: ['RECEIVED', 'HANDLED', 'DISMISSED'] },
      }),
    },
    [HUB_OPERATOR_SCOPE, HUB_ADMIN_SCOPE],
    async (req, res) => {
      const k = req.query as unknown as {
        recipientId?: string;
        status?: InteractionStatus;
        pageNo: number;
        pageSize: number;
      };
      res.json(await q.interactions(tenantOf(res), k));
    },
  );
  const idParam = obj({ interactionId: str(100) }, ['interactionId']);
  route(
    'get',
    `${INTERACTIONS_PATH}/:interactionId`,
    'one interaction (live)',
    { params: idParam },
    [HUB_OPERATOR_SCOPE, HUB_ADMIN_SCOPE],
    async (req, res) => {
      const id = String(req.params.interactionId);
      const i = await p.interactions.get(tenantOf(res), id);
      if (i === null) throw hubError('INTERACTION.NOT_FOUND', 'no such interaction', { InteractionId: id });
      res.json(i);
    },
  );
  route(
    'post',
    `${INTERACTIONS_PATH}/:interactionId/handle`,
    'closes an interaction: HANDLED or DISMISSED',
    {
      params: idParam,
      body: obj(
        { Resolution: { type: 'string', enum: ['HANDLED', 'DISMISSED'] }, Note: { type: 'string', maxLength: 2000 } },
        ['Resolution'],
      ),
    },
    [HUB_OPERATOR_SCOPE],
    async (req, res) => {
      const b = req.body as { Resolution: 'HANDLED' | 'DISMISSED'; Note?: string };
      res.json(
        await p.interactions.handle(
          String(req.params.interactionId),
          b.Resolution,
          b.Note,
          authOf(res).subject,
          ctx(res),
          commandIdFrom(req),
        ),
      );
    },
  );

  // frequency caps
  route('get', FREQUENCY_CAPS_PATH, "the tenant's frequency caps", {}, [HUB_ADMIN_SCOPE], async (_req, res) => {
    res.json({ Items: await p.frequencyCaps.list(tenantOf(res)) });
  });
  route(
    'get',
    `${FREQUENCY_CAPS_PATH}/usage`,
    "a recipient's quota: reservations and usage per cap (live)",
    { query: obj({ recipientId: RECIPIENT }, ['recipientId']) },
    [HUB_ADMIN_SCOPE, HUB_OPERATOR_SCOPE],
    async (req, res) => {
      res.json(await p.frequencyCaps.usage(tenantOf(res), query(req).recipientId!));
    },
  );
  const catParam = obj({ category: CLASS }, ['category']);
  route(
    'get',
    `${FREQUENCY_CAPS_PATH}/:category`,
    'one frequency cap',
    { params: catParam },
    [HUB_ADMIN_SCOPE],
    async (req, res) => {
      const c = (await p.frequencyCaps.list(tenantOf(res))).find((x) => x.Category === req.params.category);
      if (c === undefined)
        throw hubError('FREQUENCY_CAP.NOT_FOUND', `no frequency cap for ${String(req.params.category)}`, {
          Category: req.params.category,
        });
      res.json(c);
    },
  );
  route(
    'put',
    `${FREQUENCY_CAPS_PATH}/:category`,
    'sets the cap of a category (a NotificationClass, or * for the rest): Limit messages per WindowSeconds per recipient',
    {
      params: catParam,
      body: obj(
        {
          Limit: { type: 'integer', minimum: 0, maximum: 100000 },
          WindowSeconds: { type: 'integer', minimum: 1, maximum: MAX_CAP_WINDOW_SECONDS },
        },
        ['Limit', 'WindowSeconds'],
      ),
    },
    [HUB_ADMIN_SCOPE],
    async (req, res) => {
      const b = req.body as { Limit: number; WindowSeconds: number };
      res.json(
        await p.frequencyCaps.save(
          { Category: String(req.params.category), Limit: b.Limit, WindowSeconds: b.WindowSeconds },
          ctx(res),
          commandIdFrom(req),
        ),
      );
    },
  );
  route(
    'delete',
    `${FREQUENCY_CAPS_PATH}/:category`,
    'removes a cap',
    { params: catParam },
    [HUB_ADMIN_SCOPE],
    async (req, res) => {
      await p.frequencyCaps.remove(String(req.params.category), ctx(res), commandIdFrom(req));
      res.status(204).end();
    },
    204,
  );

  // quiet hours
  route(
    'get',
    QUIET_HOURS_PATH,
    "the tenant's quiet hours per channel (local times in comm-hub.time-zone)",
    {},
    [HUB_ADMIN_SCOPE],
    async (_req, res) => {
      res.json({ TimeZone: await deps.timeZoneOf(tenantOf(res)), Items: await p.quietHours.list(tenantOf(res)) });
    },
  );
  const chParam = obj({ channel: CHANNEL }, ['channel']);
  route(
    'get',
    `${QUIET_HOURS_PATH}/:channel`,
    "one channel's quiet hours",
    { params: chParam },
    [HUB_ADMIN_SCOPE],
    async (req, res) => {
      res.json(await p.quietHours.get(tenantOf(res), String(req.params.channel)));
    },
  );
  route(
    'put',
    `${QUIET_HOURS_PATH}/:channel`,
    "sets a channel's quiet hours: daily local windows HH:mm–HH:mm (Start after End: overnight)",
    {
      params: chParam,
      body: obj(
        {
          Windows: {
            type: 'array',
            minItems: 1,
            maxItems: 10,
            items: obj({ Start: str(5), End: str(5) }, ['Start', 'End']),
          },
        },
        ['Windows'],
      ),
    },
    [HUB_ADMIN_SCOPE],
    async (req, res) => {
      const b = req.body as { Windows: Array<{ Start: string; End: string }> };
      res.json(
        await p.quietHours.save(
          { Channel: String(req.params.channel), Windows: b.Windows },
          ctx(res),
          commandIdFrom(req),
        ),
      );
    },
  );
  route(
    'delete',
    `${QUIET_HOURS_PATH}/:channel`,
    "removes a channel's quiet hours",
    { params: chParam },
    [HUB_ADMIN_SCOPE],
    async (req, res) => {
      await p.quietHours.remove(String(req.params.channel), ctx(res), commandIdFrom(req));
      res.status(204).end();
    },
    204,
  );

  return router;
}
