import { IncomingMessage, ServerResponse } from 'node:http';

/**
 * Requests and responses born with the express app's prototypes. Express gives every request and response
 * its own prototypes (`Object.setPrototypeOf(req, app.request)` in app.handle); V8 then keeps each request's
 * objects alive through the young-generation collections that follow, so every collection copies and
 * promotes them, and property access on the re-prototyped objects is slower (measured on plain express:
 * kilobytes promoted per scavenge instead of megabytes, about 40 % more requests a second).
 *
 * The classes are given to `http.createServer`; `adopt` puts the app's prototypes under theirs and makes
 * theirs the app's (`app.request`, `app.response`: what express sets), so express's setPrototypeOf finds
 * nothing to change. Until then they make plain Node objects.
 */
export type AppPrototypes = {
  /** the classes for http.createServer's `IncomingMessage` and `ServerResponse` options */
  IncomingMessage: typeof IncomingMessage;
  ServerResponse: typeof ServerResponse;
  /** requests and responses made from now on have the app's prototypes */
  adopt(app: { request: object; response: object }): void;
};

export function appPrototypes(): AppPrototypes {
  // real subclasses: objects made by `new` through V8's usual path (a function prototype swapped in, or
  // Reflect.construct with another target, made every request markedly slower)
  class Request extends IncomingMessage {}
  class Response extends ServerResponse {}
  let adopted = false;
  return {
    IncomingMessage: Request,
    ServerResponse: Response as typeof ServerResponse,
    adopt(app) {
      if (adopted) throw new Error('adopt: this server already serves an app');
      // express's own prototypes descend from Node's: instanceof and every Node method still hold
      if (!(app.request instanceof IncomingMessage) || !(app.response instanceof ServerResponse)) {
        throw new TypeError("adopt: the app's request and response prototypes must descend from node:http's");
      }
      Object.setPrototypeOf(Request.prototype, app.request);
      Object.setPrototypeOf(Response.prototype, app.response);
      app.request = Request.prototype;
      app.response = Response.prototype;
      adopted = true;
    },
  };
}
