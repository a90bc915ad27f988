import type { LookupAddress, LookupOptions } from 'node:dns';
import { lookup as dnsLookup } from 'node:dns/promises';
import { isIP, type LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';
import { buildConnector } from 'undici';
import { DESTINATION_REFUSED, type DestinationRefusedError } from '../core/http-client.port.ts';
import { bareHost, type OutboundAllowlist } from './outbound-allow.ts';

/**
 * The SSRF guard of the outbound HTTP client: a destination whose address is not public unicast
 * (loopback, private, link-local, carrier-grade NAT, unique-local IPv6, multicast, reserved, a cloud
 * metadata address, or any of these IPv4-mapped, behind NAT64 or inside 6to4) is refused, unless
 * OUTBOUND_ALLOW names the host or covers the address (outbound-allow.ts).
 *
 * Checked twice, so DNS rebinding (a name that answers a public address to the check and a private one to
 * the connection) gets nothing:
 * 1. before the call (`check`): the URL's host, a literal address or every address its name resolves to
 *    (one refused answer refuses the destination: a name mixing public and internal answers is not one
 *    to trust);
 * 2. at connect (`createGuardedConnector`): the connection's own DNS lookup goes through the same check
 *    (so the address connected to is an address that was checked), literal addresses are checked before
 *    the socket opens, and the socket's remote address is checked once more after it connects.
 *
 * The resolver is injectable (tests give the answers a hostile DNS server would).
 */
export type ResolvedAddress = { address: string; family: number };
export type Resolver = (hostname: string) => Promise<readonly ResolvedAddress[]>;

export const systemResolver: Resolver = (hostname) => dnsLookup(hostname, { all: true });

/** Instance metadata services (AWS IPv4/IPv6 and ECS, Alibaba, Azure, Oracle): named as such when refused. */
const METADATA = new Set([
  '169.254.169.254',
  '169.254.170.2',
  '169.254.170.23',
  '100.100.100.200',
  '168.63.129.16',
  '192.0.0.192',
  'fd00:ec2::254',
  'fd00:ec2::23',
]);

const REASONS: Readonly<Record<string, string>> = {
  loopback: 'a loopback address',
  private: 'a private address',
  linkLocal: 'a link-local address',
  carrierGradeNat: 'a carrier-grade NAT (shared) address',
  uniqueLocal: 'a unique-local IPv6 address',
  unspecified: 'the unspecified address',
  broadcast: 'the broadcast address',
  multicast: 'a multicast address',
};
const RESERVED = 'a reserved address (not public unicast)';

const v4From = (hi: number, lo: number) => new ipaddr.IPv4([hi >> 8, hi & 0xff, lo >> 8, lo & 0xff]);

function v4Reason(addr: ipaddr.IPv4): string | undefined {
  if (METADATA.has(addr.toString())) return 'a cloud metadata address';
  const range = addr.range();
  return range === 'unicast' ? undefined : (REASONS[range] ?? RESERVED);
}

/**
 * Why `address` is not a public destination (`a loopback address`, `a private address (IPv4-mapped
 * 10.0.0.1)` …), or undefined when it is public unicast.
 */
export function nonPublicReason(address: string): string | undefined {
  let addr: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    addr = ipaddr.parse(bareHost(address));
  } catch {
    return 'not an IP address';
  }
  if (addr.kind() === 'ipv4') return v4Reason(addr as ipaddr.IPv4);
  const v6 = addr as ipaddr.IPv6;
  const p = v6.parts;
  if (v6.isIPv4MappedAddress()) {
    const v4 = v6.toIPv4Address();
    const why = v4Reason(v4);
    return why === undefined ? undefined : `${why} (IPv4-mapped ${v4.toString()})`;
  }
  if (METADATA.has(v6.toString())) return 'a cloud metadata address';
  const range = v6.range();
  // NAT64 (64:ff9b::/96) and 6to4 (2002::/16) reach the IPv4 address they embed
  if (range === 'rfc6052' && p[2] === 0 && p[3] === 0 && p[4] === 0 && p[5] === 0) {
    const v4 = v4From(p[6]!, p[7]!);
    const why = v4Reason(v4);
    return why === undefined ? undefined : `${why} (NAT64 of ${v4.toString()})`;
  }
  if (range === '6to4') {
    const v4 = v4From(p[1]!, p[2]!);
    const why = v4Reason(v4);
    return why === undefined ? undefined : `${why} (6to4 of ${v4.toString()})`;
  }
  if (range !== 'unicast') return REASONS[range] ?? RESERVED;
  // global unicast is 2000::/3; what ipaddr calls unicast outside it (::/96 IPv4-compatible …) is not public
  return (p[0]! & 0xe000) === 0x2000 ? undefined : RESERVED;
}

export function destinationRefused(message: string): DestinationRefusedError {
  return Object.assign(new Error(`destination refused: ${message}`), {
    name: 'DestinationRefusedError',
    code: DESTINATION_REFUSED,
    retryable: false,
  } as const);
}

export type SsrfGuard = {
  /** the refusal of calling `hostname` (the URL's host) at `address`, or undefined when allowed */
  refusal(hostname: string, address: string): DestinationRefusedError | undefined;
  /** the addresses of `hostname` (a literal address: itself), every one checked; rejects with the refusal */
  check(hostname: string): Promise<readonly ResolvedAddress[]>;
  /** net.connect's `lookup`, answering checked addresses only */
  lookup: LookupFunction;
};

export function createSsrfGuard(o: { allow: OutboundAllowlist; resolve?: Resolver }): SsrfGuard {
  const { allow } = o;
  const resolve = o.resolve ?? systemResolver;

  function refusal(hostname: string, address: string): DestinationRefusedError | undefined {
    const host = bareHost(hostname);
    if (allow.allowsName(host) || allow.allowsAddress(address)) return undefined;
    const why = nonPublicReason(address);
    if (why === undefined) return undefined;
    const bare = bareHost(address);
    return destinationRefused(
      host === bare || isIP(host) !== 0
        ? `${bare} is ${why} (allow it with OUTBOUND_ALLOW)`
        : `${host} resolves to ${bare}, ${why} (allow the name or the address with OUTBOUND_ALLOW)`,
    );
  }

  async function check(hostname: string): Promise<readonly ResolvedAddress[]> {
    const host = bareHost(hostname);
    const family = isIP(host);
    if (family !== 0) {
      const refused = refusal(host, host);
      if (refused !== undefined) throw refused;
      return [{ address: host, family }];
    }
    const answers = await resolve(host);
    if (answers.length === 0) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
    if (allow.allowsName(host)) return answers;
    for (const a of answers) {
      const refused = refusal(host, a.address);
      if (refused !== undefined) throw refused;
    }
    return answers;
  }

  const lookup = ((
    hostname: string,
    options: LookupOptions,
    callback: (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void,
  ) => {
    check(hostname).then(
      (answers) => {
        const wanted = options.family === 'IPv4' ? 4 : options.family === 'IPv6' ? 6 : options.family;
        const list = wanted === 4 || wanted === 6 ? answers.filter((a) => a.family === wanted) : answers;
        const first = list[0];
        if (first === undefined)
          return callback(Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' }), '', 0);
        if (options.all === true)
          return callback(
            null,
            list.map((a) => ({ address: a.address, family: a.family })),
          );
        return callback(null, first.address, first.family);
      },
      (err: unknown) => callback(err as NodeJS.ErrnoException, '', 0),
    );
  }) as LookupFunction;

  return { refusal, check, lookup };
}

/**
 * undici's connector with the guard at connect: a literal address is checked before the socket opens, a
 * name is resolved by the guard's lookup (only checked addresses are connected to), and the socket's
 * remote address is checked once it is connected (destroyed if refused).
 */
export function createGuardedConnector(
  guard: SsrfGuard,
  options: { timeoutMs?: number } = {},
): buildConnector.connector {
  const connect = buildConnector({
    lookup: guard.lookup,
    ...(options.timeoutMs !== undefined && { timeout: options.timeoutMs }),
  });
  return (opts, callback) => {
    const host = bareHost(opts.hostname);
    if (isIP(host) !== 0) {
      const refused = guard.refusal(host, host);
      if (refused !== undefined) return callback(refused, null);
    }
    connect(opts, (...args) => {
      const [err, socket] = args;
      if (err !== null) return callback(err, null);
      const remote = socket.remoteAddress;
      const refused =
        remote === undefined
          ? destinationRefused(`${host}: the connection has no remote address`)
          : guard.refusal(host, remote);
      if (refused !== undefined) {
        socket.destroy();
        return callback(refused, null);
      }
      callback(null, socket);
    });
  };
}
