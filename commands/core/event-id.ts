import { hash } from 'node:crypto';
import { v7 as uuidv7 } from 'uuid';

/** Fixed namespace for the platform's derived ids (a v4 generated once; never change it). */
export const PLATFORM_NAMESPACE = '6d1f6a52-8f64-4b7c-9d3e-2f1c0a7b9e10';
const NAMESPACE_BYTES = Buffer.from(PLATFORM_NAMESPACE.replace(/-/g, ''), 'hex');

const LONE_SURROGATE = /\p{Cs}/u;
const VARIANT = '89ab'; // the variant bits 10 over the hash's two low bits of that nibble

/** the namespace's 16 bytes, then room for a name's UTF-8 (grown when a name may not fit) */
let input = Buffer.alloc(16 + 1024);
NAMESPACE_BYTES.copy(input);

/**
 * RFC 9562 UUID version 5 of `name` in the platform's namespace: SHA-1 of the namespace's 16 bytes and the
 * name's UTF-8, version and variant bits set. The same ids the `uuid` package's v5 gives (a spec checks it);
 * written on node:crypto because every appended event takes one: one `hash` call over a reused buffer (a
 * Hash object per id and the package's byte conversions cost two to several times as much, measured).
 */
function uuidV5(name: string): string {
  // a lone surrogate has no UTF-8: encoding would turn it into U+FFFD and make two different names one id
  // (the uuid package refused such names too)
  if (LONE_SURROGATE.test(name))
    throw new TypeError('a derived id needs well-formed text: the name holds a lone surrogate');
  if (16 + 3 * name.length > input.length) {
    input = Buffer.alloc(16 + 3 * name.length); // a UTF-16 unit is at most 3 bytes of UTF-8
    NAMESPACE_BYTES.copy(input);
  }
  const n = input.write(name, 16, 'utf8');
  const h = hash('sha1', input.subarray(0, 16 + n), 'hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-5${h.slice(13, 16)}-${VARIANT[parseInt(h[16]!, 16) & 3]}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

/** a UUID version 7 (48 bits of Unix milliseconds first) opening the command id or its second segment */
const V7_AT = /(?:^|^[^/]*\/)([0-9a-f]{8}-[0-9a-f]{4})-7[0-9a-f]{3}-[89ab]/i;

/**
 * A fresh command id: a UUID version 7. The events it appends then get time-ordered ids (eventIdFor), and
 * time-ordered ids land at the end of the event store's id index instead of on a random page of it: in
 * the embedded store a commit of 7 events writes about half the pages (measured: 223 µs → 99 µs).
 */
export const newCommandId = (): string => uuidv7();

/**
 * The id of the i-th event a command appends to a stream. Deterministic, so an append retried with the
 * same command id carries the same event ids and the store treats it as the same write; the stream is part
 * of it because one command may write to several streams (a username reservation, then the user).
 *
 * The version 5 UUID of `commandId/stream/index`. When the command id starts with a UUID v7, or its second
 * `/` segment does (newCommandId, an audit record's id, `<v7>/0` of a batch entry, `attempt/<v7>`), the
 * first 48 bits are replaced by the v7's milliseconds and the version by 8: the id stays derived and keeps
 * 74 bits of the hash (distinct per index and stream, and a client choosing a v7 Idempotency-Key chooses
 * only the millisecond), and ids sort by the millisecond their commands were made in, which is all the
 * store's index needs. Ids of other command ids are byte for byte what stored logs hold; a v7 command id
 * made before this rule (an audit record's, a client's key) gives a new id on a retry across the upgrade.
 */
export function eventIdFor(commandId: string, index: number, stream = ''): string {
  const name = stream === '' ? `${commandId}/${index}` : `${commandId}/${stream}/${index}`;
  const id = uuidV5(name);
  const v7 = V7_AT.exec(commandId);
  return v7 === null ? id : `${v7[1]!.toLowerCase()}-8${id.slice(15)}`;
}

/** A stable id derived from any name (e.g. an attempt id from a delivery key). */
export const derivedId = (name: string): string => uuidV5(name);
