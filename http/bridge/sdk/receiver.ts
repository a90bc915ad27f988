import type { RequestHandler } from 'express';

/**
 * The receiving side (spec "SDK use"): a service that is the target of a preset HTTP client rule
 * implements `EventReceivedRest` and mounts `receivedEventHandler(impl)` on the route the target posts to.
 *
 *   app.post('/events', express.json(), receivedEventHandler({ async receivedEvent(payload) { … } }));
 *
 * The payload is what the rule's conversion rendered (the complete event by default). Answers: 200
 * `{received: true}` when receivedEvent resolves; 400 when the body is not JSON; 500 `{received: false}`
 * when it throws (the bridge's delivery then retries by the target's strategy, part 2). The handler needs
 * a JSON body parser before it (the platform's app has one).
 */
export interface EventReceivedRest<P = unknown> {
  receivedEvent(payload: P): Promise<void> | void;
}

export function receivedEventHandler<P = unknown>(impl: EventReceivedRest<P>, options: { onError?: (err: unknown) => void } = {}): RequestHandler {
  return (req, res) => {
    if (req.body === undefined) {
      res.status(400).json({ code: 'EVENT.NOT_JSON', message: 'the payload must be a JSON body (Content-Type: application/json)', details: null });
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
