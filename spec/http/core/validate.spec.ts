import { Router } from 'express';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { openApiDocument } from '../../../http/core/openapi.ts';
import { createRouteRegistry } from '../../../http/core/route-registry.ts';
import { type ValidationIssue, validate } from '../../../http/core/validate.ts';
import { startTestApp, type TestApp } from './harness.ts';

type Invalid = { code: string; message: string; details: ValidationIssue[] };

const ruleBody = {
  type: 'object',
  required: ['name', 'pattern'],
  additionalProperties: false,
  properties: {
    name: { type: 'string', minLength: 1 },
    pattern: { type: 'object' },
    targets: {
      type: 'array',
      items: { type: 'object', required: ['url'], properties: { url: { type: 'string', format: 'uri' } } },
    },
  },
};

const registry = createRouteRegistry();
const router = Router();

registry.route(
  router,
  {
    method: 'post',
    path: '/api/platform/buses/:bus/rules',
    summary: 'Create a rule',
    schemas: {
      params: { type: 'object', properties: { bus: { type: 'string', pattern: '^[a-z0-9-]+$' } } },
      body: ruleBody,
      response: { type: 'object', properties: { id: { type: 'string' } } },
    },
    successStatus: 201,
  },
  (req, res) => {
    res.status(201).json({ id: 'r1', bus: req.params.bus });
  },
);

registry.route(
  router,
  {
    method: 'get',
    path: '/api/platform/tasks',
    summary: 'Search tasks',
    schemas: {
      query: {
        type: 'object',
        properties: {
          limit: { type: 'integer', minimum: 1, maximum: 100, default: 20 },
          status: { type: 'array', items: { type: 'string', enum: ['open', 'done'] } },
          active: { type: 'boolean' },
        },
      },
    },
  },
  (req, res) => {
    res.json({ query: req.query });
  },
);

router.get(
  '/headers',
  validate({
    headers: { type: 'object', required: ['x-tenant'], properties: { 'x-tenant': { type: 'string', minLength: 2 } } },
  }),
  (_req, res) => {
    res.json({ ok: true });
  },
);

const Validate = suite<{ app: TestApp }>('http/core validate');

Validate.before(async (ctx) => {
  ctx.app = await startTestApp({ router });
});
Validate.after(async (ctx) => {
  await ctx.app.close();
});

const post = (app: TestApp, path: string, body: unknown) =>
  fetch(`${app.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });

Validate('a valid request reaches the handler', async ({ app }) => {
  const res = await post(app, '/api/platform/buses/main/rules', { name: 'r', pattern: {} });
  assert.is(res.status, 201);
  assert.equal(await res.json(), { id: 'r1', bus: 'main' });
});

Validate('two bad fields: 400 REQUEST.INVALID with two details, each named', async ({ app }) => {
  const res = await post(app, '/api/platform/buses/main/rules', { name: 42, pattern: 'nope' });
  assert.is(res.status, 400);
  const body = (await res.json()) as Invalid;
  assert.is(body.code, 'REQUEST.INVALID');
  assert.equal(body.details, [
    { in: 'body', field: 'name', message: 'must be string', keyword: 'type' },
    { in: 'body', field: 'pattern', message: 'must be object', keyword: 'type' },
  ]);
  assert.is(body.message, 'request validation failed: body.name must be string; body.pattern must be object');
});

Validate('missing and unexpected properties are named as fields; nested paths use dots', async ({ app }) => {
  const res = await post(app, '/api/platform/buses/main/rules', {
    colour: 'red',
    targets: [{ url: 'https://ok.example' }, { url: 'not a uri' }, {}],
  });
  const body = (await res.json()) as Invalid;
  assert.is(res.status, 400);
  const fields = body.details.map((d) => `${d.in}:${d.field}:${d.keyword}`).sort();
  assert.equal(fields, [
    'body:colour:additionalProperties',
    'body:name:required',
    'body:pattern:required',
    'body:targets.1.url:format',
    'body:targets.2.url:required',
  ]);
  assert.ok(body.message.includes('body.name is required'), body.message);
});

Validate('root-level problems use the empty field; no body at all is a body error', async ({ app }) => {
  const res = await fetch(`${app.url}/api/platform/buses/main/rules`, { method: 'POST' });
  const body = (await res.json()) as Invalid;
  assert.is(res.status, 400);
  assert.equal(body.details, [{ in: 'body', field: '', message: 'must be object', keyword: 'type' }]);
  assert.is(body.message, 'request validation failed: body must be object');
});

Validate('path parameters are validated', async ({ app }) => {
  const res = await post(app, '/api/platform/buses/NOT_OK/rules', { name: 'r', pattern: {} });
  const body = (await res.json()) as Invalid;
  assert.is(res.status, 400);
  assert.equal(
    body.details.map((d) => [d.in, d.field]),
    [['params', 'bus']],
  );
});

Validate('query strings are coerced to the schema types, defaults applied', async ({ app }) => {
  const res = await fetch(`${app.url}/api/platform/tasks?status=open&active=true`);
  assert.is(res.status, 200);
  assert.equal(await res.json(), { query: { status: ['open'], active: true, limit: 20 } });
  const many = await fetch(`${app.url}/api/platform/tasks?status=open&status=done&limit=5`);
  assert.equal(await many.json(), { query: { status: ['open', 'done'], limit: 5 } });
});

Validate('bad query values are named', async ({ app }) => {
  const res = await fetch(`${app.url}/api/platform/tasks?limit=abc&status=lost`);
  const body = (await res.json()) as Invalid;
  assert.is(res.status, 400);
  assert.equal(body.details.map((d) => `${d.in}.${d.field}`).sort(), ['query.limit', 'query.status.0']);
});

Validate('headers are validated by their lower-case names', async ({ app }) => {
  const bad = await fetch(`${app.url}/headers`);
  const body = (await bad.json()) as Invalid;
  assert.is(bad.status, 400);
  assert.equal(body.details, [{ in: 'headers', field: 'x-tenant', message: 'is required', keyword: 'required' }]);
  const ok = await fetch(`${app.url}/headers`, { headers: { 'X-Tenant': 'acme' } });
  assert.is(ok.status, 200);
});

Validate('a validated route is labelled by its pattern in the metrics', async ({ app }) => {
  await (await fetch(`${app.url}/api/platform/buses/b-77/rules`, { method: 'POST' })).arrayBuffer();
  const text = await app.metrics.registry.metrics();
  assert.ok(text.includes('route="/api/platform/buses/:bus/rules"'), 'pattern label');
  assert.not.ok(text.includes('b-77'), 'never the raw URL');
});

Validate('openApiDocument lists the described routes', () => {
  const extra = createRouteRegistry();
  extra.describeRoute({ method: 'get', path: '/.well-known/openid-configuration', summary: 'Discovery', schemas: {} });
  const doc = openApiDocument('bridge', registry);
  assert.is(doc.openapi, '3.0.3');
  assert.is(doc.info.title, 'bridge');
  const create = doc.paths['/api/platform/buses/{bus}/rules']?.post as Record<string, unknown> | undefined;
  assert.ok(create, 'POST /api/platform/buses/{bus}/rules is listed');
  assert.is(create.summary, 'Create a rule');
  assert.equal(create.parameters, [
    { name: 'bus', in: 'path', required: true, schema: { type: 'string', pattern: '^[a-z0-9-]+$' } },
  ]);
  assert.equal(create.requestBody, { required: true, content: { 'application/json': { schema: ruleBody } } });
  const responses = create.responses as Record<string, unknown>;
  assert.equal(Object.keys(responses).sort(), ['201', '400', '415'], 'a JSON body may be answered 415');
  const search = doc.paths['/api/platform/tasks']?.get as { parameters: Array<{ name: string; in: string }> };
  assert.equal(
    search.parameters.map((p) => `${p.in}:${p.name}`),
    ['query:limit', 'query:status', 'query:active'],
  );
  const discovery = openApiDocument('identity', extra);
  assert.ok(discovery.paths['/.well-known/openid-configuration']?.get);
});

Validate.run();
