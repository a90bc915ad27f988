// The outbound HTTP client's extension for the hub (infra/core/http-client.port.ts HttpFailure,
// connectTimeoutMs, readTimeoutMs): every rejection says whether the request could have reached the receiver.
import { createServer, type Server } from 'node:http';
import { type AddressInfo, createServer as createNetServer, type Socket } from 'node:net';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { httpFailureOf } from '../../../infra/core/http-client.port.ts';
import { createOutboundHttpClient } from '../../../infra/net/outbound-http.client.ts';

let server: Server;
let base: string;
const client = createOutboundHttpClient({ allow: ['127.0.0.1', '10.0.0.0/8'] });

test.before(async () => {
  server = createServer((req, res) => {
    if (req.url === '/hang') return; // never answers
    if (req.url === '/reset') return void req.socket.destroy();
    if (req.url === '/slow-body') {
      res.writeHead(200);
      res.write('part');
      return; // the rest never comes
    }
    res.end('ok');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
test.after(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
  await client.close();
});

const failure = async (p: Promise<unknown>) => {
  try {
    await p;
  } catch (err) {
    return httpFailureOf(err);
  }
  throw new Error('resolved');
};

test('a refused connection is a connect failure (nothing was sent)', async () => {
  const closed = createServer();
  await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
  const port = (closed.address() as AddressInfo).port;
  await new Promise((r) => closed.close(r));
  assert.equal(
    await failure(
      client.send({ method: 'POST', url: `http://127.0.0.1:${port}/`, body: '{}', connectTimeoutMs: 1000 }),
    ),
    { phase: 'connect', reason: 'refused' },
  );
});

test('readTimeoutMs: no answer after sending is an exchange timeout; a stalled body too', async () => {
  assert.equal(await failure(client.send({ method: 'POST', url: `${base}/hang`, body: '{}', readTimeoutMs: 100 })), {
    phase: 'exchange',
    reason: 'timeout',
  });
  assert.equal(await failure(client.send({ method: 'GET', url: `${base}/slow-body`, readTimeoutMs: 100 })), {
    phase: 'exchange',
    reason: 'timeout',
  });
});

test('a reset after sending is an exchange failure; the overall timeout, whose phase is unknown, counts as exchange', async () => {
  assert.equal((await failure(client.send({ method: 'POST', url: `${base}/reset`, body: '{}' })))?.phase, 'exchange');
  assert.equal(await failure(client.send({ method: 'POST', url: `${base}/hang`, body: '{}', timeoutMs: 100 })), {
    phase: 'exchange',
    reason: 'timeout',
  });
});

test('connectTimeoutMs: a connection that never completes its handshake fails in the connect phase', async () => {
  // a TCP listener that never speaks TLS: the https handshake, part of connecting, never ends
  const sockets: Socket[] = [];
  const silent = createNetServer((socket) => void sockets.push(socket));
  await new Promise<void>((r) => silent.listen(0, '127.0.0.1', r));
  try {
    const port = (silent.address() as AddressInfo).port;
    assert.equal(
      await failure(
        client.send({
          method: 'POST',
          url: `https://127.0.0.1:${port}/`,
          body: '{}',
          connectTimeoutMs: 150,
          timeoutMs: 5000,
        }),
      ),
      { phase: 'connect', reason: 'timeout' },
    );
  } finally {
    for (const socket of sockets) socket.destroy();
    await new Promise((r) => silent.close(r));
  }
});

test('the SSRF guard refuses in the connect phase; an answer still resolves as before', async () => {
  const guarded = createOutboundHttpClient();
  assert.equal(await failure(guarded.send({ method: 'GET', url: `${base}/` })), {
    phase: 'connect',
    reason: 'destination-refused',
  });
  await guarded.close();
  assert.is(
    (await client.send({ method: 'GET', url: `${base}/`, connectTimeoutMs: 500, readTimeoutMs: 500 })).body,
    'ok',
  );
});

test.run();
