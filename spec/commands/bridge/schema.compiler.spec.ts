import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import {
  compileFailure,
  compileJsonSchema,
  compileProblems,
  toViolations,
} from '../../../commands/bridge/schema.compiler.ts';
import { businessDataJsonSchema } from '../../../domain/bridge/openapi-schema.ts';
import { registryDocument } from '../../domain/bridge/schema-documents.ts';

// The ajv glue of the schema registry (moved out of domain/): the conversion's own cases are in
// spec/domain/bridge/openapi-schema.spec.ts, which compiles with these functions.
const test = suite('schema compiler (ajv glue)');

const orders = registryDocument({
  title: 'orders',
  version: '1.0.0',
  data: 'Order',
  schemas: {
    Order: {
      type: 'object',
      required: ['orderId'],
      properties: {
        orderId: { type: 'string' },
        lines: { type: 'array', items: { $ref: '#/components/schemas/Line' } },
      },
    },
    Line: { type: 'object', properties: { qty: { type: 'integer', minimum: 1 } } },
  },
});

test('a registry document whose business-data schema compiles has no compile problems', () => {
  assert.equal(compileProblems(orders, 'content'), []);
});

test('a document whose business-data schema is missing answers the conversion problem', () => {
  const { components, ...rest } = orders;
  const { Cloudevents: _dropped, ...withoutCloudevents } = components.schemas as Record<string, unknown>;
  const problems = compileProblems({ ...rest, components: { schemas: withoutCloudevents } }, 'content');
  assert.equal(
    problems.map((p) => p.path),
    ['components.schemas'],
  );
});

test('compiled business-data schema validates event data; violations are dotted under data', () => {
  const converted = businessDataJsonSchema(orders);
  assert.ok('schema' in converted);
  const fn = compileJsonSchema(converted.schema);
  assert.ok(fn({ orderId: 'o1', lines: [{ qty: 2 }] }));
  assert.not.ok(fn({ lines: [{ qty: 0 }] }));
  assert.equal(
    toViolations(fn.errors ?? [], 'data')
      .map((v) => v.path)
      .sort(),
    ['data.lines.0.qty', 'data.orderId'],
  );
});

test('compile problems become SCHEMA.INVALID (400), as the decider answers its own problems', () => {
  const err = compileFailure([{ path: 'content.components.schemas.Order', message: 'does not compile: boom' }]);
  assert.is(err.code, 'SCHEMA.INVALID');
  assert.is(err.status, 400);
  assert.is(err.message, 'invalid schema: content.components.schemas.Order does not compile: boom');
  assert.equal(err.details, [{ path: 'content.components.schemas.Order', message: 'does not compile: boom' }]);
});

test.run();
