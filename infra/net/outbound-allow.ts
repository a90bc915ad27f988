import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

/**
 * OUTBOUND_ALLOW: the destinations the SSRF guard (ssrf.guard.ts) lets through although their address is
 * not public — comma-separated host names (`localhost`, `claims.internal`), addresses (`127.0.0.1`, `::1`,
 * `[::1]`) and CIDR blocks (`10.0.0.0/8`, `fd00::/8`). Used by the tests and the demo (receivers on
 * loopback) and by deployments whose receivers live on the private network.
 *
 * - A host name matches the URL's host exactly (case-insensitive, a trailing dot ignored): every address
 *   it resolves to is then allowed. No wildcards: a name is a decision about one host.
 * - An address or a CIDR block matches the address resolved (or written in the URL), IPv4-mapped IPv6
 *   addresses (`::ffff:10.1.2.3`) being compared as the IPv4 address they are.
 */
export type OutboundAllowlist = {
  /** the entries as given (normalised: trimmed, lower-case, brackets and trailing dots removed) */
  readonly entries: readonly string[];
  /** the URL's host name is allowlisted by name */
  allowsName(hostname: string): boolean;
  /** the address is allowlisted (by address or CIDR block) */
  allowsAddress(address: string): boolean;
};

type Block = [ipaddr.IPv4 | ipaddr.IPv6, number];

const HOST_NAME =
  /^(?=.{1,253}$)[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?(?:\.[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?)*$/;

/** `[::1]` → `::1`, `Example.COM.` → `example.com` */
export const bareHost = (host: string): string => {
  const h = host.trim().toLowerCase();
  const unbracketed = h.startsWith('[') && h.endsWith(']') ? h.slice(1, -1) : h;
  return unbracketed.endsWith('.') && isIP(unbracketed) === 0 ? unbracketed.slice(0, -1) : unbracketed;
};

/** an address as ipaddr parses it, IPv4-mapped IPv6 turned into its IPv4 address */
export function parseAddress(address: string): ipaddr.IPv4 | ipaddr.IPv6 | undefined {
  const a = bareHost(address);
  if (isIP(a) === 0) return undefined;
  try {
    return ipaddr.process(a);
  } catch {
    return undefined;
  }
}

function parseBlock(entry: string): Block | string {
  const slash = entry.indexOf('/');
  const base = entry.slice(0, slash);
  const bits = entry.slice(slash + 1);
  if (isIP(base) === 0 || !/^\d{1,3}$/.test(bits)) return `"${entry}" is not a CIDR block (address/prefix length)`;
  const prefix = Number(bits);
  const addr = ipaddr.parse(base);
  const max = addr.kind() === 'ipv4' ? 32 : 128;
  if (prefix > max) return `"${entry}" has a prefix length above ${max}`;
  // an IPv4-mapped block (::ffff:10.0.0.0/104) is the IPv4 block it maps
  if (addr.kind() === 'ipv6' && (addr as ipaddr.IPv6).isIPv4MappedAddress() && prefix >= 96)
    return [(addr as ipaddr.IPv6).toIPv4Address(), prefix - 96];
  return [addr, prefix];
}

/**
 * Parses OUTBOUND_ALLOW (a comma-separated string or a list): the entries, and one problem per entry that
 * is neither a host name, an address nor a CIDR block (empty entries are skipped).
 */
export function parseOutboundAllow(raw: string | readonly string[] | undefined): {
  entries: string[];
  problems: string[];
} {
  const items = raw === undefined ? [] : typeof raw === 'string' ? raw.split(',') : [...raw];
  const entries: string[] = [];
  const problems: string[] = [];
  for (const item of items) {
    const entry = bareHost(item);
    if (entry === '') continue;
    if (entry.includes('/')) {
      const block = parseBlock(entry);
      if (typeof block === 'string') problems.push(`OUTBOUND_ALLOW: ${block}`);
      else entries.push(entry);
    } else if (isIP(entry) !== 0 || HOST_NAME.test(entry)) entries.push(entry);
    else problems.push(`OUTBOUND_ALLOW: "${item.trim()}" is not a host name, an IP address or a CIDR block`);
  }
  return { entries, problems };
}

/** The allowlist over OUTBOUND_ALLOW entries; throws on an entry that is not one (validated at start). */
export function createOutboundAllowlist(raw: string | readonly string[] | undefined): OutboundAllowlist {
  const { entries, problems } = parseOutboundAllow(raw);
  if (problems.length > 0) throw new Error(problems.join('; '));
  const names = new Set<string>();
  const blocks: Block[] = [];
  for (const entry of entries) {
    if (entry.includes('/')) blocks.push(parseBlock(entry) as Block);
    else if (isIP(entry) !== 0) {
      const addr = parseAddress(entry)!;
      blocks.push([addr, addr.kind() === 'ipv4' ? 32 : 128]);
    } else names.add(entry);
  }
  return {
    entries,
    allowsName: (hostname) => names.size > 0 && names.has(bareHost(hostname)),
    allowsAddress(address) {
      if (blocks.length === 0) return false;
      const addr = parseAddress(address);
      if (addr === undefined) return false;
      return blocks.some(([base, prefix]) => base.kind() === addr.kind() && addr.match(base, prefix));
    },
  };
}
