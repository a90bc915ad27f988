// Strings holding lone surrogates in a request: 400 REQUEST.INVALID naming the field, on every route (the
// body is checked when parsed, app.ts) and in the query and path parameters validate() reads.
import { type Request, type Response, Router } from 'express';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createRouteRegistry } from '../../../http/core/route-registry.ts';
import { type ValidationIssue, validate } from '../../../http/core/validate.ts';
import { startTestApp, type TestApp } from './harness.ts';

type Invalid = { code: string; message: string; details: ValidationIssue[] };

const router = Router();
const reached: string[] = [];
createRouteRegistry().route(
  router,
  {
    method: 'post',
    path: '/things',
    schemas: {
      body: {
        type: 'object',
        properties: { name: { type: 'string' }, tags: { type: 'array', items: { type: 'string' } } },
      },
    },
  },
  (_req, res) => void (reached.push('things'), res.json({ ok: true })),
);
// a route that reads its body without a schema
router.post('/raw', (_req, res) => void (reached.push('raw'), res.json({ ok: true })));

const test = suite<{ app: TestApp }>('well-formed text');
test.before(async (ctx) => {
  ctx.app = await startTestApp({ router });
});
test.after(({ app }) => app.close());

/** a JSON body whose `\u` escapes stay escapes on the wire */
const post = (app: TestApp, path: string, json: string) =>
  fetch(`${app.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: json });

test('a lone surrogate in a body field, an array item or a key: 400 naming it, the route never runs', async ({
  app,
}) => {
  reached.length = 0;
  for (const [path, json, field] of [
    ['/things', '{"name":"\\ud800\\udc00\\udfff\\ud83d"}', 'name'],
    ['/things', '{"name":"x","tags":["ok","\\udfff"]}', 'tags.1'],
    ['/raw', '{"a":{"b\\ud83d":1}}', 'a.b\ud83d'],
  ] as const) {
    const res = await post(app, path, json);
    const body = (await res.json()) as Invalid;
    assert.is(res.status, 400, json);
    assert.is(body.code, 'REQUEST.INVALID');
    assert.match(body.message, `body.${field} must be well-formed Unicode text`);
    assert.equal(body.details, [
      {
        in: 'body',
        field,
        message: 'must be well-formed Unicode text (it holds a lone surrogate)',
        keyword: 'wellFormed',
      },
    ]);
  }
  assert.equal(reached, []);
});

test('a surrogate pair is text like any other', async ({ app }) => {
  const res = await post(app, '/things', '{"name":"\\ud83d\\ude00","tags":["\\ud800\\udc00"]}');
  assert.is(res.status, 200);
});

test('validate() names a query or path parameter holding one (the wire cannot carry it; a parser might)', () => {
  const check = validate({
    query: { type: 'object', properties: { q: { type: 'string' } } },
    params: { type: 'object', properties: { id: { type: 'string' } } },
  });
  let answer: { status?: number; body?: Invalid } = {};
  const res = {
    status: (s: number) => ((answer.status = s), { json: (b: Invalid) => (answer.body = b) }),
  } as unknown as Response;
  check({ query: { q: 'a\ud800' }, params: { id: '\udfff' }, headers: {} } as unknown as Request, res, () =>
    assert.unreachable('next'),
  );
  assert.is(answer.status, 400);
  assert.equal(
    answer.body?.details.map((d) => `${d.in}.${d.field}:${d.keyword}`),
    ['params.id:wellFormed', 'query.q:wellFormed'],
  );
  answer = {};
  let passed = false;
  check({ query: { q: 'fine' }, params: { id: 'x' }, headers: {} } as unknown as Request, res, () => (passed = true));
  assert.ok(passed);
});

test.run();
