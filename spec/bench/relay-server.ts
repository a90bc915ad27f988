// The delivery benchmark's reference relay (spec/bench/delivery.bench.ts): express takes a putEvent-shaped
// POST, answers an id at once and forwards the body to the receiver over a keep-alive undici pool, storing
// nothing. What HTTP in and HTTP out cost a Node.js process without a log, read models or checks: the
// ceiling a bridge on the same machine can approach.
// Usage: node --import tsx relay-server.ts <receiverBaseUrl>; prints `READY {"url"}`; stops on SIGTERM.
import type { AddressInfo } from 'node:net';
import express from 'express';
import { Agent } from 'undici';

const [receiver] = process.argv.slice(2);
const agent = new Agent();
const app = express();
app.use(express.json());
let seq = 0;
app.post('/put', (req, res) => {
  const id = `relay-${process.pid}-${++seq}`;
  res.json({ eventId: id });
  void agent
    .request({
      origin: receiver!,
      path: '/eventbridge/receivedEvent',
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-delivery-id': id },
      body: JSON.stringify(req.body),
    })
    .then((r) => r.body.text())
    .catch(() => undefined); // a lost forward shows as an arrival that never comes
});
const server = app.listen(0, '127.0.0.1', () => {
  process.stdout.write(
    `READY ${JSON.stringify({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` })}\n`,
  );
});
process.once('SIGTERM', () => {
  server.closeAllConnections();
  server.close(() => process.exit(0));
});
