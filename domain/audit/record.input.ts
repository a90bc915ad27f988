import { gunzipSync, inflateRawSync, inflateSync } from 'node:zlib';
import ipaddr from 'ipaddr.js';
import { coreError } from '../core/core.errors.ts';
import { auditError } from './audit.errors.ts';
import { MAX_DATA_BYTES } from './audit.limits.ts';
import type { CompressType, RecordFields } from './record.ts';

/**
 * A `log/sync` body once its shape passed the request schema (types, lengths, unknown fields): the checks a
 * schema cannot make, and the defaults. The module is not known here (the transaction's, from the metadata).
 *
 * - `compress_type` (ours, the spec shows no values): `none` (default) — new_data and old_data are JSON text;
 *   `gzip` — each is base64 of the gzip (RFC 1952) of the JSON text; `deflate` — base64 of the zlib (RFC
 *   1950) stream, raw deflate (RFC 1951) accepted too. Decompressed at the write: a bad base64, a bad stream
 *   or text that is not UTF-8 is a 400 naming the field; the stored record holds the JSON text.
 * - new_data / old_data: JSON text or empty; at most MAX_DATA_BYTES once decompressed (a compressed payload
 *   stops inflating there: no decompression bomb).
 * - client_ip: an IPv4 address in dotted-quad form or an IPv6 address.
 */
export type RecordRequest = {
  transaction_name: string;
  transaction_vendor: string;
  business_code: string;
  client_ip: string;
  new_data: string;
  old_data: string;
  warning_type?: string;
  trace_id?: string;
  tags?: string[];
  compress_type?: CompressType;
};

export type RecordInput = Omit<RecordFields, 'module_name'>;

const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
const utf8 = new TextDecoder('utf-8', { fatal: true });

const invalidData = (field: string, message: string) =>
  auditError('AUDIT_RECORD.DATA_INVALID', `${field} ${message}`, [{ in: 'body', field, message }]);

const tooLarge = (field: string) =>
  auditError('AUDIT_RECORD.DATA_TOO_LARGE', `${field} is larger than ${MAX_DATA_BYTES} bytes once decompressed`, [
    {
      in: 'body',
      field,
      message: `must be at most ${MAX_DATA_BYTES} bytes of JSON text (decompressed)`,
      limit: MAX_DATA_BYTES,
    },
  ]);

function inflate(field: string, compressed: Buffer, type: 'gzip' | 'deflate'): Buffer {
  const options = { maxOutputLength: MAX_DATA_BYTES };
  const attempts = type === 'gzip' ? [gunzipSync] : [inflateSync, inflateRawSync];
  let failure: unknown;
  for (const attempt of attempts) {
    try {
      return attempt(compressed, options);
    } catch (err) {
      if (err instanceof RangeError || (err as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE')
        throw tooLarge(field);
      failure = err;
    }
  }
  throw invalidData(
    field,
    `is not a valid ${type} stream (${failure instanceof Error ? failure.message : String(failure)})`,
  );
}

/** the JSON text a data field carries, decompressed and checked */
export function dataText(field: string, value: string, compress: CompressType): string {
  if (value === '') return '';
  let text = value;
  if (compress !== 'none') {
    if (!BASE64.test(value)) throw invalidData(field, `is not base64 (compress_type ${compress})`);
    const bytes = inflate(field, Buffer.from(value, 'base64'), compress);
    try {
      text = utf8.decode(bytes);
    } catch {
      throw invalidData(field, 'is not UTF-8 text once decompressed');
    }
  } else if (Buffer.byteLength(value, 'utf8') > MAX_DATA_BYTES) throw tooLarge(field);
  if (text === '') return '';
  try {
    JSON.parse(text);
  } catch {
    throw invalidData(field, compress === 'none' ? 'is not JSON text' : 'is not JSON text once decompressed');
  }
  return text;
}

export const isIpAddress = (s: string): boolean => ipaddr.IPv4.isValidFourPartDecimal(s) || ipaddr.IPv6.isValid(s);

export function parseRecordRequest(body: RecordRequest): RecordInput {
  if (!isIpAddress(body.client_ip)) {
    throw coreError('REQUEST.INVALID', 'request validation failed: body.client_ip must be an IPv4 or IPv6 address', [
      { in: 'body', field: 'client_ip', message: 'must be an IPv4 or IPv6 address', keyword: 'format' },
    ]);
  }
  const compress_type = body.compress_type ?? 'none';
  return {
    transaction_name: body.transaction_name,
    transaction_vendor: body.transaction_vendor,
    business_code: body.business_code,
    client_ip: body.client_ip,
    new_data: dataText('new_data', body.new_data, compress_type),
    old_data: dataText('old_data', body.old_data, compress_type),
    warning_type: body.warning_type ?? 'INFO',
    trace_id: body.trace_id ?? '',
    tags: body.tags ?? [],
    compress_type,
  };
}
