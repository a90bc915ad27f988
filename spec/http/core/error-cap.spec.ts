// An error answer never grows with the request. Every route answers at most 20 details
// plus how many more (`moreDetails`), with a bounded message, through the one error path (validate.ts,
// errors.ts): a bridge admin route, an identity admin route, and a decider's error with many details.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { SEED, startIdentityPlatform } from '../identity/identity-harness.ts';

const ctx = await startIdentityPlatform({ redirectUri: 'https://rp.example/callback' });
const test = suite('error answers are capped');
test.after(() => ctx.stop());

const basic = `Basic ${Buffer.from(`${encodeURIComponent(SEED.clientId)}:${encodeURIComponent(SEED.clientSecret)}`).toString('base64')}`;
const tokenRes = await fetch(`${ctx.base}/cas/oidc/token`, {
  method: 'POST',
  headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: basic },
  body: new URLSearchParams({ grant_type: 'client_credentials', scope: 'identity:admin bridge:admin bridge:publish' }),
});
const token = ((await tokenRes.json()) as { access_token: string }).access_token;

const manyUnknownKeys = (n: number, extra: Record<string, unknown> = {}) => {
  const body: Record<string, unknown> = { ...extra };
  for (let i = 0; i < n; i++) body[`unknown_field_${i}`] = 'x'.repeat(40);
  return JSON.stringify(body);
};

async function post(path: string, body: string) {
  const res = await fetch(`${ctx.base}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body,
  });
  const text = await res.text();
  return {
    status: res.status,
    size: text.length,
    body: JSON.parse(text) as { code: string; message: string; details: unknown[]; moreDetails?: number },
  };
}

test('a bridge admin route: 9,000 unknown keys → 400 with 20 details and moreDetails', async () => {
  const body = manyUnknownKeys(9000, { name: 'orders' });
  const r = await post('/api/platform/platform-pub/eventBridge/admin/v1/buses', body);
  assert.is(r.status, 400);
  assert.is(r.body.code, 'REQUEST.INVALID');
  assert.is(r.body.details.length, 20);
  assert.is(r.body.moreDetails, 9000 - 20);
  assert.match(r.body.message, /\(and 8980 more\)$/);
  assert.ok(r.size < 10_000, `the answer is small (${r.size} bytes for a ${body.length}-byte request)`);
});

test('an identity admin route: the same cap', async () => {
  const r = await post('/cas/admin/v1/users', manyUnknownKeys(500, { username: 'x', name: 'X' }));
  assert.is(r.status, 400);
  assert.is(r.body.details.length, 20);
  assert.is(r.body.moreDetails, 480);
});

test('a domain error with many details (an event with many bad fields) is capped in the error handler too', async () => {
  await post('/api/platform/platform-pub/eventBridge/admin/v1/buses', JSON.stringify({ name: 'capped' }));
  const events = Array.from({ length: 10 }, () => ({ nope: 1 }));
  const r = await post(
    '/api/platform/platform-pub/eventBridge/event/v1/putEvent',
    JSON.stringify({ ...Object.fromEntries(Array.from({ length: 60 }, (_, i) => [`bad${i}`, 1])), events }),
  );
  assert.is(r.status, 400);
  assert.is(r.body.code, 'EVENT.INVALID', 'the publisher (a domain error), not the route schema');
  assert.ok(r.body.details.length <= 20, `${r.body.details.length} details`);
  assert.ok((r.body.moreDetails ?? 0) > 0, JSON.stringify(r.body).slice(0, 300));
  assert.ok(r.body.message.length <= 2000);
});

test.run();
