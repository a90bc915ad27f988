import type { RequestListener } from 'node:http';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { appPrototypes } from './app-prototypes.ts';

export type RunningServer = {
  server: Server;
  /** `http://host:port`, with the port actually bound (useful with port 0) */
  url: string;
  /**
   * Graceful shutdown: stops accepting connections, closes idle keep-alive connections at once, lets
   * in-flight requests finish and closes their connections after the response, and destroys whatever is
   * left after `timeoutMs` (default 10 s). Resolves when every connection is gone. Safe to call twice.
   */
  close(timeoutMs?: number): Promise<void>;
  /**
   * the express app this server serves: requests and responses are born with its prototypes
   * (app-prototypes.ts); only on a server started with `appPrototypes: true`
   */
  adopt(app: { request: object; response: object }): void;
};

export const DEFAULT_SHUTDOWN_TIMEOUT_MS = 10_000;

export function startHttpServer(
  app: RequestListener,
  options: { port: number; host?: string; appPrototypes?: boolean },
): Promise<RunningServer> {
  const { port, host = '127.0.0.1' } = options;
  // opt-in: a server that never adopts an app (a benchmark's bare express baseline) keeps Node's own classes
  const prototypes = options.appPrototypes === true ? appPrototypes() : undefined;
  // our listener goes first so every request is counted before the app sees it
  const server =
    prototypes === undefined
      ? createServer()
      : createServer({ IncomingMessage: prototypes.IncomingMessage, ServerResponse: prototypes.ServerResponse });
  /** requests in progress per open connection; a connection at 0 is idle */
  const connections = new Map<Socket, number>();
  const inFlight = new Set<ServerResponse>();
  let closing: Promise<void> | undefined;

  server.on('connection', (socket: Socket) => {
    connections.set(socket, 0);
    socket.once('close', () => connections.delete(socket));
  });

  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    const socket = req.socket;
    connections.set(socket, (connections.get(socket) ?? 0) + 1);
    inFlight.add(res);
    if (closing !== undefined) res.setHeader('Connection', 'close');
    let counted = true;
    const done = (): void => {
      if (!counted) return;
      counted = false;
      inFlight.delete(res);
      const left = (connections.get(socket) ?? 1) - 1;
      if (connections.has(socket)) connections.set(socket, left);
      // during shutdown a connection is closed as soon as its last response is out
      if (closing !== undefined && left === 0) socket.end();
    };
    res.once('finish', done);
    res.once('close', done);
  });
  server.on('request', app);

  const close = (timeoutMs = DEFAULT_SHUTDOWN_TIMEOUT_MS): Promise<void> => {
    closing ??= new Promise<void>((resolve, reject) => {
      const force = setTimeout(() => {
        for (const socket of connections.keys()) socket.destroy();
      }, timeoutMs);
      force.unref();
      server.close((err) => {
        clearTimeout(force);
        if (err) reject(err);
        else resolve();
      });
      // tell clients of in-flight requests not to reuse the connection
      for (const res of inFlight) if (!res.headersSent) res.setHeader('Connection', 'close');
      for (const [socket, active] of connections) if (active === 0) socket.destroy();
    });
    return closing;
  };

  return new Promise((resolve, reject) => {
    const onError = (err: Error): void => reject(err);
    server.once('error', onError);
    server.listen(port, host, () => {
      server.off('error', onError);
      const address = server.address() as AddressInfo;
      const hostForUrl = address.family === 'IPv6' ? `[${address.address}]` : address.address;
      const adopt = (app: { request: object; response: object }) => {
        if (prototypes === undefined) throw new Error('adopt: start the server with appPrototypes: true');
        prototypes.adopt(app);
      };
      resolve({ server, url: `http://${hostForUrl}:${address.port}`, close, adopt });
    });
  });
}
