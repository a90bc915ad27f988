// The SSRF guard (infra/net/ssrf.guard.ts) and OUTBOUND_ALLOW (outbound-allow.ts): every refused range
// named, IPv4-mapped and embedded forms, the allowlist by name, address and CIDR, and — through the real
// outbound client against a real receiver on 127.0.0.1 — a name resolving to an internal address, a DNS
// answer that changes between the check and the connection (DNS rebinding), and the check of the address
// actually connected to. The resolvers are injected; wherever a broken guard could open a connection, the
// only address it could reach is on loopback (this machine's tests never send traffic elsewhere).
import type { LookupAddress, LookupOptions } from 'node:dns';
import { createServer, type Server } from 'node:http';
import type { AddressInfo, LookupFunction, Socket } from 'node:net';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { DESTINATION_REFUSED, isDestinationRefused } from '../../../infra/core/http-client.port.ts';
import { createOutboundAllowlist, parseOutboundAllow } from '../../../infra/net/outbound-allow.ts';
import { createOutboundHttpClient } from '../../../infra/net/outbound-http.client.ts';
import {
  createGuardedConnector,
  createSsrfGuard,
  nonPublicReason,
  type ResolvedAddress,
  type Resolver,
} from '../../../infra/net/ssrf.guard.ts';

const test = suite('SSRF guard: refused ranges, OUTBOUND_ALLOW, checks after DNS and at connect');

let server: Server;
let port = 0;
let hits = 0;
test.before(async () => {
  server = createServer((_req, res) => {
    hits++;
    res.writeHead(200, { 'content-type': 'text/plain' }).end('reached');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});
test.after(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

/** a resolver answering from a table, counting its calls; `then` answers the later calls (a DNS rebinding) */
function resolver(first: Record<string, string[]>, then: Record<string, string[]> = first) {
  const calls: string[] = [];
  const resolve: Resolver = async (host) => {
    const table = calls.some((c) => c === host) ? then : first;
    calls.push(host);
    return (table[host] ?? []).map((address): ResolvedAddress => ({ address, family: address.includes(':') ? 6 : 4 }));
  };
  return { resolve, calls };
}

async function refusedBy(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (err) {
    assert.ok(isDestinationRefused(err), `expected a refusal, got ${String(err)}`);
    return err as Error;
  }
  assert.unreachable('expected the destination to be refused');
  throw new Error('unreachable');
}

test('every non-public range is named; public addresses pass', () => {
  const cases: Array<[string, string | undefined]> = [
    ['127.0.0.1', 'a loopback address'],
    ['127.1.2.3', 'a loopback address'],
    ['10.1.2.3', 'a private address'],
    ['172.16.0.1', 'a private address'],
    ['192.168.1.1', 'a private address'],
    ['169.254.1.1', 'a link-local address'],
    ['169.254.169.254', 'a cloud metadata address'],
    ['169.254.170.2', 'a cloud metadata address'],
    ['100.64.0.1', 'a carrier-grade NAT (shared) address'],
    ['100.100.100.200', 'a cloud metadata address'],
    ['0.0.0.0', 'the unspecified address'],
    ['255.255.255.255', 'the broadcast address'],
    ['224.0.0.1', 'a multicast address'],
    ['192.0.2.7', 'a reserved address (not public unicast)'],
    ['::1', 'a loopback address'],
    ['::', 'the unspecified address'],
    ['fe80::1', 'a link-local address'],
    ['fc00::1', 'a unique-local IPv6 address'],
    ['fd12:3456::1', 'a unique-local IPv6 address'],
    ['fd00:ec2::254', 'a cloud metadata address'],
    ['ff02::1', 'a multicast address'],
    ['::ffff:127.0.0.1', 'a loopback address (IPv4-mapped 127.0.0.1)'],
    ['::ffff:7f00:1', 'a loopback address (IPv4-mapped 127.0.0.1)'],
    ['::ffff:10.0.0.1', 'a private address (IPv4-mapped 10.0.0.1)'],
    ['::ffff:169.254.169.254', 'a cloud metadata address (IPv4-mapped 169.254.169.254)'],
    ['64:ff9b::a00:1', 'a private address (NAT64 of 10.0.0.1)'],
    ['2002:7f00:1::1', 'a loopback address (6to4 of 127.0.0.1)'],
    ['::7f00:1', 'a reserved address (not public unicast)'],
    ['2001:db8::1', 'a reserved address (not public unicast)'],
    ['[::1]', 'a loopback address'],
    ['8.8.8.8', undefined],
    ['1.1.1.1', undefined],
    ['2606:4700:4700::1111', undefined],
    ['::ffff:8.8.8.8', undefined],
    ['64:ff9b::808:808', undefined],
  ];
  for (const [address, reason] of cases) assert.is(nonPublicReason(address), reason, address);
  assert.is(nonPublicReason('example.com'), 'not an IP address');
});

test('OUTBOUND_ALLOW: by name (exactly), by address (IPv4-mapped too) and by CIDR block', () => {
  const allow = createOutboundAllowlist('localhost, claims.internal., 127.0.0.1, 10.0.0.0/8, fd00::/8, [::1]');
  assert.ok(allow.allowsName('LOCALHOST'));
  assert.ok(allow.allowsName('claims.internal'));
  assert.not.ok(allow.allowsName('evil.claims.internal'), 'no wildcards');
  assert.ok(allow.allowsAddress('127.0.0.1'));
  assert.ok(allow.allowsAddress('::ffff:127.0.0.1'));
  assert.not.ok(allow.allowsAddress('127.0.0.2'));
  assert.ok(allow.allowsAddress('10.255.1.2'));
  assert.not.ok(allow.allowsAddress('11.0.0.1'));
  assert.ok(allow.allowsAddress('fd00:ec2::254'), 'an allowlisted block wins, metadata or not');
  assert.ok(allow.allowsAddress('::1'));
  assert.not.ok(allow.allowsAddress('fe80::1'));
  assert.throws(() => createOutboundAllowlist('10.0.0.0/40'), /OUTBOUND_ALLOW/);
  assert.equal(parseOutboundAllow(' , ').entries, []);
});

test('the guard: refusal messages say what and why; the allowlist lets through', async () => {
  const none = createSsrfGuard({
    allow: createOutboundAllowlist([]),
    resolve: resolver({ 'internal.test': ['10.0.0.5'] }).resolve,
  });
  assert.is(
    none.refusal('127.0.0.1', '127.0.0.1')?.message,
    'destination refused: 127.0.0.1 is a loopback address (allow it with OUTBOUND_ALLOW)',
  );
  assert.is(
    none.refusal('[::1]', '::1')?.message,
    'destination refused: ::1 is a loopback address (allow it with OUTBOUND_ALLOW)',
  );
  const err = none.refusal('127.0.0.1', '127.0.0.1')!;
  assert.equal([err.name, err.code, err.retryable], ['DestinationRefusedError', DESTINATION_REFUSED, false]);
  const byName = await refusedBy(none.check('internal.test'));
  assert.is(
    byName.message,
    'destination refused: internal.test resolves to 10.0.0.5, a private address (allow the name or the address with OUTBOUND_ALLOW)',
  );
  assert.is(none.refusal('8.8.8.8', '8.8.8.8'), undefined);

  const some = createSsrfGuard({
    allow: createOutboundAllowlist(['internal.test', '192.168.0.0/16']),
    resolve: resolver({ 'internal.test': ['10.0.0.5'], 'mixed.test': ['8.8.8.8', '192.168.1.1', '172.16.0.1'] })
      .resolve,
  });
  assert.equal(await some.check('internal.test'), [{ address: '10.0.0.5', family: 4 }]);
  assert.is(some.refusal('x', '192.168.7.7'), undefined);
  // one answer outside the allowlist refuses the name, whatever the others
  assert.match(
    (await refusedBy(some.check('mixed.test'))).message,
    /mixed\.test resolves to 172\.16\.0\.1, a private address/,
  );
});

test('the client refuses loopback and its IPv4-mapped form when not allowlisted: nothing reaches the receiver', async () => {
  const client = createOutboundHttpClient();
  const before = hits;
  const plain = await refusedBy(client.send({ method: 'POST', url: `http://127.0.0.1:${port}/`, body: 'x' }));
  assert.is(plain.message, 'destination refused: 127.0.0.1 is a loopback address (allow it with OUTBOUND_ALLOW)');
  const mapped = await refusedBy(client.send({ method: 'GET', url: `http://[::ffff:127.0.0.1]:${port}/` }));
  assert.match(mapped.message, /a loopback address \(IPv4-mapped 127\.0\.0\.1\)/);
  await refusedBy(client.send({ method: 'GET', url: 'file:///etc/passwd' }));
  assert.is(hits, before);
  await client.close();
});

test('a host name resolving to a private or metadata address is refused after DNS', async () => {
  // were the first check broken, the next answers point at loopback, which the check at connect refuses
  const dns = resolver(
    { 'internal.test': ['10.0.0.5'], 'meta.test': ['169.254.169.254'], 'meta6.test': ['fd00:ec2::254'] },
    { 'internal.test': ['127.0.0.1'], 'meta.test': ['127.0.0.1'], 'meta6.test': ['127.0.0.1'] },
  );
  const client = createOutboundHttpClient({ resolve: dns.resolve });
  const before = hits;
  assert.match(
    (await refusedBy(client.send({ method: 'GET', url: `http://internal.test:${port}/` }))).message,
    /internal\.test resolves to 10\.0\.0\.5, a private address/,
  );
  assert.match(
    (await refusedBy(client.send({ method: 'GET', url: `http://meta.test:${port}/latest/meta-data/` }))).message,
    /meta\.test resolves to 169\.254\.169\.254, a cloud metadata address/,
  );
  assert.match(
    (await refusedBy(client.send({ method: 'GET', url: `http://meta6.test:${port}/` }))).message,
    /fd00:ec2::254, a cloud metadata address/,
  );
  assert.equal(dns.calls, ['internal.test', 'meta.test', 'meta6.test'], 'refused at the first check');
  assert.is(hits, before);
  await client.close();
});

test('the allowlist by name, by address and by CIDR lets the call through (the connection checked again)', async () => {
  const dns = resolver({ 'receiver.test': ['127.0.0.1'] });
  for (const allow of [['receiver.test'], ['127.0.0.1'], ['127.0.0.0/8']]) {
    const client = createOutboundHttpClient({ allow, resolve: dns.resolve });
    const res = await client.send({ method: 'GET', url: `http://receiver.test:${port}/` });
    assert.equal([res.status, res.body], [200, 'reached'], allow.join());
    await client.close();
  }
  // before the call and at connect: the name is looked up twice per new connection
  assert.equal(dns.calls, Array(6).fill('receiver.test'));
});

test('DNS rebinding: an answer allowed at the check, a loopback one at connect: refused at connect', async () => {
  // 127.0.0.5 is allowlisted; the second answer (the connection's own lookup) is 127.0.0.1, which is not
  const dns = resolver({ 'rebind.test': ['127.0.0.5'] }, { 'rebind.test': ['127.0.0.1'] });
  const client = createOutboundHttpClient({ allow: ['127.0.0.5'], resolve: dns.resolve });
  const before = hits;
  const err = await refusedBy(client.send({ method: 'POST', url: `http://rebind.test:${port}/`, body: 'payload' }));
  assert.is(
    err.message,
    'destination refused: rebind.test resolves to 127.0.0.1, a loopback address (allow the name or the address with OUTBOUND_ALLOW)',
  );
  assert.equal(dns.calls, ['rebind.test', 'rebind.test'], 'the check, then the connection’s lookup');
  assert.is(hits, before, 'nothing reached the receiver');
  await client.close();
});

test('at connect, the address actually connected to is checked (a lookup that slipped past is caught)', async () => {
  const guard = createSsrfGuard({ allow: createOutboundAllowlist([]) });
  // a lookup that checks nothing: the connector's last check must still refuse the socket
  const leaky = ((
    _host: string,
    options: LookupOptions,
    cb: (err: Error | null, address: string | LookupAddress[], family?: number) => void,
  ) =>
    options.all === true
      ? cb(null, [{ address: '127.0.0.1', family: 4 }])
      : cb(null, '127.0.0.1', 4)) as LookupFunction;
  const connect = createGuardedConnector({ ...guard, lookup: leaky });
  const outcome = await new Promise<{ err: Error | null; socket: Socket | null }>((resolve) =>
    connect({ hostname: 'leaky.test', protocol: 'http:', port: String(port) }, (err, socket) =>
      resolve({ err, socket: socket as Socket | null }),
    ),
  );
  assert.ok(isDestinationRefused(outcome.err), String(outcome.err));
  assert.match(outcome.err!.message, /leaky\.test resolves to 127\.0\.0\.1, a loopback address/);
  assert.is(outcome.socket, null);
  // a literal address is refused before any socket opens
  const literal = await new Promise<Error | null>((resolve) =>
    connect({ hostname: '127.0.0.1', protocol: 'http:', port: String(port) }, (...args) => resolve(args[0])),
  );
  assert.ok(isDestinationRefused(literal));
});

test.run();
