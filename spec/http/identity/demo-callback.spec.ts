import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createDemoCallbackRouter } from '../../../http/identity/demo-callback.router.ts';
import { startTestApp, type TestApp } from '../core/harness.ts';

let app: TestApp;
test.before(async () => {
  app = await startTestApp({
    router: createDemoCallbackRouter({ path: '/demo/callback', tokenEndpoint: 'http://id.test/cas/oidc/token' }),
  });
});
test.after(() => app.close());

test('the demo redirect page shows the code and state, escaped, and how to redeem the code', async () => {
  const res = await fetch(`${app.url}/demo/callback?code=abc123&state=%3Cscript%3E`);
  assert.is(res.status, 200);
  assert.match(res.headers.get('content-type')!, /text\/html/);
  assert.is(res.headers.get('cache-control'), 'no-store');
  const html = await res.text();
  assert.match(html, /<code>abc123<\/code>/);
  assert.match(html, /&lt;script&gt;/);
  assert.not.match(html, /<script>/);
  assert.match(html, /grant_type=authorization_code -d code=abc123/);
});

test('an error redirect is shown as such', async () => {
  const res = await fetch(`${app.url}/demo/callback?error=access_denied&error_description=no`);
  assert.is(res.status, 400);
  assert.match(await res.text(), /No code: access_denied: no/);
});

test.run();
