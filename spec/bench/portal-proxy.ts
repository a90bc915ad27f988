// The portal's API calls beside the same calls made straight to the API: one request at a time, the
// portal's alternating with the direct ones (the machine's noise falls on both alike), over node:http with
// keep-alive sockets. The portal's call is the one its page sends: `/portal/api<API path>` with the session
// cookie of a real sign-in (the provider's login form) and the `x-portal` header; the direct call carries
// a bearer token. Used by the sections that seed a large store (workflow: the task search at 100,000
// tasks; audit: the records query at 1,000,000 records).
import http from 'node:http';
import { portalSignIn } from '../http/portal/portal-harness.ts';
import { quantile } from './report.ts';

const agent = new http.Agent({ keepAlive: true, maxSockets: 4 });

function request(
  url: string,
  headers: Record<string, string>,
  body: string,
): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      url,
      {
        method: 'POST',
        agent,
        headers: { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)), ...headers },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

export type Latency = { p50: number; p95: number; p99: number };

/**
 * `count` POSTs of `path` (the same body both ways) through the portal (signed in as `user` of `tenant`) and as many straight to the
 * API with `token`, alternating, after `warmup` of each; every answer must be 200 and pass `ok`.
 */
export async function portalBesideDirect(o: {
  base: string;
  user: { tenant: string; username: string; password: string };
  token: string;
  path: string;
  body: (i: number) => string;
  ok: (text: string) => boolean;
  count: number;
  warmup: number;
}): Promise<{ portal: Latency; direct: Latency }> {
  const { jar } = await portalSignIn(o.base, o.user);
  const via = {
    portal: { url: `${o.base}/portal/api${o.path}`, headers: { cookie: jar.header(), 'x-portal': '1' } },
    direct: { url: `${o.base}${o.path}`, headers: { authorization: `Bearer ${o.token}` } },
  };
  const one = async (kind: keyof typeof via, body: string): Promise<number> => {
    const started = performance.now();
    const r = await request(via[kind].url, via[kind].headers, body);
    const ms = performance.now() - started;
    if (r.status !== 200 || !o.ok(r.text))
      throw new Error(`${kind} ${o.path} answered ${r.status}: ${r.text.slice(0, 300)}`);
    return ms;
  };
  for (let i = 0; i < o.warmup; i++) {
    await one('portal', o.body(i));
    await one('direct', o.body(i));
  }
  const times = { portal: [] as number[], direct: [] as number[] };
  for (let i = 0; i < o.count; i++) {
    // the order alternates too: neither kind always runs on the socket the other just warmed
    const [a, b] = i % 2 === 0 ? (['portal', 'direct'] as const) : (['direct', 'portal'] as const);
    const body = o.body(i); // the same request both ways
    times[a].push(await one(a, body));
    times[b].push(await one(b, body));
  }
  const latency = (xs: number[]): Latency => {
    xs.sort((x, y) => x - y);
    return { p50: quantile(xs, 0.5), p95: quantile(xs, 0.95), p99: quantile(xs, 0.99) };
  };
  return { portal: latency(times.portal), direct: latency(times.direct) };
}
