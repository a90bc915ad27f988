import { deflateRawSync, deflateSync, gzipSync } from 'node:zlib';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { MAX_DATA_BYTES } from '../../../domain/audit/audit.limits.ts';
import { parseRecordRequest, type RecordRequest } from '../../../domain/audit/record.input.ts';
import { isDomainError } from '../../../domain/core/domain-error.ts';

const test = suite('audit record input');
const minimal: RecordRequest = {
  transaction_name: 'create',
  transaction_vendor: 'v1',
  business_code: 'PolicyNo:1',
  client_ip: '10.1.2.3',
  new_data: '{"a":1}',
  old_data: '',
};
const b64 = (b: Buffer) => b.toString('base64');

const rejects = (body: Partial<RecordRequest>, code: string, field: string) => {
  try {
    parseRecordRequest({ ...minimal, ...body } as RecordRequest);
    assert.unreachable(`expected ${code}`);
  } catch (err) {
    if (err instanceof assert.Assertion) throw err;
    assert.ok(isDomainError(err), String(err));
    assert.is(err.code, code);
    assert.is(err.status, 400);
    assert.is((err.details as Array<{ field: string }>)[0]!.field, field);
  }
};

test('the minimal form gets its defaults', () => {
  assert.equal(parseRecordRequest(minimal), {
    transaction_name: 'create',
    transaction_vendor: 'v1',
    business_code: 'PolicyNo:1',
    client_ip: '10.1.2.3',
    new_data: '{"a":1}',
    old_data: '',
    warning_type: 'INFO',
    trace_id: '',
    tags: [],
    compress_type: 'none',
  });
});

test('client_ip: IPv4 dotted quads and IPv6', () => {
  for (const ip of ['127.0.0.1', '::1', '2001:db8::7', '::ffff:10.0.0.1'])
    assert.is(parseRecordRequest({ ...minimal, client_ip: ip }).client_ip, ip);
  for (const ip of ['1', '10.0.0.256', 'localhost', '1.2.3.4.5', ''])
    rejects({ client_ip: ip }, 'REQUEST.INVALID', 'client_ip');
});

test('data must be JSON text or empty', () => {
  rejects({ new_data: '{a:1}' }, 'AUDIT_RECORD.DATA_INVALID', 'new_data');
  rejects({ old_data: 'not json' }, 'AUDIT_RECORD.DATA_INVALID', 'old_data');
  assert.is(parseRecordRequest({ ...minimal, new_data: '' }).new_data, '');
  assert.is(parseRecordRequest({ ...minimal, new_data: '42' }).new_data, '42');
});

test('gzip and deflate (zlib or raw) are base64 of the compressed JSON text, stored decompressed', () => {
  const text = JSON.stringify({ policy: 'P-1', premium: 120.5, notes: 'é ✓' });
  for (const [compress_type, packed] of [
    ['gzip', gzipSync(text)],
    ['deflate', deflateSync(text)],
    ['deflate', deflateRawSync(text)],
  ] as const) {
    const r = parseRecordRequest({ ...minimal, compress_type, new_data: b64(packed), old_data: b64(packed) });
    assert.is(r.new_data, text);
    assert.is(r.old_data, text);
    assert.is(r.compress_type, compress_type);
  }
  assert.is(
    parseRecordRequest({ ...minimal, compress_type: 'gzip', old_data: '', new_data: b64(gzipSync('{}')) }).old_data,
    '',
  );
});

test('bad base64, a bad stream, non-UTF-8 or non-JSON content: 400 naming the field', () => {
  rejects({ compress_type: 'gzip', new_data: 'not base64!' }, 'AUDIT_RECORD.DATA_INVALID', 'new_data');
  rejects(
    { compress_type: 'gzip', new_data: b64(Buffer.from('plain text, not gzip')) },
    'AUDIT_RECORD.DATA_INVALID',
    'new_data',
  );
  rejects(
    { compress_type: 'deflate', new_data: '', old_data: b64(gzipSync('{}').subarray(0, 8)) },
    'AUDIT_RECORD.DATA_INVALID',
    'old_data',
  );
  rejects(
    { compress_type: 'gzip', new_data: b64(gzipSync(Buffer.from([0xff, 0xfe, 0x00]))) },
    'AUDIT_RECORD.DATA_INVALID',
    'new_data',
  );
  rejects({ compress_type: 'gzip', new_data: b64(gzipSync('not json')) }, 'AUDIT_RECORD.DATA_INVALID', 'new_data');
});

test('oversized data, a decompression bomb included: 400 DATA_TOO_LARGE', () => {
  const big = `"${'x'.repeat(MAX_DATA_BYTES)}"`;
  rejects({ new_data: big }, 'AUDIT_RECORD.DATA_TOO_LARGE', 'new_data');
  // 64 MiB of zeros compress to ~64 KiB: inflating stops at the limit
  rejects(
    { compress_type: 'gzip', new_data: b64(gzipSync(Buffer.alloc(64 * 1024 * 1024, 0x20))) },
    'AUDIT_RECORD.DATA_TOO_LARGE',
    'new_data',
  );
  const exactly = `"${'x'.repeat(MAX_DATA_BYTES - 2)}"`;
  assert.is(
    parseRecordRequest({ ...minimal, compress_type: 'gzip', new_data: b64(gzipSync(exactly)) }).new_data.length,
    MAX_DATA_BYTES,
  );
});

test.run();
