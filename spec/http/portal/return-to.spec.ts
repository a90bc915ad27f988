// Where a sign-in may end: a portal page of this origin, never another site or the backend's endpoints.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { safeReturnTo } from '../../../http/portal/return-to.ts';

const ORIGIN = 'https://platform.example';

test('portal pages of this origin pass, with their query; absent is the home page', () => {
  assert.is(safeReturnTo(undefined, ORIGIN), '/portal/');
  assert.is(safeReturnTo('', ORIGIN), '/portal/');
  assert.is(safeReturnTo('/portal', ORIGIN), '/portal');
  assert.is(safeReturnTo('/portal/bridge/rules/r1?tenant=acme', ORIGIN), '/portal/bridge/rules/r1?tenant=acme');
  // dot segments are resolved before the check
  assert.is(safeReturnTo('/portal/a/../b', ORIGIN), '/portal/b');
});

test('anything else is refused', () => {
  for (const value of [
    '//evil.example/portal/',
    'https://evil.example/portal/',
    'https://platform.example/portal/',
    'javascript:alert(1)',
    '/\\evil.example',
    '/portal\\..\\cas',
    '/cas/oidc/authorize',
    '/portalx',
    '/portal/../cas/admin/v1/tenants',
    '/portal/auth/logout',
    '/portal/auth',
    '/portal/api/cas/admin/v1/users',
    'portal/',
    '/portal/\u0000',
    `/portal/${'a'.repeat(1001)}`,
    // short as typed, but past the bound once percent-encoded (each character ninefold)
    `/portal/${'€'.repeat(120)}`,
    42,
    ['/portal/'],
  ]) {
    assert.is(safeReturnTo(value, ORIGIN), null, String(value));
  }
});

test.run();
