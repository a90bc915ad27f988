import { IncomingMessage, ServerResponse } from 'node:http';
import express from 'express';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { appPrototypes } from '../../../http/core/app-prototypes.ts';
import { startHttpServer } from '../../../http/core/server.ts';

test("before adopt plain Node objects, after it objects born with the app's prototypes; express works on both", async () => {
  const app = express();
  const seen: Array<{ req: boolean; res: boolean; node: boolean }> = [];
  // what express would set: is it already there when the request arrives?
  const born = (req: IncomingMessage, res: ServerResponse) => ({
    req: Object.getPrototypeOf(req) === app.request,
    res: Object.getPrototypeOf(res) === app.response,
    node: req instanceof IncomingMessage && res instanceof ServerResponse,
  });
  const server = await startHttpServer(
    (req, res) => {
      seen.push(born(req, res));
      app(req, res);
    },
    { port: 0, appPrototypes: true },
  );
  app.get('/hello/:name', (req, res) => {
    res
      .set('x-name', req.params.name!)
      .status(201)
      .json({ hello: req.params.name, query: req.query.q, ip: typeof req.ip });
  });
  try {
    const ask = async () => {
      const r = await fetch(`${server.url}/hello/ann?q=1`);
      return { status: r.status, header: r.headers.get('x-name'), body: (await r.json()) as unknown };
    };
    const expected = { status: 201, header: 'ann', body: { hello: 'ann', query: '1', ip: 'string' } };
    assert.equal(await ask(), expected);
    server.adopt(app);
    assert.equal(await ask(), expected);
    assert.equal(seen, [
      { req: false, res: false, node: true },
      { req: true, res: true, node: true },
    ]);
  } finally {
    await server.close();
  }
});

test("adopt refuses prototypes that do not descend from node:http's, and a second app", () => {
  assert.throws(() => appPrototypes().adopt({ request: {}, response: {} }), /descend from node:http/);
  const prototypes = appPrototypes();
  prototypes.adopt(express());
  assert.throws(() => prototypes.adopt(express()), /already serves an app/);
});

test.run();
