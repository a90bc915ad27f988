import type { IpAddress, IpBlock } from './pattern.types.ts';

/**
 * IP addresses for the cidr matcher. One 128-bit space for both families: IPv4 a.b.c.d is the IPv4-mapped
 * IPv6 address ::ffff:a.b.c.d, and an IPv4 block /n is the block /(96+n) there. So "::ffff:10.0.0.1" in an
 * event is 10.0.0.1 (dual-stack sockets report IPv4 peers that way) and lies in 10.0.0.0/8, and ::/0 holds
 * every address. Text forms are strict: dotted quads of 0-255 without leading zeros (010 would read as octal
 * elsewhere), RFC 4291 IPv6 text with at most one "::" and an optional dotted quad at the end, no zone ids.
 */

const OCTET = /^(0|[1-9][0-9]{0,2})$/;
const HEXTET = /^[0-9a-fA-F]{1,4}$/;

function parseIpv4Groups(text: string): [number, number] | undefined {
  const parts = text.split('.');
  if (parts.length !== 4) return undefined;
  const octets: number[] = [];
  for (const p of parts) {
    if (!OCTET.test(p)) return undefined;
    const n = Number(p);
    if (n > 255) return undefined;
    octets.push(n);
  }
  const [a = 0, b = 0, c = 0, d = 0] = octets;
  return [(a << 8) | b, (c << 8) | d];
}

function parseHextets(parts: string[], allowTrailingIpv4: boolean): number[] | undefined {
  const groups: number[] = [];
  for (let i = 0; i < parts.length; i++) {
    const p = parts[i] ?? '';
    if (allowTrailingIpv4 && i === parts.length - 1 && p.includes('.')) {
      const v4 = parseIpv4Groups(p);
      if (!v4) return undefined;
      groups.push(...v4);
    } else if (HEXTET.test(p)) groups.push(parseInt(p, 16));
    else return undefined;
  }
  return groups;
}

function parseIpv6(text: string): IpAddress | undefined {
  const halves = text.split('::');
  if (halves.length > 2) return undefined;
  const split = (s: string) => (s === '' ? [] : s.split(':'));
  if (halves.length === 1) {
    const groups = parseHextets(split(text), true);
    return groups && groups.length === 8 ? groups : undefined;
  }
  const head = parseHextets(split(halves[0] ?? ''), false);
  const tail = parseHextets(split(halves[1] ?? ''), true);
  if (!head || !tail || head.length + tail.length > 7) return undefined;
  return [...head, ...new Array<number>(8 - head.length - tail.length).fill(0), ...tail];
}

export type ParsedIp = { readonly address: IpAddress; readonly family: 4 | 6 };

/** The address and the family it was written in, or undefined when the text is not an IP address. */
export function parseIp(text: string): ParsedIp | undefined {
  if (text.includes(':')) {
    const address = parseIpv6(text);
    return address ? { address, family: 6 } : undefined;
  }
  const v4 = parseIpv4Groups(text);
  return v4 ? { address: [0, 0, 0, 0, 0, 0xffff, ...v4], family: 4 } : undefined;
}

export const parseIpAddress = (text: string): IpAddress | undefined => parseIp(text)?.address;

/** Bit i (0 = most significant) of the 128-bit address. */
export const ipBit = (address: IpAddress, i: number): number => ((address[i >> 4] ?? 0) >> (15 - (i & 15))) & 1;

function masked(address: IpAddress, prefixLength: number): IpAddress {
  return address.map((g, i) => {
    const keep = Math.max(0, Math.min(16, prefixLength - i * 16));
    return keep === 0 ? 0 : g & ((0xffff << (16 - keep)) & 0xffff);
  });
}

const PREFIX_LENGTH = /^(0|[1-9][0-9]{0,2})$/;

/**
 * "address/length" or a bare address (a single address: /32 for IPv4, /128 for IPv6). Host bits past the
 * prefix are allowed and ignored (220.160.153.171/31 is 220.160.153.170/31), as event-ruler does.
 * Returns the block, or the reason the text is not a CIDR.
 */
export function parseCidr(text: string): IpBlock | string {
  const slash = text.indexOf('/');
  const addressText = slash < 0 ? text : text.slice(0, slash);
  const ip = parseIp(addressText);
  if (!ip) return `"${addressText}" is not an IPv4 or IPv6 address`;
  const max = ip.family === 4 ? 32 : 128;
  let length = max;
  if (slash >= 0) {
    const lengthText = text.slice(slash + 1);
    if (!PREFIX_LENGTH.test(lengthText)) return `prefix length "${lengthText}" is not a number 0-${max}`;
    length = Number(lengthText);
    if (length > max) return `prefix length ${length} is out of range 0-${max} for IPv${ip.family}`;
  }
  const prefixLength = ip.family === 4 ? 96 + length : length;
  return { address: masked(ip.address, prefixLength), prefixLength };
}

/** Whether the address lies in the block (a plain bit comparison; the compiled matcher uses a trie). */
export function blockContains(block: IpBlock, address: IpAddress): boolean {
  for (let i = 0; i < block.prefixLength; i++) if (ipBit(block.address, i) !== ipBit(address, i)) return false;
  return true;
}
