#!/usr/bin/env node
// A webhook receiver for the tours: prints every request it gets (method, path, the delivery headers and
// the body) and answers 204. Usage: node examples/receiver.mjs [port]   (default 9099, on 127.0.0.1)
import { createServer } from 'node:http';

const port = Number(process.argv[2] ?? process.env.RECEIVER_PORT ?? 9099);
const shown = [
  'content-type',
  'idempotency-key',
  'webhook-id',
  'webhook-timestamp',
  'webhook-signature',
  'x-delivery-id',
  'x-comm-callback-id',
  'authorization',
];

createServer((req, res) => {
  const chunks = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', () => {
    const headers = Object.fromEntries(
      shown
        .filter((h) => req.headers[h] !== undefined)
        .map((h) => [h, h === 'authorization' ? 'Bearer …' : req.headers[h]]),
    );
    console.log(`${req.method} ${req.url} ${JSON.stringify(headers)}\n${Buffer.concat(chunks).toString('utf8')}\n`);
    res.writeHead(204).end();
  });
}).listen(port, '127.0.0.1', () => console.log(`receiver listening on http://127.0.0.1:${port}`));
