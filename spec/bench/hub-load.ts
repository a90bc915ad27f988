// What the hub benchmarks (hub.bench.ts, hub-ab.ts) send and where the webhooks arrive.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createArrivals } from './arrivals.ts';

let sent = 0;
/** a send request for the bench definition (`bench-notice`, seeded by spec/http/hub/fixtures/hub-platform.ts), its payload varied per call */
export const sendBody = (requestId: string) => {
  const n = ++sent;
  return JSON.stringify({
    RequestId: requestId,
    NotificationCode: 'bench-notice',
    Payload: {
      amount: 120 + (n % 50),
      policyNo: `P-${n}`,
      customer: { id: `C-${n % 997}`, name: 'Jane Roe', email: `jane${n % 997}@example.com` },
    },
  });
};

export type WebhookReceiver = {
  url: string;
  /** resolves once every id has arrived, with the arrival time (performance.now()) of every id so far */
  arrived(ids: string[]): Promise<Map<string, number>>;
  close(): Promise<void>;
};

/**
 * A receiver on loopback that answers 202 at once and notes when each request first arrived: a webhook by
 * its body's RequestId, a direct POST by its `x-request-id` header.
 */
export async function startWebhookReceiver(): Promise<WebhookReceiver> {
  const arrivals = createArrivals();
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const direct = req.headers['x-request-id'];
      const id =
        typeof direct === 'string'
          ? direct
          : (JSON.parse(Buffer.concat(chunks).toString('utf8')) as { RequestId: string }).RequestId;
      arrivals.note(id);
      res.statusCode = 202;
      res.end('{"Accepted":true}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/notify`,
    arrived: arrivals.arrived,
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
