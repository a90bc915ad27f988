import { IncomingMessage, ServerResponse } from 'node:http';

/**
 * Requests and responses born with the express app's prototypes. Express gives every request and response
 * its own prototypes (`Object.setPrototypeOf(req, app.request)` in app.handle); V8 then keeps each request's
 * objects alive through the young-generation collections that follow, so every collection copies and
 * promotes them (measured on plain express: 2.2 MB promoted per scavenge and 2.5 ms pauses; with the objects
 * born with those prototypes, 5 KB and 0.26 ms). Given to `http.createServer`, these classes build the
 * request and response with the app's prototypes from the start, and express's setPrototypeOf finds nothing
 * to change. Until `adopt`, they build plain Node objects.
 */
export type AppPrototypes = {
  /** the classes for http.createServer's `IncomingMessage` and `ServerResponse` options */
  IncomingMessage: typeof IncomingMessage;
  ServerResponse: typeof ServerResponse;
  /** requests and responses made from now on have the app's prototypes */
  adopt(app: { request: object; response: object }): void;
};

export function appPrototypes(): AppPrototypes {
  // plain functions (a class's `prototype` cannot be reassigned); Reflect.construct builds the Node object
  // with this function's current `prototype`, whether Node's constructors are functions or classes, and
  // returning it replaces the `this` that `new` made (a small object, thrown away)
  function Request(this: unknown, ...args: unknown[]): IncomingMessage {
    return Reflect.construct(IncomingMessage, args, Request) as IncomingMessage;
  }
  function Response(this: unknown, ...args: unknown[]): ServerResponse {
    return Reflect.construct(ServerResponse, args, Response) as ServerResponse;
  }
  Request.prototype = IncomingMessage.prototype;
  Response.prototype = ServerResponse.prototype;
  return {
    IncomingMessage: Request as unknown as typeof IncomingMessage,
    ServerResponse: Response as unknown as typeof ServerResponse,
    adopt(app) {
      // express's own prototypes descend from Node's: instanceof and every Node method still hold
      if (!(app.request instanceof IncomingMessage) || !(app.response instanceof ServerResponse)) {
        throw new TypeError('adopt: the app\'s request and response prototypes must descend from node:http\'s');
      }
      Request.prototype = app.request;
      Response.prototype = app.response;
    },
  };
}
