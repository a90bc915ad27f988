import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import {
  createSchemaCommands,
  createSchemaReader,
  createSchemaValidator,
  derivedSchemaId,
} from '../../../commands/bridge/schemas.commands.ts';
import { SCHEMA_ID } from '../../../domain/bridge/schema.decider.ts';
import { isDomainError } from '../../../domain/core/domain-error.ts';
import {
  PLATFORM_SCHEMA_IDS,
  platformSchemaDocuments,
  seedPlatformSchemas,
} from '../../../infra/bridge/platform-schemas.ts';
import { manualClock } from '../../../infra/core/clock.port.ts';
import { createSqliteEventStore } from '../../../infra/sqlite/event-store.sqlite.ts';
import { registryDocument } from '../../domain/bridge/schema-documents.ts';

const dir = mkdtempSync(path.join(tmpdir(), 'schema-validator-'));
const eventStore = createSqliteEventStore({ file: path.join(dir, 'events.sqlite') });
const clock = manualClock('2026-03-01T10:00:00.000Z');
const commands = createSchemaCommands({ eventStore, clock });
const validator = createSchemaValidator({ eventStore });
const acme = { tenant: 'acme', actor: 'admin@acme' };
const platform = { tenant: 'platform', actor: 'root@platform' };

const document = (version: string, order: Record<string, unknown>) =>
  registryDocument({
    title: 'orders',
    version,
    data: 'Order',
    schemas: {
      Order: order,
      Line: {
        type: 'object',
        required: ['sku', 'qty'],
        properties: {
          sku: { type: 'string' },
          qty: { type: 'integer', format: 'int32', minimum: 0, exclusiveMinimum: true },
        },
      },
    },
  });
const orderV1 = {
  type: 'object',
  required: ['orderId', 'amount', 'lines'],
  properties: {
    orderId: { type: 'string', pattern: '^O-[0-9]+$' },
    amount: { type: 'number', minimum: 0 },
    currency: { type: 'string', enum: ['EUR', 'USD'], nullable: true },
    placedAt: { type: 'string', format: 'date-time' },
    lines: { type: 'array', minItems: 1, items: { $ref: '#/components/schemas/Line' } },
  },
};
const orderV2 = {
  ...orderV1,
  required: [...orderV1.required, 'channel'],
  properties: { ...orderV1.properties, channel: { type: 'string' } },
};
const validOrder = {
  orderId: 'O-1',
  amount: 12.5,
  currency: null,
  placedAt: '2026-03-01T10:00:00+08:00',
  lines: [{ sku: 'A', qty: 1 }],
};

const ORDERS = '424242424242424';

type Ctx = Record<string, never>;
const test = suite<Ctx>('schema validator (SQLite)');

test.before(async () => {
  await commands.create({ schemaId: ORDERS, content: document('1', orderV1) }, acme, 'c-orders');
  await seedPlatformSchemas({ eventStore, clock });
});
test.after(async () => {
  await eventStore.close();
  rmSync(dir, { recursive: true, force: true });
});

async function rejects(p: Promise<unknown>, code: string, status: number): Promise<Record<string, unknown>> {
  try {
    await p;
  } catch (err) {
    assert.ok(isDomainError(err), String(err));
    assert.is(err.code, code);
    assert.is(err.status, status);
    return err.details as Record<string, unknown>;
  }
  return assert.unreachable(`expected ${code}`) as never;
}

test('valid data: null', async () => {
  assert.is(await validator.validate('acme', ORDERS, validOrder), null);
  assert.is(await validator.validate('acme', `${ORDERS}:1`, validOrder), null);
});

test('invalid data: every violation, each with its path under data', async () => {
  const violations = await validator.validate('acme', ORDERS, {
    orderId: 'X-1',
    amount: -1,
    currency: 'GBP',
    placedAt: 'yesterday',
    lines: [{ sku: 'A', qty: 0 }, { qty: 2.5 }],
  });
  assert.ok(violations !== null);
  const byPath = violations.map((v) => `${v.path} ${v.keyword}`).sort();
  assert.equal(byPath, [
    'data.amount minimum',
    'data.currency enum',
    'data.lines.0.qty exclusiveMinimum',
    'data.lines.1.qty format',
    'data.lines.1.qty type',
    'data.lines.1.sku required',
    'data.orderId pattern',
    'data.placedAt format',
  ]);
  assert.equal(
    violations.find((v) => v.path === 'data.lines.1.sku'),
    { path: 'data.lines.1.sku', message: 'is required', keyword: 'required' },
  );
  const missing = await validator.validate('acme', ORDERS, {});
  assert.equal(
    missing?.map((v) => v.path),
    ['data.orderId', 'data.amount', 'data.lines'],
  );
  assert.equal(await validator.validate('acme', ORDERS, 'not an object'), [
    { path: 'data', message: 'must be object', keyword: 'type' },
  ]);
});

test('versions: the latest by default, `id:version` for another; a new version is seen at once', async () => {
  const { added } = await commands.addVersion(ORDERS, { content: document('2', orderV2) }, acme, 'c-orders-v2');
  assert.ok(added);
  assert.equal(
    (await validator.validate('acme', ORDERS, validOrder))?.map((v) => v.path),
    ['data.channel'],
  );
  assert.is(await validator.validate('acme', `${ORDERS}:1`, validOrder), null);
  assert.is(await validator.validate('acme', `${ORDERS}:latest`, { ...validOrder, channel: 'web' }), null);
  // another validator (another process) agrees
  const other = createSchemaValidator({ eventStore });
  assert.equal(
    (await other.validate('acme', ORDERS, validOrder))?.map((v) => v.path),
    ['data.channel'],
  );
  const details = await rejects(validator.validate('acme', `${ORDERS}:9`, validOrder), 'SCHEMA.UNKNOWN', 400);
  assert.is(details.version, '9');
});

test("unknown, malformed and other tenants' ids: SCHEMA.UNKNOWN (400)", async () => {
  await rejects(validator.validate('acme', '999999999999999', {}), 'SCHEMA.UNKNOWN', 400);
  await rejects(validator.validate('acme', 'orders', {}), 'SCHEMA.UNKNOWN', 400);
  await rejects(validator.validate('acme', `${ORDERS}:bad:version`, {}), 'SCHEMA.UNKNOWN', 400);
  // acme's schema is not globex's
  await rejects(validator.validate('globex', ORDERS, validOrder), 'SCHEMA.UNKNOWN', 400);
});

test("platform schemas are visible to every tenant; the tenant's own schema of the same id comes first", async () => {
  const alert = {
    jobId: 'J-7',
    jobName: 'nightly-billing',
    status: 'FAILED',
    message: 'step 3 failed',
    tenant: 'acme',
    occurredAt: '2026-03-01T02:00:00Z',
    durationMs: null,
    recipients: ['ops@acme.example'],
  };
  assert.is(await validator.validate('acme', PLATFORM_SCHEMA_IDS.jobAlter, alert), null);
  assert.is(await validator.validate('globex', PLATFORM_SCHEMA_IDS.jobAlter, alert), null);
  assert.equal(
    (
      await validator.validate('globex', PLATFORM_SCHEMA_IDS.jobAlter, {
        ...alert,
        status: 'BROKEN',
        recipients: ['nope'],
      })
    )?.map((v) => v.path),
    ['data.status', 'data.recipients.0'],
  );
  // a platform schema created after a tenant took the same id: that tenant keeps its own
  const shared = '555555555555555';
  await commands.create({ schemaId: shared, content: document('1', orderV1) }, acme, 'c-shared-acme');
  await commands.create(
    { schemaId: shared, content: document('1', { type: 'object', required: ['platformOnly'] }) },
    platform,
    'c-shared-platform',
  );
  assert.is(await validator.validate('acme', shared, validOrder), null);
  assert.equal(
    (await validator.validate('globex', shared, validOrder))?.map((v) => v.path),
    ['data.platformOnly'],
  );
});

test('a deleted schema refuses new events (SCHEMA.UNKNOWN) but its versions stay readable', async () => {
  const id = '777777777777777';
  await commands.create({ schemaId: id, content: document('1', orderV1) }, acme, 'c-del');
  assert.is(await validator.validate('acme', id, validOrder), null);
  const { deleted } = await commands.delete(id, acme, 'c-del-1');
  assert.ok(deleted);
  const details = await rejects(validator.validate('acme', id, validOrder), 'SCHEMA.UNKNOWN', 400);
  assert.is(details.deleted, true);
  const schema = await createSchemaReader({ eventStore }).load('acme', id);
  assert.ok(schema?.deleted && schema.versions.length === 1);
  assert.is((await commands.delete(id, acme, 'c-del-2')).deleted, false);
});

test("commands: a derived 15-digit id, the same on a retry; a tenant cannot take a platform schema's id", async () => {
  const id = derivedSchemaId('acme', 'retry-me');
  assert.ok(SCHEMA_ID.test(id) && id.length === 15 && Number(id) < Number.MAX_SAFE_INTEGER);
  const first = await commands.create({ content: document('1', orderV1) }, acme, 'retry-me');
  const again = await commands.create({ content: document('1', orderV1) }, acme, 'retry-me');
  assert.is(first.schema.schemaId, id);
  assert.equal([first.created, again.created, again.schema.schemaId], [true, false, id]);
  assert.is(first.schema.name, 'orders'); // info.title
  assert.equal(
    first.schema.versions.map((v) => v.version),
    ['1'],
  ); // info.version
  assert.is(derivedSchemaId('globex', 'retry-me') === id, false);
  await rejects(
    commands.create({ schemaId: PLATFORM_SCHEMA_IDS.createUser, content: document('1', orderV1) }, acme, 'c-steal'),
    'SCHEMA.ALREADY_EXISTS',
    409,
  );
  // same version, same content: no-op; other content: 409
  const same = await commands.addVersion(ORDERS, { version: '1', content: document('1', orderV1) }, acme, 'c-same');
  assert.is(same.added, false);
  await rejects(
    commands.addVersion(ORDERS, { version: '1', content: document('1', orderV2) }, acme, 'c-change'),
    'SCHEMA.VERSION_IMMUTABLE',
    409,
  );
});

test('platform schemas: one per pre-set event type, seeded idempotently', async () => {
  const docs = platformSchemaDocuments();
  assert.equal(
    docs.map((d) => d.eventType),
    ['iam:User:CreateUser', 'product:Product:CreateProduct', 'batchv2:Alter:JobAlter', 'commhub:alert:DeadLetter'],
  );
  const again = await seedPlatformSchemas({ eventStore, clock });
  assert.equal(again, { created: [], versionsAdded: [] });
  const reader = createSchemaReader({ eventStore });
  for (const d of docs) {
    const schema = await reader.load('platform', d.schemaId);
    assert.is(schema?.name, d.name);
    assert.is(schema?.versions.length, 1);
  }
  assert.is(
    await validator.validate('acme', PLATFORM_SCHEMA_IDS.createUser, {
      userId: 'u1',
      tenant: 'acme',
      username: 'ann',
      email: null,
      createdAt: '2026-03-01T10:00:00Z',
    }),
    null,
  );
  assert.equal(
    (
      await validator.validate('acme', PLATFORM_SCHEMA_IDS.createProduct, {
        productCode: 'P1',
        productName: 'Car',
        status: 'ACTIVE',
        currency: 'eur',
        createdAt: 'now',
      })
    )?.map((v) => v.path),
    ['data.currency', 'data.createdAt'],
  );
});

test.run();
