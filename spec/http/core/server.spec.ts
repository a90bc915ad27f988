import { request } from 'node:http';
import { connect } from 'node:net';
import { Router } from 'express';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startHttpServer } from '../../../http/core/server.ts';
import { deferred, startTestApp, turns } from './harness.ts';

/** Opens a raw TCP connection: 'connected' or the error code (ECONNREFUSED once the server stopped listening). */
const tryConnect = (url: string): Promise<string> =>
  new Promise((resolve) => {
    const { hostname, port } = new URL(url);
    const socket = connect({ host: hostname, port: Number(port) });
    socket.once('connect', () => {
      socket.destroy();
      resolve('connected');
    });
    socket.once('error', (err: NodeJS.ErrnoException) => resolve(err.code ?? err.message));
  });

/** GET over its own keep-alive agent-less connection; resolves with status, connection header and body. */
const get = (url: string): Promise<{ status: number; connection: string | undefined; body: string }> =>
  new Promise((resolve, reject) => {
    const req = request(url, { agent: false, headers: { connection: 'keep-alive' } }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, connection: res.headers.connection, body }));
    });
    req.on('error', reject);
    req.end();
  });

const Server = suite('http/core server');

Server('startHttpServer binds port 0 on 127.0.0.1 and reports the url', async () => {
  const app = await startTestApp();
  assert.match(app.url, /^http:\/\/127\.0\.0\.1:\d+$/);
  assert.is.not(app.url, 'http://127.0.0.1:0');
  const res = await fetch(`${app.url}/health/live`);
  assert.is(res.status, 200);
  await app.close();
});

Server('graceful close: refuses new connections, finishes the in-flight request, then resolves', async () => {
  const entered = deferred();
  const release = deferred();
  const router = Router();
  router.get('/slow', async (_req, res) => {
    entered.resolve();
    await release.promise;
    res.json({ done: true });
  });
  const app = await startTestApp({ router });
  // an idle keep-alive connection too: it must not hold the shutdown up
  await (await fetch(`${app.url}/health/live`)).arrayBuffer();

  const inFlight = get(`${app.url}/slow`);
  await entered.promise;

  let closed = false;
  const closing = app.close().then(() => {
    closed = true;
  });
  await turns();
  assert.is(closed, false, 'close waits for the in-flight request');
  assert.is(await tryConnect(app.url), 'ECONNREFUSED', 'new connections are refused');

  release.resolve();
  const res = await inFlight;
  assert.is(res.status, 200);
  assert.equal(JSON.parse(res.body), { done: true });
  assert.is(res.connection, 'close', 'the client is told not to reuse the connection');
  await closing;
  assert.is(closed, true);
  assert.is(app.server.listening, false);
});

Server('close without traffic resolves, and a second close returns the same promise', async () => {
  const app = await startTestApp();
  await (await fetch(`${app.url}/health/live`)).arrayBuffer();
  const first = app.close();
  const second = app.close();
  assert.is(first, second);
  await first;
});

Server('close force-destroys connections still busy after the timeout', async () => {
  const entered = deferred();
  const never = deferred();
  const router = Router();
  router.get('/stuck', async (_req, res) => {
    entered.resolve();
    await never.promise;
    res.json({ late: true });
  });
  const app = await startTestApp({ router });
  const stuck = get(`${app.url}/stuck`).then(
    () => 'answered',
    (err: NodeJS.ErrnoException) => err.code ?? 'error',
  );
  await entered.promise;
  await app.close(20);
  assert.is(await stuck, 'ECONNRESET');
  never.resolve();
});

Server('a port in use rejects', async () => {
  const app = await startTestApp();
  const other = await startTestApp()
    .then(async (spare) => {
      await spare.close();
      return startHttpServer((_req, res) => res.end(), { port: Number(new URL(app.url).port) });
    })
    .then(
      () => 'listening',
      (err: NodeJS.ErrnoException) => err.code,
    );
  assert.is(other, 'EADDRINUSE');
  await app.close();
});

Server.run();
