// The whole bridge as `npm start` mounts it: every route family answers (with its own auth rules), and
// every family is in the bridge's OpenAPI document.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { ADMIN, type BridgePlatform, startBridgePlatform } from './bridge-harness.ts';

let p: BridgePlatform;
test.before(async () => {
  p = await startBridgePlatform();
});
test.after(() => p.stop());

const get = async (path: string, token?: string) =>
  fetch(`${p.base}${path}`, { headers: token ? { authorization: `Bearer ${token}` } : {} });

test('connections and API destinations are mounted (admin scope)', async () => {
  const token = await p.token('acme');
  for (const path of [`${ADMIN}/connections`, `${ADMIN}/api-destinations`]) {
    assert.is((await get(path)).status, 401, path);
    const res = await get(path, token);
    assert.is(res.status, 200, path);
  }
});

test('the message queue is mounted and asks for its own scope', async () => {
  const path = '/api/platform/platform-pub/eventBridge/mq/v1/topics/orders/messages';
  assert.is((await get(path)).status, 401);
  const res = await get(path, await p.token('acme'));
  assert.is(res.status, 403, 'a token without bridge:consume');
  assert.match(res.headers.get('www-authenticate') ?? '', /insufficient_scope/);
});

test('the users’ inbox is mounted for any valid token', async () => {
  const res = await get('/api/platform/platform-pub/eventBridge/messages/v1/inbox/unread-count', await p.token('acme'));
  assert.is(res.status, 200);
});

test('the OpenAPI document lists every route family', async () => {
  const doc = (await (await get('/api/platform/platform-pub/eventBridge/openapi.json')).json()) as {
    paths: Record<string, unknown>;
  };
  const paths = Object.keys(doc.paths).join('\n');
  for (const part of [
    'putEvent',
    '/rules',
    '/schemas',
    '/trace',
    '/dead-letters',
    '/connections',
    '/api-destinations',
    '/mq/v1/',
    '/inbox',
  ]) {
    assert.ok(paths.includes(part), `missing ${part} in\n${paths}`);
  }
});

test.run();
