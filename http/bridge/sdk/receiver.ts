import type { RequestHandler } from 'express';

/** Where the preset HTTP client target POSTs by default (commands/bridge/targets/preset-http.target.ts). */
export { RECEIVED_EVENT_PATH } from '../../../domain/bridge/bridge.paths.ts';

/**
 * The receiving side (spec "SDK use"): a service that is the target of a preset HTTP client rule
 * implements `EventReceivedRest` and mounts `receivedEventHandler(impl)` on the route the target posts to:
 * `RECEIVED_EVENT_PATH` under the base URL the platform's service registry (SERVICE_REGISTRY) names.
 *
 *   app.post(RECEIVED_EVENT_PATH, express.json({ strict: false }), receivedEventHandler({ async receivedEvent(payload) { … } }));
 *
 * Each POST carries `X-Delivery-Id` (the same for every attempt of one delivery: a receiver that must act
 * once keeps the ids it has seen), `X-Event-Id`, `X-Event-Source`, `X-Event-Type` and `X-Delivery-Attempt`.
 * `strict: false` lets a rule whose BODY renders to a plain string (or number) through; with the default
 * strict parser only objects and arrays are accepted.
 *
 * The payload is the target's BODY parameter as the rule renders it (ORIGINAL: the complete event). Answers: 200
 * `{received: true}` when receivedEvent resolves; 400 when the body is not JSON; 500 `{received: false}`
 * when it throws (the bridge's delivery then retries by the target's strategy). The handler needs
 * a JSON body parser before it (the platform's app has one).
 */
export interface EventReceivedRest<P = unknown> {
  receivedEvent(payload: P): Promise<void> | void;
}

export function receivedEventHandler<P = unknown>(
  impl: EventReceivedRest<P>,
  options: { onError?: (err: unknown) => void } = {},
): RequestHandler {
  return (req, res) => {
    if (req.body === undefined) {
      res.status(400).json({
        code: 'EVENT.NOT_JSON',
        message: 'the payload must be a JSON body (Content-Type: application/json)',
        details: null,
      });
      return;
    }
    Promise.resolve()
      .then(() => impl.receivedEvent(req.body as P))
      .then(
        () => res.json({ received: true }),
        (err: unknown) => {
          options.onError?.(err);
          res.status(500).json({ received: false });
        },
      );
  };
}
