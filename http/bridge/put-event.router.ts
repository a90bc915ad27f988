import { type Request, type RequestHandler, type Response, Router } from 'express';
import type { PublishContext, PublisherService } from '../../commands/bridge/publish.commands.ts';
import { bridgeError } from '../../domain/bridge/bridge.errors.ts';
import { MAX_BATCH_EVENTS, MAX_EVENT_BYTES } from '../../domain/bridge/model.ts';
import type { Publisher } from '../../domain/bridge/published-event.decider.ts';
import { commandIdFrom } from '../core/command-id.ts';
import { requireJsonBody } from '../core/media-type.ts';
import { requestContext } from '../core/request-context.ts';
import { createRouteRegistry, type RouteRegistry } from '../core/route-registry.ts';
import { authOf, tenantOf } from '../core/tenancy.ts';
import type { JsonSchema } from '../core/validate.ts';
import { BRIDGE_PUBLISH_SCOPE, PUT_EVENT_PATH, PUT_EVENTS_PATH } from './bridge.paths.ts';

/**
 * putEvent (spec "Endpoints"), scope `bridge:publish`:
 *
 *   POST /api/platform/platform-pub/eventBridge/event/v1/putEvent    one event (a JSON object)
 *        200 {eventId, duplicate}; 400 EVENT.INVALID with one detail per bad field ({field, message}),
 *        EVENT.SCHEMA_VIOLATION listing every violation, SCHEMA.NOT_FOUND; 403 BUS.FORBIDDEN (wrong bus),
 *        SOURCE.TYPE_NOT_ALLOWED; 404 BUS.NOT_FOUND; 413 EVENT.TOO_LARGE above 256 KiB.
 *   POST /api/platform/platform-pub/eventBridge/event/v1/putEvents   a batch: a JSON array of 1-10 events
 *        200 {failedEntryCount, entries: [{eventId, duplicate} | {errorCode, errorMessage, details?}]}, one
 *        entry per event in order, as AWS PutEvents answers; 400 EVENT.BATCH_SIZE for 0 or more than 10
 *        events; 413 EVENT.TOO_LARGE when the whole request is above 256 KiB (AWS: total entry size).
 *
 * `eventId` is the event's key in the bridge (the trace's id); a repeat of (source, id) on the same bus
 * answers the same eventId with `duplicate: true` (and routes nothing); when the repeat's content is not the
 * first event's, the answer adds `contentDiffers: true` and the trace notes which fields differ. An
 * `Idempotency-Key` header makes a retried request answer as the first one did.
 *
 * Size: the app's JSON parser (1 MiB, http/core/app.ts) reads the body before any router; this route then
 * measures the request's bytes (Content-Length, else the parsed body re-serialized, for chunked requests)
 * and refuses more than MAX_EVENT_BYTES with 413 EVENT.TOO_LARGE. Bodies above the app's limit are refused
 * by the parser itself (413 REQUEST.TOO_LARGE).
 *
 * Input limits (domain/core/input-limits.ts, docs/architecture.md#input-limits): the app holds every body to the
 * general limits before this router runs (64 levels deep …: 400 REQUEST.LIMIT_EXCEEDED, for the whole
 * batch), and validatePutEvent holds each event's data to the limits of event data (32 levels deep …: 400
 * EVENT.INVALID naming the path and the limit; in a batch, that entry's error). So nothing deeper is
 * stored, and the JSON.stringify below never meets a body it cannot walk.
 */
export type PutEventRouterDeps = {
  publisher: PublisherService;
  bearer: { authenticate: RequestHandler; requireScope(...scopes: string[]): RequestHandler };
  registry?: RouteRegistry;
};

/** The event as documented (validation itself is domain/bridge/put-event.validate.ts: both spellings). */
export const EVENT_SCHEMA: JsonSchema = {
  type: 'object',
  description:
    "A CloudEvents-style event. Lower-case names of the spec's field table (datacontenttype, dataschemaid, eventbusname) are accepted too; the stored and answered form is camelCase.",
  required: ['id', 'source', 'type', 'dataContentType', 'time', 'data', 'eventBusName'],
  properties: {
    id: {
      type: 'string',
      minLength: 1,
      maxLength: 256,
      description: '(source, id) is unique per bus: a repeat is a duplicate',
    },
    source: { type: 'string', minLength: 1, maxLength: 256, example: 'batchv2:Alter' },
    type: { type: 'string', minLength: 1, maxLength: 256, example: 'batchv2:Alter:JobAlter' },
    subject: { type: 'string', maxLength: 1024 },
    time: {
      type: 'string',
      description: 'local date-time without offset, YYYY-MM-DDThh:mm:ss[.fraction]',
      example: '2026-03-01T10:00:00',
    },
    dataContentType: { type: 'string', enum: ['application/json', 'application/json; charset=utf-8'] },
    dataSchemaId: {
      anyOf: [{ type: 'string' }, { type: 'integer', minimum: 0 }],
      description: 'schema registry id (<id> or <id>:<version>)',
    },
    eventBusName: {
      type: 'string',
      description: 'your custom bus, a platform bus, or <tenant>/<bus>',
      example: 'orders',
    },
    data: { type: 'object' },
  },
};

const resultSchema: JsonSchema = {
  type: 'object',
  properties: {
    eventId: { type: 'string', description: 'the event key (hex SHA-256)' },
    duplicate: { type: 'boolean' },
    contentDiffers: {
      type: 'boolean',
      description:
        'present (true) on a duplicate whose content is not the first event’s: the trace notes which fields differ',
    },
  },
  required: ['eventId', 'duplicate'],
};

const batchResultSchema: JsonSchema = {
  type: 'object',
  properties: {
    failedEntryCount: { type: 'integer' },
    entries: {
      type: 'array',
      items: {
        anyOf: [
          resultSchema,
          {
            type: 'object',
            properties: { errorCode: { type: 'string' }, errorMessage: { type: 'string' }, details: {} },
            required: ['errorCode', 'errorMessage'],
          },
        ],
      },
    },
  },
  required: ['failedEntryCount', 'entries'],
};

/** bytes of the request body as sent */
function bodyBytes(req: Request): number {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared >= 0) return declared;
  return req.body === undefined ? 0 : Buffer.byteLength(JSON.stringify(req.body));
}

const checkSize: RequestHandler = (req, _res, next) => {
  const bytes = bodyBytes(req);
  if (bytes > MAX_EVENT_BYTES) {
    return next(
      bridgeError(
        'EVENT.TOO_LARGE',
        `the request is ${bytes} bytes; an event (or a batch) may have at most ${MAX_EVENT_BYTES} bytes`,
        { bytes, limit: MAX_EVENT_BYTES },
      ),
    );
  }
  next();
};

const jsonBodyRequired = (req: Request) => {
  if (req.body === undefined) {
    throw bridgeError('EVENT.INVALID', 'the body must be a JSON event (Content-Type: application/json)', [
      { field: '', message: 'must be a JSON body' },
    ]);
  }
};

/** the publisher: the token's tenant (an event belongs to the publishing tenant), subject and client */
const publisherOf = (res: Response): Publisher => {
  const a = authOf(res);
  return { tenant: tenantOf(res), subject: a.subject, clientId: a.clientId };
};

/**
 * the request's ids, and the caller's bearer token (verified by the middleware) with its own expiry, for
 * Bearer `caller` connections: the publisher keeps it sealed outside the log (commands/bridge/caller-tokens.store.ts)
 */
const contextOf = (req: Request, res: Response): PublishContext => {
  const { correlationId, requestId } = requestContext(res);
  const token = /^bearer\s+(\S+)\s*$/i.exec(req.headers.authorization ?? '')?.[1];
  const { exp, jti } = authOf(res);
  return {
    correlationId,
    causationId: requestId,
    ...(token !== undefined &&
      Number.isFinite(exp) && { callerToken: { token, expiresAt: new Date(exp * 1000), ...(jti && { ref: jti }) } }),
  };
};

export function createPutEventRouter(deps: PutEventRouterDeps): Router {
  const { publisher, bearer } = deps;
  const registry = deps.registry ?? createRouteRegistry();
  const router = Router();
  // the event is validated by its own rules (put-event.validate.ts), not by a body schema: the type check is here
  const guard = [bearer.authenticate, bearer.requireScope(BRIDGE_PUBLISH_SCOPE), checkSize, requireJsonBody];

  registry.describeRoute({
    method: 'post',
    path: PUT_EVENT_PATH,
    summary: 'publish one event (bearer token with scope bridge:publish)',
    schemas: { body: EVENT_SCHEMA, response: resultSchema },
    tags: ['events'],
  });
  router.post(PUT_EVENT_PATH, ...guard, async (req, res) => {
    jsonBodyRequired(req);
    if (Array.isArray(req.body)) {
      throw bridgeError(
        'EVENT.INVALID',
        `putEvent takes one event; send arrays of up to ${MAX_BATCH_EVENTS} events to putEvents`,
        [{ field: '', message: 'must be one event object (batches go to putEvents)' }],
      );
    }
    res.json(await publisher.publish(req.body, publisherOf(res), contextOf(req, res), commandIdFrom(req)));
  });

  registry.describeRoute({
    method: 'post',
    path: PUT_EVENTS_PATH,
    summary: `publish a batch of 1-${MAX_BATCH_EVENTS} events, one result per entry (AWS PutEvents style)`,
    schemas: {
      body: { type: 'array', minItems: 1, maxItems: MAX_BATCH_EVENTS, items: EVENT_SCHEMA },
      response: batchResultSchema,
    },
    tags: ['events'],
  });
  router.post(PUT_EVENTS_PATH, ...guard, async (req, res) => {
    jsonBodyRequired(req);
    if (!Array.isArray(req.body)) {
      throw bridgeError('EVENT.INVALID', `putEvents takes a JSON array of 1-${MAX_BATCH_EVENTS} events`, [
        { field: '', message: 'must be an array of events' },
      ]);
    }
    res.json(
      await publisher.publishBatch(req.body as unknown[], publisherOf(res), contextOf(req, res), commandIdFrom(req)),
    );
  });

  return router;
}
