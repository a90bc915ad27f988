import { Router } from 'express';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { pathStartsOf } from '../../../http/core/router-gate.ts';
import { startTestApp } from './harness.ts';

const test = suite('router gate: a service router sees only the paths it can answer');

function hubLike(): Router {
  const r = Router();
  r.post('/comm/v1/notifications/send', (_req, res) => void res.json({ by: 'hub', route: 'send' }));
  r.get('/comm/v1/templates/:code', (req, res) => void res.json({ by: 'hub', code: req.params.code }));
  const nested = Router();
  nested.get('/items/:id', (req, res) => void res.json({ by: 'hub', nested: req.params.id }));
  r.use('/comm/v1/nested', nested);
  r.use('/comm/v1/guarded', (_req, res) => void res.status(401).json({ by: 'hub', guarded: true }));
  // non-strict routing: a trailing slash in the route answers the path without it
  r.get('/comm/v1/slashed/', (_req, res) => void res.json({ by: 'hub', slashed: true }));
  return r;
}

function identityLike(): Router {
  const r = Router();
  const inner = Router();
  inner.post('/cas/oidc/token', (_req, res) => void res.json({ by: 'identity' }));
  r.use(inner);
  return r;
}

test('literal starts: routes up to their first parameter, nested and path-mounted routers, lower case, covered starts dropped', () => {
  assert.equal(pathStartsOf(hubLike()), [
    '/comm/v1/guarded',
    '/comm/v1/nested/items/',
    '/comm/v1/notifications/send',
    '/comm/v1/slashed',
    '/comm/v1/templates/',
  ]);
  assert.equal(pathStartsOf(identityLike()), ['/cas/oidc/token']);
  const slashes = Router();
  const sub = Router();
  sub.get('/bar', (_req, res) => void res.end());
  slashes.use('/foo/', sub);
  slashes.get('/hub/messages/', (_req, res) => void res.end());
  assert.equal(pathStartsOf(slashes), ['/foo/bar', '/hub/messages']);
  const wide = Router();
  wide.get('/a/b', (_req, res) => void res.end());
  wide.get('/a', (_req, res) => void res.end());
  assert.equal(pathStartsOf(wide), ['/a']);
});

test('a router with a RegExp path or a middleware on every path cannot be told: null (mounted ungated)', () => {
  const everywhere = Router();
  everywhere.use((_req, _res, next) => next());
  everywhere.get('/x', (_req, res) => void res.end());
  assert.is(pathStartsOf(everywhere), null);
  const pattern = Router();
  pattern.get(/^\/re\/\d+$/, (_req, res) => void res.end());
  assert.is(pathStartsOf(pattern), null);
});

test('over HTTP: each request reaches its router whatever its case; parameters, nested routers and mounted middleware answer; other paths get the JSON 404', async () => {
  const everywhere = Router();
  everywhere.use('/', (req, _res, next) => {
    req.headers['x-seen-by-ungated'] = 'yes';
    next();
  });
  everywhere.get('/audit/echo', (req, res) => void res.json({ by: 'ungated', seen: req.headers['x-seen-by-ungated'] }));
  const app = await startTestApp({
    routers: [
      { service: 'identity', router: identityLike() },
      { service: 'audit', router: everywhere },
      { service: 'hub', router: hubLike() },
    ],
  });
  try {
    const call = async (method: string, path: string) => {
      const res = await fetch(`${app.url}${path}`, {
        method,
        ...(method === 'POST' && { headers: { 'content-type': 'application/json' }, body: '{}' }),
      });
      return { status: res.status, body: (await res.json()) as Record<string, unknown> };
    };
    assert.equal(await call('POST', '/cas/oidc/token'), { status: 200, body: { by: 'identity' } });
    assert.equal(await call('POST', '/COMM/V1/Notifications/Send'), {
      status: 200,
      body: { by: 'hub', route: 'send' },
    });
    assert.equal(await call('GET', '/comm/v1/templates/welcome'), {
      status: 200,
      body: { by: 'hub', code: 'welcome' },
    });
    assert.equal(await call('GET', '/comm/v1/nested/items/7'), { status: 200, body: { by: 'hub', nested: '7' } });
    assert.equal(await call('GET', '/comm/v1/guarded/anything/below'), {
      status: 401,
      body: { by: 'hub', guarded: true },
    });
    assert.equal(await call('GET', '/comm/v1/slashed'), { status: 200, body: { by: 'hub', slashed: true } });
    assert.equal(await call('GET', '/audit/echo'), { status: 200, body: { by: 'ungated', seen: 'yes' } });
    for (const path of ['/comm/v1/templates', '/comm/v2/notifications/send', '/cas/oidc/tokens-not', '/nope']) {
      const r = await call('GET', path);
      assert.is(r.status, 404, path);
      assert.match(JSON.stringify(r.body), 'ROUTE.NOT_FOUND', path);
    }
  } finally {
    await app.close();
  }
});

test.run();
