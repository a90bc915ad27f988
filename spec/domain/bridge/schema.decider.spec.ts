import { test } from 'uvu';
import * as assert from 'uvu/assert';
import {
  canonicalJson,
  findVersion,
  latestVersion,
  MAX_DOCUMENT_CHARS,
  MAX_SCHEMA_VERSIONS,
  parseDataSchemaId,
  type SchemaCommand,
  type SchemaEvent,
  schemaDecider,
  schemaStream,
} from '../../../domain/bridge/schema.decider.ts';
import { fold } from '../../../domain/core/decider.ts';
import { isDomainError } from '../../../domain/core/domain-error.ts';
import { deciderSpec } from '../../core/decider-spec.ts';
import { registryDocument } from './schema-documents.ts';

const spec = deciderSpec(schemaDecider);
const now = '2026-03-01T10:00:00.000Z';
const later = '2026-03-02T10:00:00.000Z';

const document = (version = '1.0.0', orderProps: Record<string, unknown> = { orderId: { type: 'string' } }) =>
  registryDocument({
    title: 'orders',
    version,
    data: 'Order',
    schemas: { Order: { type: 'object', required: ['orderId'], properties: orderProps } },
  });

const create = (over: Partial<Extract<SchemaCommand, { type: 'CreateSchema' }>> = {}): SchemaCommand => ({
  type: 'CreateSchema',
  tenant: 'acme',
  schemaId: '123456789012345',
  name: 'Orders',
  description: 'order events',
  version: '1.0.0',
  content: document(),
  now,
  ...over,
});
const created: SchemaEvent = {
  type: 'SchemaCreated',
  data: { tenant: 'acme', schemaId: '123456789012345', name: 'Orders', description: 'order events', createdAt: now },
};
const v1: SchemaEvent = {
  type: 'SchemaVersionAdded',
  data: { tenant: 'acme', schemaId: '123456789012345', version: '1.0.0', content: document(), createdAt: now },
};
const addVersion = (version: string, content: unknown): SchemaCommand => ({
  type: 'AddSchemaVersion',
  version,
  content,
  now: later,
});

/** the SCHEMA.INVALID details' paths */
function invalidPaths(events: SchemaEvent[], command: SchemaCommand): string[] {
  try {
    schemaDecider.decide(command, fold(schemaDecider, events));
  } catch (err) {
    assert.ok(isDomainError(err));
    assert.is(err.code, 'SCHEMA.INVALID');
    assert.is(err.status, 400);
    return (err.details as Array<{ path: string }>).map((d) => d.path);
  }
  return assert.unreachable('expected SCHEMA.INVALID') as never;
}

test('stream name and dataSchemaId parsing', () => {
  assert.is(schemaStream('acme', '123'), 'schema-acme.123');
  assert.is(schemaStream('platform', '100000000000003'), 'schema-platform.100000000000003');
  assert.equal(parseDataSchemaId('123'), { schemaId: '123' });
  assert.equal(parseDataSchemaId('123:1.0.0'), { schemaId: '123', version: '1.0.0' });
  for (const bad of ['', '0', '0123', '1234567890123456', 'abc', '123:', '123:a:b', '123:-x'])
    assert.is(parseDataSchemaId(bad), null, bad);
});

test('create: SchemaCreated then the first SchemaVersionAdded', () => {
  spec.given([]).when(create()).then([created, v1]);
});

test('create: the name is trimmed, optional fields stay absent', () => {
  spec
    .given([])
    .when(create({ name: '  Orders ', description: undefined, bus: 'orders' }))
    .then([
      {
        type: 'SchemaCreated',
        data: { tenant: 'acme', schemaId: '123456789012345', name: 'Orders', bus: 'orders', createdAt: now },
      },
      v1,
    ]);
});

test('create: an existing schema is 409 SCHEMA.ALREADY_EXISTS', () => {
  spec.given([created, v1]).when(create()).thenThrows('SCHEMA.ALREADY_EXISTS', 409);
});

test('create: a bad id, name, version and document give one 400 listing every problem with its path', () => {
  const content = document();
  (content as Record<string, unknown>).openapi = '2.0';
  assert.equal(
    invalidPaths([], create({ schemaId: '0012', name: ' ', version: 'latest', bus: 'has space', content })),
    ['schemaId', 'name', 'bus', 'version', 'content.openapi'],
  );
  assert.equal(
    invalidPaths(
      [],
      create({
        version: 'v:1',
        content: document('1', { orderId: { type: 'strng' }, n: { type: 'number', exclusiveMinimum: 1 } }),
      }),
    ),
    [
      'version',
      'content.components.schemas.Order.properties.orderId.type',
      'content.components.schemas.Order.properties.n.exclusiveMinimum',
    ],
  );
});

test('create: a document above the size limit is 413 SCHEMA.TOO_LARGE', () => {
  const huge = document('1', { orderId: { type: 'string', description: 'x'.repeat(MAX_DOCUMENT_CHARS) } });
  spec
    .given([])
    .when(create({ content: huge }))
    .thenThrows('SCHEMA.TOO_LARGE', 413);
});

test('add version: a new version is appended and becomes the latest', () => {
  const v2doc = document('2.0.0', { orderId: { type: 'string' }, amount: { type: 'number' } });
  const added: SchemaEvent = {
    type: 'SchemaVersionAdded',
    data: { tenant: 'acme', schemaId: '123456789012345', version: '2.0.0', content: v2doc, createdAt: later },
  };
  spec.given([created, v1]).when(addVersion('2.0.0', v2doc)).then([added]);
  const state = fold(schemaDecider, [created, v1, added]);
  assert.is(state.status, 'exists');
  if (state.status !== 'exists') return;
  assert.is(latestVersion(state.schema)?.version, '2.0.0');
  assert.is(findVersion(state.schema, 'latest')?.version, '2.0.0');
  assert.is(findVersion(state.schema, '1.0.0')?.createdAt, now);
  assert.is(state.schema.updatedAt, later);
});

test('add version: an existing version with other content is 409 SCHEMA.VERSION_IMMUTABLE', () => {
  spec
    .given([created, v1])
    .when(addVersion('1.0.0', document('1.0.0', { orderId: { type: 'integer' } })))
    .thenThrows('SCHEMA.VERSION_IMMUTABLE', 409);
  // even when the other content would be invalid: the version exists, its content is what it is
  spec
    .given([created, v1])
    .when(addVersion('1.0.0', { openapi: 'nope' }))
    .thenThrows('SCHEMA.VERSION_IMMUTABLE', 409);
});

test('add version: the same content again is an idempotent no-op, whatever its key order', () => {
  spec.given([created, v1]).when(addVersion('1.0.0', document())).then([]);
  const reordered = JSON.parse(canonicalJson(document())) as unknown; // keys sorted: a different order than sent
  assert.is.not(JSON.stringify(reordered), JSON.stringify(document()));
  spec.given([created, v1]).when(addVersion('1.0.0', reordered)).then([]);
});

test('add version: invalid content is 400 with its problems; unknown schema 404; deleted schema 409', () => {
  assert.equal(invalidPaths([created, v1], addVersion('2', { ...document('2'), paths: 'none' })), ['content.paths']);
  assert.equal(invalidPaths([created, v1], addVersion('latest', document('3'))), ['version']);
  spec
    .given([])
    .when(addVersion('2', document('2')))
    .thenThrows('SCHEMA.NOT_FOUND', 404);
  const deleted: SchemaEvent = {
    type: 'SchemaDeleted',
    data: { tenant: 'acme', schemaId: '123456789012345', deletedAt: later },
  };
  spec
    .given([created, v1, deleted])
    .when(addVersion('2', document('2')))
    .thenThrows('SCHEMA.DELETED', 409);
});

test('add version: at most MAX_SCHEMA_VERSIONS versions', () => {
  const many: SchemaEvent[] = [created];
  for (let i = 0; i < MAX_SCHEMA_VERSIONS; i++) {
    many.push({
      type: 'SchemaVersionAdded',
      data: {
        tenant: 'acme',
        schemaId: '123456789012345',
        version: `v${i}`,
        content: document(`v${i}`),
        createdAt: now,
      },
    });
  }
  spec
    .given(many)
    .when(addVersion('one-more', document('one-more')))
    .thenThrows('SCHEMA.TOO_MANY_VERSIONS', 409);
  // an existing one is still an idempotent no-op
  spec
    .given(many)
    .when(addVersion('v3', document('v3')))
    .then([]);
});

test('delete: marks the schema deleted, keeps its versions; twice is a no-op; unknown 404', () => {
  const deleted: SchemaEvent = {
    type: 'SchemaDeleted',
    data: { tenant: 'acme', schemaId: '123456789012345', deletedAt: later },
  };
  spec.given([created, v1]).when({ type: 'DeleteSchema', now: later }).then([deleted]);
  spec.given([created, v1, deleted]).when({ type: 'DeleteSchema', now: later }).then([]);
  spec.given([]).when({ type: 'DeleteSchema', now: later }).thenThrows('SCHEMA.NOT_FOUND', 404);
  const state = fold(schemaDecider, [created, v1, deleted]);
  assert.ok(
    state.status === 'exists' &&
      state.schema.deleted &&
      state.schema.versions.length === 1 &&
      state.schema.deletedAt === later,
  );
});

test('canonicalJson sorts keys at every depth and keeps array order', () => {
  assert.is(
    canonicalJson({ b: 1, a: { d: [2, { y: 1, x: 0 }], c: null } }),
    '{"a":{"c":null,"d":[2,{"x":0,"y":1}]},"b":1}',
  );
  assert.is.not(canonicalJson([1, 2]), canonicalJson([2, 1]));
});

test('canonicalJson and the decider cope with any depth: a deep document is SCHEMA.INVALID naming the limit', () => {
  const nested = (levels: number) => {
    let v: Record<string, unknown> = {};
    for (let i = 0; i < levels; i++) v = { z: [i], a: v };
    return v;
  };
  const text = canonicalJson(nested(100_000)); // no stack overflow
  assert.ok(text.startsWith('{"a":{"a":{"a":') && text.endsWith(',"z":[99998]},"z":[99999]}'), text.slice(-40));
  // deep but small enough for MAX_DOCUMENT_CHARS: refused by the input limits, not by a RangeError
  const content = registryDocument({
    title: 'orders',
    version: '2.0.0',
    data: 'Order',
    schemas: { Order: { type: 'object', properties: { deep: nested(5_000) } } },
  });
  const paths = invalidPaths([created, v1], addVersion('2.0.0', content));
  assert.is(paths.length, 1);
  assert.match(paths[0]!, /^content\.components\.schemas\.Order\.properties\.deep\.a\.a/);
});

test.run();
