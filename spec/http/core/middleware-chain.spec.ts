import express, { type ErrorRequestHandler, type RequestHandler } from 'express';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { middlewareChain } from '../../../http/core/middleware-chain.ts';
import { startHttpServer } from '../../../http/core/server.ts';

// The same middlewares mounted one by one and as a chain answer the same: the chain is only fewer layers.
const mark =
  (name: string): RequestHandler =>
  (req, _res, next) => {
    (req as unknown as { seen: string[] }).seen.push(name);
    next();
  };
const cases: Array<[string, RequestHandler]> = [
  ['next()', (_req, _res, next) => next()],
  ['next(false)', (_req, _res, next) => next(false as unknown as Error)],
  ["next('')", (_req, _res, next) => next('' as unknown as Error)],
  ["next('route')", (_req, _res, next) => next('route')],
  ["next('router')", (_req, _res, next) => next('router')],
  ['next(error)', (_req, _res, next) => next(new Error('boom'))],
  [
    'throws',
    () => {
      throw new Error('thrown');
    },
  ],
  [
    'throws 0',
    () => {
      throw 0;
    },
  ],
  [
    'rejects',
    async () => {
      throw new Error('rejected');
    },
  ],
  ['rejects undefined', () => Promise.reject(undefined)],
  [
    'resolves then next',
    async (_req, _res, next) => {
      await Promise.resolve();
      next();
    },
  ],
];

async function answer(chained: boolean, middle: RequestHandler): Promise<string> {
  const app = express();
  app.use((req, _res, next) => {
    (req as unknown as { seen: string[] }).seen = [];
    next();
  });
  const list = [mark('a'), middle, mark('b')];
  if (chained) app.use(middlewareChain(list));
  else for (const m of list) app.use(m);
  app.use((req, res) => {
    res.json({ seen: (req as unknown as { seen: string[] }).seen });
  });
  const onError: ErrorRequestHandler = (err, req, res, _next) => {
    res.status(500).json({
      error: err instanceof Error ? err.message : String(err),
      seen: (req as unknown as { seen: string[] }).seen,
    });
  };
  app.use(onError);
  const server = await startHttpServer(app, { port: 0 });
  try {
    const r = await fetch(`${server.url}/x`);
    return `${r.status} ${await r.text()}`;
  } finally {
    await server.close();
  }
}

test('a chain answers as the same middlewares mounted one by one: next values, throws, rejections', async () => {
  for (const [name, middle] of cases) assert.is(await answer(true, middle), await answer(false, middle), name);
});

test('an error handler is refused', () => {
  assert.throws(
    () =>
      middlewareChain([((_e: unknown, _q: unknown, _s: unknown, n: () => void) => n()) as unknown as RequestHandler]),
    /error handler/,
  );
});

test.run();
