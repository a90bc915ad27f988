import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { compileJsonSchema, toViolations } from '../../../commands/bridge/schema.compiler.ts';
import {
  businessDataJsonSchema,
  businessDataSchemaName,
  openApiToJsonSchema,
  registryDocumentProblems,
} from '../../../domain/bridge/openapi-schema.ts';
import { cloudeventsSchema } from './schema-documents.ts';

/** converts (asserting no problems) and compiles */
const compile = (schema: unknown, components: Record<string, unknown> = {}) => {
  const { schema: converted, problems } = openApiToJsonSchema(schema, { components });
  assert.equal(problems, [], `unexpected problems: ${JSON.stringify(problems)}`);
  const fn = compileJsonSchema(converted);
  return (data: unknown) => (fn(data) ? [] : toViolations(fn.errors ?? [], 'data'));
};
const ok = (v: ReturnType<ReturnType<typeof compile>>) => assert.equal(v, []);
const fails = (v: ReturnType<ReturnType<typeof compile>>, path: string, keyword?: string) =>
  assert.ok(
    v.some((x) => x.path === path && (keyword === undefined || x.keyword === keyword)),
    `expected a violation at ${path}${keyword ? ` (${keyword})` : ''}, got ${JSON.stringify(v)}`,
  );
const problemPaths = (schema: unknown, components: Record<string, unknown> = {}) =>
  openApiToJsonSchema(schema, { components, path: 'root' })
    .problems.map((p) => p.path)
    .sort();

// ---- conversion ----

const conversion = suite('OpenAPI 3.0 Schema Object → JSON Schema draft-07');

conversion('nullable: true with a type becomes [type, "null"]; without nullable null is refused', () => {
  const { schema } = openApiToJsonSchema({ type: 'string', nullable: true });
  assert.equal(schema, { type: ['string', 'null'] });
  const nullableString = compile({
    type: 'object',
    properties: { a: { type: 'string', nullable: true }, b: { type: 'string' } },
  });
  ok(nullableString({ a: null, b: 'x' }));
  ok(nullableString({ a: 'y' }));
  fails(nullableString({ a: 1 }), 'data.a', 'type');
  fails(nullableString({ b: null }), 'data.b', 'type');
  const notNullable = compile({ type: 'integer', nullable: false });
  fails(notNullable(null), 'data', 'type');
});

conversion('nullable: true adds null to an enum', () => {
  const { schema } = openApiToJsonSchema({ type: 'string', enum: ['A', 'B'], nullable: true });
  assert.equal(schema, { type: ['string', 'null'], enum: ['A', 'B', null] });
  const v = compile({ type: 'string', enum: ['A', 'B'], nullable: true });
  ok(v(null));
  ok(v('A'));
  fails(v('C'), 'data', 'enum');
  // null already listed: not twice
  assert.equal(openApiToJsonSchema({ enum: ['A', null], nullable: true }).schema, { enum: ['A', null] });
});

conversion('nullable: true on a composed schema (allOf $ref) lets null through and still checks objects', () => {
  const components = { Money: { type: 'object', required: ['amount'], properties: { amount: { type: 'number' } } } };
  const v = compile(
    { type: 'object', properties: { premium: { nullable: true, allOf: [{ $ref: '#/components/schemas/Money' }] } } },
    components,
  );
  ok(v({ premium: null }));
  ok(v({ premium: { amount: 3 } }));
  // only the real problem: the wrapper's own "must be null" / "must match a schema in anyOf" are not reported
  assert.equal(v({ premium: {} }), [{ path: 'data.premium.amount', message: 'is required', keyword: 'required' }]);
  assert.equal(v({ premium: 'x' }), [{ path: 'data.premium', message: 'must be object', keyword: 'type' }]);
  assert.equal(openApiToJsonSchema({ nullable: true, oneOf: [{ type: 'string' }, { type: 'integer' }] }).schema, {
    $comment: 'nullable',
    anyOf: [{ $comment: 'nullable', type: 'null' }, { oneOf: [{ type: 'string' }, { type: 'integer' }] }],
  });
});

conversion('$ref: components are resolved into definitions, transitively and recursively', () => {
  const components = {
    Claim: {
      type: 'object',
      required: ['policy'],
      properties: {
        policy: { $ref: '#/components/schemas/Policy' },
        related: { type: 'array', items: { $ref: '#/components/schemas/Claim' } },
      },
    },
    Policy: {
      type: 'object',
      required: ['no'],
      properties: { no: { type: 'string' }, holder: { $ref: '#/components/schemas/Person' } },
    },
    Person: { type: 'object', properties: { name: { type: 'string' } } },
    Unused: { type: 'string' },
  };
  const { schema, problems } = openApiToJsonSchema({ $ref: '#/components/schemas/Claim' }, { components });
  assert.equal(problems, []);
  assert.is(schema.$ref, '#/definitions/Claim');
  assert.equal(Object.keys(schema.definitions as object).sort(), ['Claim', 'Person', 'Policy']);
  const v = compile({ $ref: '#/components/schemas/Claim' }, components);
  ok(v({ policy: { no: 'P1', holder: { name: 'Ann' } }, related: [{ policy: { no: 'P0' } }] }));
  fails(v({ policy: { holder: { name: 1 } } }), 'data.policy.no', 'required');
  fails(v({ policy: { no: 'P1', holder: { name: 1 } } }), 'data.policy.holder.name', 'type');
  fails(v({ policy: { no: 'P1' }, related: [{ policy: {} }] }), 'data.related.0.policy.no', 'required');
});

conversion(
  '$ref: keywords beside a $ref are ignored (OpenAPI 3.0); unknown and non-local references are problems',
  () => {
    const components = { S: { type: 'string' } };
    assert.equal(
      openApiToJsonSchema({ $ref: '#/components/schemas/S', nullable: true, description: 'x' }, { components }).schema,
      {
        $ref: '#/definitions/S',
        definitions: { S: { type: 'string' } },
      },
    );
    assert.equal(
      problemPaths(
        {
          type: 'object',
          properties: { a: { $ref: '#/components/schemas/Missing' }, b: { $ref: 'other.yaml#/X' }, c: { $ref: 7 } },
        },
        components,
      ),
      ['root.properties.a.$ref', 'root.properties.b.$ref', 'root.properties.c.$ref'],
    );
  },
);

conversion('exclusiveMinimum/exclusiveMaximum booleans become draft-07 numbers', () => {
  assert.equal(
    openApiToJsonSchema({ type: 'number', minimum: 0, exclusiveMinimum: true, maximum: 5, exclusiveMaximum: false })
      .schema,
    {
      type: 'number',
      exclusiveMinimum: 0,
      maximum: 5,
    },
  );
  const v = compile({ type: 'number', minimum: 0, exclusiveMinimum: true, maximum: 5, exclusiveMaximum: true });
  fails(v(0), 'data', 'exclusiveMinimum');
  ok(v(0.001));
  ok(v(4.999));
  fails(v(5), 'data', 'exclusiveMaximum');
  const inclusive = compile({ type: 'number', minimum: 0, exclusiveMinimum: false });
  ok(inclusive(0));
  // the 3.1 / draft-06 number form is not OpenAPI 3.0
  assert.equal(problemPaths({ type: 'number', exclusiveMinimum: 3 }), ['root.exclusiveMinimum']);
});

conversion('formats: OpenAPI and ajv-formats formats are checked, unknown formats ignored', () => {
  const v = compile({
    type: 'object',
    properties: {
      i32: { type: 'integer', format: 'int32' },
      i64: { type: 'integer', format: 'int64' },
      f: { type: 'number', format: 'float' },
      d: { type: 'number', format: 'double' },
      b: { type: 'string', format: 'byte' },
      bin: { type: 'string', format: 'binary' },
      pw: { type: 'string', format: 'password' },
      day: { type: 'string', format: 'date' },
      at: { type: 'string', format: 'date-time' },
      mail: { type: 'string', format: 'email' },
      money: { type: 'string', format: 'money' },
    },
  });
  ok(
    v({
      i32: 2147483647,
      i64: 2 ** 40,
      f: 1.5,
      d: -2.25,
      b: 'aGVsbG8=',
      bin: '\u0000\u0001',
      pw: 'secret',
      day: '2026-03-01',
      at: '2026-03-01T10:00:00Z',
      mail: 'a@b.example',
      money: 'anything',
    }),
  );
  const bad = v({ i32: 2147483648, b: 'not base64!', day: '2026-02-30', at: '2026-03-01 10:00', mail: 'nope' });
  for (const p of ['data.i32', 'data.b', 'data.day', 'data.at', 'data.mail']) fails(bad, p, 'format');
  assert.is(bad.length, 5);
  assert.equal(openApiToJsonSchema({ type: 'string', format: 'money' }).schema, { type: 'string' });
});

conversion(
  'OpenAPI-only keywords: example, xml, externalDocs, deprecated and x- extensions dropped; discriminator kept as a comment; readOnly/writeOnly as annotations',
  () => {
    const { schema, problems } = openApiToJsonSchema({
      type: 'object',
      example: { a: 1 },
      xml: { name: 'thing' },
      externalDocs: { url: 'https://docs.example' },
      deprecated: true,
      'x-internal': true,
      discriminator: { propertyName: 'kind', mapping: { a: '#/components/schemas/A' } },
      properties: { id: { type: 'string', readOnly: true }, secret: { type: 'string', writeOnly: true } },
    });
    assert.equal(problems, []);
    assert.equal(schema, {
      type: 'object',
      $comment: 'discriminator: kind',
      properties: { id: { type: 'string', readOnly: true }, secret: { type: 'string', writeOnly: true } },
    });
    // readOnly relaxes nothing: events have no request/response direction
    const v = compile({ type: 'object', required: ['id'], properties: { id: { type: 'string', readOnly: true } } });
    fails(v({}), 'data.id', 'required');
  },
);

conversion('keywords that are not OpenAPI 3.0 are problems at their path; so are bad keyword values', () => {
  assert.equal(
    problemPaths({
      type: 'object',
      properties: {
        a: { const: 1 },
        b: { type: ['string', 'null'] },
        c: { type: 'array' },
        d: { type: 'string', pattern: '(' },
        e: { type: 'object', patternProperties: {} },
        f: { type: 'string', minLength: -1 },
        g: { enum: [] },
        h: { type: 'array', items: [{ type: 'string' }] },
        i: { discriminator: {} },
      },
      $schema: 'http://json-schema.org/draft-07/schema#',
    }),
    [
      'root.$schema',
      'root.properties.a.const',
      'root.properties.b.type',
      'root.properties.c.items',
      'root.properties.d.pattern',
      'root.properties.e.patternProperties',
      'root.properties.f.minLength',
      'root.properties.g.enum',
      'root.properties.h.items',
      'root.properties.i.discriminator.propertyName',
    ],
  );
});

conversion(
  'violations name the field: required and additionalProperties point at the property, arrays by index',
  () => {
    const v = compile({
      type: 'object',
      required: ['amount'],
      additionalProperties: false,
      properties: {
        amount: { type: 'number' },
        items: { type: 'array', items: { type: 'object', properties: { qty: { type: 'integer', minimum: 1 } } } },
      },
    });
    assert.equal(v({ extra: 1, items: [{ qty: 1 }, { qty: 0 }] }), [
      { path: 'data.amount', message: 'is required', keyword: 'required' },
      { path: 'data.extra', message: 'is not allowed', keyword: 'additionalProperties' },
      { path: 'data.items.1.qty', message: 'must be >= 1', keyword: 'minimum' },
    ]);
  },
);

// ---- the registry document ----

const documents = suite('registry document (OpenAPI 3.0 with Cloudevents and business-data schemas)');

const cloudevents = (data = '#/components/schemas/Order') =>
  cloudeventsSchema(data, {
    publishtime: { type: 'string' },
    eventbusname: { type: 'string' },
    publishaddr: { type: 'string' },
  });
const order = {
  type: 'object',
  required: ['orderId'],
  properties: { orderId: { type: 'string' }, amount: { type: 'number', nullable: true } },
};
const doc = (
  over: Record<string, unknown> = {},
  schemas: Record<string, unknown> = { Cloudevents: cloudevents(), Order: order },
) => ({
  openapi: '3.0.3',
  info: { title: 'orders', version: '1.0.0' },
  paths: {},
  components: { schemas },
  ...over,
});

documents("a document of the spec's shape has no problems; the business-data schema is the one data references", () => {
  assert.equal(registryDocumentProblems(doc()), []);
  assert.is(businessDataSchemaName(doc()), 'Order');
  const converted = businessDataJsonSchema(doc());
  assert.ok('schema' in converted);
  assert.equal(converted.schema, {
    $ref: '#/definitions/Order',
    definitions: {
      Order: {
        type: 'object',
        required: ['orderId'],
        properties: { orderId: { type: 'string' }, amount: { type: ['number', 'null'] } },
      },
    },
  });
});

documents(
  "the document's own shape: openapi 3.0.x, info.title and info.version, paths, components.schemas; every problem listed",
  () => {
    const problems = registryDocumentProblems({ openapi: '3.1.0', info: { title: 7 }, components: {} }, 'content');
    assert.equal(problems.map((p) => p.path).sort(), [
      'content.components.schemas',
      'content.info.title',
      'content.info.version',
      'content.openapi',
      'content.paths',
    ]);
    assert.is(problems.find((p) => p.path === 'content.openapi')?.message, 'must be an OpenAPI 3.0 version (3.0.x)');
    assert.equal(
      registryDocumentProblems('nope', 'content').map((p) => p.path),
      ['content'],
    );
    assert.equal(
      registryDocumentProblems(doc({ paths: [] })).map((p) => p.path),
      ['paths'],
    );
  },
);

documents(
  'the Cloudevents schema: required list, string properties, data a $ref to an existing business-data schema',
  () => {
    const bad = cloudevents();
    bad.required = ['id', 'source', 'data'];
    (bad.properties as Record<string, unknown>).time = { type: 'integer' };
    (bad.properties as Record<string, unknown>).publishaddr = { type: 'number' };
    delete (bad.properties as Record<string, unknown>).subject;
    assert.equal(registryDocumentProblems(doc({}, { Cloudevents: bad, Order: order })), [
      {
        path: 'components.schemas.Cloudevents.required',
        message: 'must list id, source, subject, time, type, data (missing subject, time, type)',
      },
      { path: 'components.schemas.Cloudevents.properties.subject', message: 'is required (type: string)' },
      { path: 'components.schemas.Cloudevents.properties.time.type', message: 'must be string' },
      { path: 'components.schemas.Cloudevents.properties.publishaddr.type', message: 'must be string' },
    ]);
    assert.equal(
      registryDocumentProblems(doc({}, { Order: order })).map((p) => p.path),
      ['components.schemas'],
    );
    assert.equal(
      registryDocumentProblems(doc({}, { Cloudevents: cloudevents('#/components/schemas/Nope'), Order: order })).map(
        (p) => p.path,
      ),
      ['components.schemas.Cloudevents.properties.data.$ref'],
    );
    const inline = cloudevents();
    (inline.properties as Record<string, unknown>).data = { type: 'object' };
    assert.equal(
      registryDocumentProblems(doc({}, { Cloudevents: inline, Order: order })).map((p) => p.path),
      ['components.schemas.Cloudevents.properties.data.$ref'],
    );
    assert.equal(
      registryDocumentProblems(doc({}, { Cloudevents: cloudevents('#/components/schemas/Cloudevents') })).map(
        (p) => p.path,
      ),
      ['components.schemas.Cloudevents.properties.data.$ref'],
    );
  },
);

documents(
  'the business-data schema must describe an object and be valid OpenAPI; problems in other components are listed too',
  () => {
    assert.equal(
      registryDocumentProblems(doc({}, { Cloudevents: cloudevents(), Order: { type: 'string' } })).map((p) => p.path),
      ['components.schemas.Order.type'],
    );
    assert.equal(
      registryDocumentProblems(
        doc(
          {},
          {
            Cloudevents: cloudevents(),
            Order: { type: 'object', properties: { n: { type: 'number', exclusiveMinimum: 0 } } },
            Helper: { const: 1 },
          },
        ),
        'content',
      ).map((p) => p.path),
      ['content.components.schemas.Order.properties.n.exclusiveMinimum', 'content.components.schemas.Helper.const'],
    );
    // `CloudEvents` spelled otherwise is found too
    assert.equal(registryDocumentProblems(doc({}, { CloudEvents: cloudevents(), Order: order })), []);
  },
);

documents(
  'input limits for schema documents: 32 levels deep converts; one more is one problem naming the path and the limit',
  () => {
    /** Order with a property chain `levels` JSON levels deep, counted from the document's root */
    const deepOrder = (levels: number) => {
      // root, components, schemas, Order are 4 levels; each property adds 2 (properties, the property)
      let schema: Record<string, unknown> = { type: 'object' };
      for (let i = 4; i + 2 <= levels; i += 2) schema = { type: 'object', properties: { p: schema } };
      return schema;
    };
    assert.equal(
      registryDocumentProblems(doc({}, { Cloudevents: cloudevents(), Order: deepOrder(32) }), 'content'),
      [],
    );
    const problems = registryDocumentProblems(doc({}, { Cloudevents: cloudevents(), Order: deepOrder(34) }), 'content');
    assert.equal(problems.length, 1);
    assert.is(problems[0]!.path, `content.components.schemas.Order${'.properties.p'.repeat(14)}.properties`);
    assert.match(
      problems[0]!.message,
      /nests deeper than 32 levels \(input limit for schema documents: nesting depth 32\)/,
    );
  },
);

documents('a document 100,000 levels deep is one problem, not a stack overflow', () => {
  let deep: Record<string, unknown> = { type: 'object' };
  for (let i = 0; i < 100_000; i++) deep = { type: 'object', properties: { p: deep } };
  const problems = registryDocumentProblems(doc({}, { Cloudevents: cloudevents(), Order: deep }), 'content');
  assert.equal(
    problems.map((p) => p.message.replace(/ \(.*/, '')),
    ['nests deeper than 32 levels'],
  );
});

conversion.run();
documents.run();
