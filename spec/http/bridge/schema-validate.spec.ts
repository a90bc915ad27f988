// Checking an event against a schema version without publishing it (POST …/schemas/{id}/versions/{version}/validate),
// over HTTP on the whole platform: the answer putEvent's schema check would give, 404s for unknown schemas
// and versions, 400 for a body that is neither data nor an event, and tenancy like the registry's reads.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { registryDocument } from '../../domain/bridge/schema-documents.ts';
import { ADMIN, type BridgePlatform, startBridgePlatform } from './bridge-harness.ts';

const test = suite('schema version validate');
let p: BridgePlatform;
let acme: string;
let beta: string;
let schemaId = '';

const order = (version: string) =>
  registryDocument({
    title: 'Order placed',
    version,
    data: 'Order',
    schemas: {
      Order: {
        type: 'object',
        required: ['orderId'],
        properties: { orderId: { type: 'integer' }, region: { type: 'string', enum: ['eu', 'us'] } },
      },
    },
  });
const validate = (body: unknown, version = '1.0.0', token = acme, id = schemaId) =>
  p.call('POST', `${ADMIN}/schemas/${id}/versions/${version}/validate`, { token, body });

test.before(async () => {
  p = await startBridgePlatform();
  acme = await p.token('acme');
  beta = await p.token('beta');
  const created = await p.call('POST', `${ADMIN}/schemas`, { token: acme, body: { content: order('1.0.0') } });
  assert.is(created.status, 201, JSON.stringify(created.body));
  schemaId = created.body.schemaId;
});
test.after(async () => {
  await p?.stop();
});

test('good data is valid; bad data names each field as putEvent would', async () => {
  const good = await validate({ data: { orderId: 7, region: 'eu' } });
  assert.is(good.status, 200);
  assert.equal(good.body, { valid: true, schemaId, version: '1.0.0', errors: [] });

  const bad = await validate({ data: { region: 'mars' } });
  assert.is(bad.status, 200);
  assert.is(bad.body.valid, false);
  const fields = (bad.body.errors as Array<{ field: string; keyword: string }>).map((e) => `${e.field} ${e.keyword}`);
  assert.ok(fields.includes('data.orderId required'), fields.join(', '));
  assert.ok(fields.includes('data.region enum'), fields.join(', '));
});

test('an event as putEvent takes it: its data is checked; `latest` is the newest version', async () => {
  const r = await validate(
    { event: { source: 'shop:checkout', type: 'shop:Order:Placed', data: { orderId: 'x' } } },
    'latest',
  );
  assert.is(r.status, 200);
  assert.is(r.body.version, '1.0.0');
  assert.equal(
    r.body.errors.map((e: { field: string }) => e.field),
    ['data.orderId'],
  );
});

test('a body that is neither data nor an event is 400; unknown schemas and versions are 404', async () => {
  assert.is((await validate({})).status, 400);
  assert.is((await validate({ data: 1, event: { data: 1 } })).status, 400);
  assert.is((await validate({ event: { source: 'x' } })).status, 400);
  const noVersion = await validate({ data: {} }, '9.9.9');
  assert.is(noVersion.status, 404);
  assert.is(noVersion.body.code, 'SCHEMA.VERSION_NOT_FOUND');
  assert.is((await validate({ data: {} }, '1.0.0', acme, '999999999999999')).body.code, 'SCHEMA.NOT_FOUND');
});

test('another tenant does not see the schema (404); a token without bridge:admin is 403', async () => {
  const other = await validate({ data: { orderId: 1 } }, '1.0.0', beta);
  assert.is(other.status, 404);
  assert.is(other.body.code, 'SCHEMA.NOT_FOUND');
  const publisher = await p.token('acme', ['bridge:publish']);
  assert.is((await validate({ data: { orderId: 1 } }, '1.0.0', publisher)).status, 403);
  const anonymous = await p.call('POST', `${ADMIN}/schemas/${schemaId}/versions/1.0.0/validate`, {
    body: { data: {} },
  });
  assert.is(anonymous.status, 401);
});

test.run();
