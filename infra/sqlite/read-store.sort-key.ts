import { isPlainObject, sortRank } from '../core/query/index.ts';

/*
 * A byte string whose memcmp order (SQLite's order for BLOBs) is compareForSort's order, so ORDER BY can
 * sort objects and arrays (and any value at a path json_extract cannot address) as MongoDB does.
 *
 * value   = type byte, payload (the type bytes follow sortRank; 0x00 ends a document or an array, so a
 *           shorter one sorts first)
 * number  = IEEE-754 big-endian, sign bit flipped for positives and all bits flipped for negatives
 * string  = UTF-8 (byte order = code point order) with 0x00 escaped as 00 FF, terminated by 00 01
 * object  = per field: type byte of the value, name as a string, value payload; then 0x00
 *           (MongoDB compares the value's type, then the name, then the value)
 * array   = per element: the element as a value; then 0x00
 * boolean = 00 / 01
 */

const typeByte = (v: unknown) => 0x10 + sortRank(v) * 0x10;

function pushString(out: number[], s: string): void {
  for (const byte of Buffer.from(s, 'utf8')) {
    out.push(byte);
    if (byte === 0) out.push(0xff);
  }
  out.push(0x00, 0x01);
}

function pushPayload(out: number[], v: unknown): void {
  if (v === null || v === undefined) return;
  if (typeof v === 'number') {
    const buf = Buffer.alloc(8);
    buf.writeDoubleBE(v === 0 ? 0 : v); // -0 sorts as 0
    if (buf[0]! & 0x80) for (let i = 0; i < 8; i++) buf[i] = ~buf[i]! & 0xff;
    else buf[0] = buf[0]! | 0x80;
    out.push(...buf);
  } else if (typeof v === 'string') {
    pushString(out, v);
  } else if (typeof v === 'boolean') {
    out.push(v ? 1 : 0);
  } else if (Array.isArray(v)) {
    for (const el of v) {
      out.push(typeByte(el));
      pushPayload(out, el);
    }
    out.push(0x00);
  } else if (isPlainObject(v)) {
    for (const [k, el] of Object.entries(v)) {
      out.push(typeByte(el));
      pushString(out, k);
      pushPayload(out, el);
    }
    out.push(0x00);
  } else {
    pushString(out, String(v));
  }
}

export function sortKey(value: unknown): Buffer {
  const out = [typeByte(value)];
  pushPayload(out, value);
  return Buffer.from(out);
}
