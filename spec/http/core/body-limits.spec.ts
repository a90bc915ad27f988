import { Router } from 'express';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { REQUEST_BODY_LIMITS } from '../../../domain/core/input-limits.ts';
import { looksLikeStack, startTestApp, type TestApp } from './harness.ts';

// The input limits every JSON body is held to, right after parsing (http/core/body-limits.ts).
const test = suite<{ app: TestApp; seen: unknown[] }>('http core: input limits of every body', {
  app: undefined as never,
  seen: [],
});

/** `{"a":{"a":…1…}}` as text, `levels` objects deep (JSON.stringify could not write the deep ones) */
const nestedText = (levels: number) => `${'{"a":'.repeat(levels)}1${'}'.repeat(levels)}`;

test.before(async (ctx) => {
  const router = Router();
  // a route that walks the body the way most code does: recursively
  router.post('/echo', (req, res) => {
    ctx.seen.push(req.body);
    res.json({ text: JSON.stringify(req.body).length });
  });
  ctx.app = await startTestApp({ router, bodyLimit: '8mb' });
});
test.after(async ({ app }) => app.close());
test.before.each((ctx) => {
  ctx.seen.length = 0;
});

const post = async (app: TestApp, raw: string, type = 'application/json') => {
  const res = await fetch(`${app.url}/echo`, { method: 'POST', headers: { 'content-type': type }, body: raw });
  const text = await res.text();
  return {
    status: res.status,
    text,
    body: JSON.parse(text) as { code?: string; message?: string; details?: Record<string, unknown> },
  };
};

test('64 levels pass through to the route; 65 are a 400 REQUEST.LIMIT_EXCEEDED naming the limit and the path', async ({
  app,
  seen,
}) => {
  const ok = await post(app, nestedText(64));
  assert.is(ok.status, 200, ok.text);
  assert.is(seen.length, 1);
  const past = await post(app, nestedText(65));
  assert.is(past.status, 400, past.text);
  assert.is(past.body.code, 'REQUEST.LIMIT_EXCEEDED');
  assert.equal(past.body.details, { in: 'body', path: Array(64).fill('a').join('.'), limit: 'depth', max: 64 });
  assert.match(past.body.message!, /nests deeper than 64 levels \(limit: nesting depth 64\)/);
  assert.is(seen.length, 1, 'the route never saw the body past the limit');
});

test('5,000 and 100,000 levels (objects, arrays, application/*+json) are 400s, never a 500 or a stack', async ({
  app,
  seen,
}) => {
  const bodies: Array<[string, string]> = [
    [nestedText(5_000), 'application/json'],
    [nestedText(100_000), 'application/json'],
    [`${'['.repeat(100_000)}${']'.repeat(100_000)}`, 'application/json'],
    [`{"items":[${nestedText(5_000)}]}`, 'application/merge-patch+json'],
  ];
  for (const [raw, type] of bodies) {
    const r = await post(app, raw, type);
    assert.is(r.status, 400, r.text.slice(0, 300));
    assert.is(r.body.code, 'REQUEST.LIMIT_EXCEEDED');
    assert.is(r.body.details?.limit, 'depth');
    assert.not.ok(looksLikeStack(r.text));
  }
  assert.is(seen.length, 0);
});

test('the other limits: keys of one object, array length, string length, key length', async ({ app }) => {
  const manyKeys = `{${Array.from({ length: REQUEST_BODY_LIMITS.maxKeys + 1 }, (_, i) => `"k${i}":0`).join(',')}}`;
  const longArray = `{"list":[${Array(REQUEST_BODY_LIMITS.maxArrayLength + 1)
    .fill(0)
    .join(',')}]}`;
  const longString = JSON.stringify({ s: { t: 'x'.repeat(REQUEST_BODY_LIMITS.maxStringLength + 1) } });
  const longKey = JSON.stringify({ ['k'.repeat(REQUEST_BODY_LIMITS.maxKeyLength + 1)]: 1 });
  const cases: Array<[string, string, string]> = [
    [manyKeys, 'keys', ''],
    [longArray, 'arrayLength', 'list'],
    [longString, 'stringLength', 's.t'],
    [longKey, 'keyLength', 'k'.repeat(REQUEST_BODY_LIMITS.maxKeyLength + 1).slice(0, 149)],
  ];
  for (const [raw, limit, path] of cases) {
    const r = await post(app, raw);
    assert.is(r.status, 400, `${limit}: ${r.text.slice(0, 300)}`);
    assert.is(r.body.details?.limit, limit);
    assert.ok(String(r.body.details?.path).startsWith(path), `${limit}: ${String(r.body.details?.path)}`);
  }
});

test('form bodies pass the same check when within the limits', async ({ app, seen }) => {
  const form = await post(app, 'grant_type=client_credentials&scope=a', 'application/x-www-form-urlencoded');
  assert.is(form.status, 200, form.text);
  assert.equal(seen, [{ grant_type: 'client_credentials', scope: 'a' }]);
});

test.run();
