import { createHash } from 'node:crypto';

/** Fixed namespace for the platform's derived ids (a v4 generated once; never change it). */
export const PLATFORM_NAMESPACE = '6d1f6a52-8f64-4b7c-9d3e-2f1c0a7b9e10';
const NAMESPACE_BYTES = Buffer.from(PLATFORM_NAMESPACE.replace(/-/g, ''), 'hex');

const LONE_SURROGATE = /\p{Cs}/u;
const HEX = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'));

/**
 * RFC 9562 UUID version 5 of `name` in the platform's namespace: SHA-1 of the namespace's 16 bytes and the
 * name's UTF-8, version and variant bits set. The same ids the `uuid` package's v5 gives (a spec checks it);
 * written on node:crypto because every appended event takes one and the package's byte conversions cost
 * several times the hash.
 */
function uuidV5(name: string): string {
  // a lone surrogate has no UTF-8: encoding would turn it into U+FFFD and make two different names one id
  // (the uuid package refused such names too)
  if (LONE_SURROGATE.test(name)) throw new TypeError('a derived id needs well-formed text: the name holds a lone surrogate');
  const h = createHash('sha1').update(NAMESPACE_BYTES).update(name, 'utf8').digest();
  h[6] = (h[6]! & 0x0f) | 0x50;
  h[8] = (h[8]! & 0x3f) | 0x80;
  return (
    HEX[h[0]!]! + HEX[h[1]!]! + HEX[h[2]!]! + HEX[h[3]!]! + '-' + HEX[h[4]!]! + HEX[h[5]!]! + '-' + HEX[h[6]!]! + HEX[h[7]!]! + '-' +
    HEX[h[8]!]! + HEX[h[9]!]! + '-' + HEX[h[10]!]! + HEX[h[11]!]! + HEX[h[12]!]! + HEX[h[13]!]! + HEX[h[14]!]! + HEX[h[15]!]!
  );
}

/**
 * The id of the i-th event a command appends to a stream. Deterministic, so an append retried with the
 * same command id carries the same event ids and the store treats it as the same write; the stream is part
 * of it because one command may write to several streams (a username reservation, then the user).
 */
export const eventIdFor = (commandId: string, index: number, stream = ''): string =>
  uuidV5(stream === '' ? `${commandId}/${index}` : `${commandId}/${stream}/${index}`);

/** A stable id derived from any name (e.g. an attempt id from a delivery key). */
export const derivedId = (name: string): string => uuidV5(name);
