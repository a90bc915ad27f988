// The logic of the portal that runs in the browser, apart from React: which fields an error's details
// name, the paging summary, the sign-in's error messages, which areas a session sees and how the
// navigation groups them.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { SERVICE_SCOPES } from '../../domain/core/service.scopes.ts';
import { ApiError, fieldErrors, fieldProblems, toApiError } from '../src/api/errors.ts';
import { hasScopes, type Session } from '../src/api/session.ts';
import { SCOPE_GROUPS } from '../src/areas/sso/scope-groups.ts';
import type { AreaMeta } from '../src/shell/area-meta.ts';
import { currentNavEntry, navGroups, visibleAreas } from '../src/shell/area-nav.ts';
import { signInError } from '../src/shell/sign-in-errors.ts';
import { pageSummary } from '../src/ui/paging.ts';

const errors = suite('API errors and the fields they name');

errors('every answer becomes an ApiError with a code and a message', () => {
  const e = toApiError(400, {
    code: 'RULE.INVALID',
    message: 'bad rule',
    details: [{ field: 'pattern', message: 'is invalid' }],
  });
  assert.instance(e, ApiError);
  assert.equal([e.status, e.code, e.message], [400, 'RULE.INVALID', 'bad rule']);
  assert.equal(
    [
      toApiError(400, { error: 'invalid_grant', error_description: 'expired' }).code,
      toApiError(400, { error: 'invalid_grant' }).message,
    ],
    ['invalid_grant', 'invalid_grant'],
  );
  assert.equal(
    [toApiError(502, '<html>').code, toApiError(502, null).message],
    ['HTTP.502', 'the platform answered 502'],
  );
});

errors('details in the shapes the services use', () => {
  assert.equal(fieldProblems([{ in: 'body', field: 'url', message: 'must be https', keyword: 'pattern' }]), [
    { field: 'url', message: 'must be https' },
  ]);
  assert.equal(fieldProblems({ field: 'taskId' }), [{ field: 'taskId', message: 'is invalid' }]);
  assert.equal(fieldProblems({ problems: [{ field: 'name', message: 'is blank' }], count: 1 }), [
    { field: 'name', message: 'is blank' },
  ]);
  assert.equal(fieldProblems({ tenant: 'acme' }), []);
  assert.equal(fieldProblems(null), []);
  assert.equal(fieldProblems('x'), []);
});

errors('a detail marks the form field of its full path, its path without indexes, or its first segment', () => {
  const { byField, unmatched } = fieldErrors(
    [
      { field: 'target.url', message: 'must be https' },
      { field: 'redirect_uris.1', message: 'must be absolute' },
      { field: 'retry.attempts', message: 'at most 10' },
      { field: 'surprise', message: 'is not allowed' },
      { field: '', message: 'must be an object' },
      { field: 'redirect_uris.0', message: 'second message for the same field' },
    ],
    ['target.url', 'redirect_uris', 'retry'],
  );
  assert.equal(byField, { 'target.url': 'must be https', redirect_uris: 'must be absolute', retry: 'at most 10' });
  assert.equal(
    unmatched.map((p) => p.field),
    ['surprise', ''],
  );
});

errors.run();

const paging = suite('paging summary');
paging('with a total, without one, empty, unpaged', () => {
  assert.equal(pageSummary({ offset: 0, limit: 20 }, { items: Array(20).fill(0), total: 57 }), {
    text: '1–20 of 57',
    hasNext: true,
  });
  assert.equal(pageSummary({ offset: 40, limit: 20 }, { items: Array(17).fill(0), total: 57 }), {
    text: '41–57 of 57',
    hasNext: false,
  });
  assert.equal(pageSummary({ offset: 20, limit: 20 }, { items: Array(20).fill(0) }), {
    text: '21–40 (more on the next page)',
    hasNext: true,
  });
  assert.equal(pageSummary({ offset: 20, limit: 20 }, { items: Array(20).fill(0), hasMore: false }), {
    text: '21–40',
    hasNext: false,
  });
  assert.equal(pageSummary({ offset: 0, limit: 20 }, { items: [] }), { text: 'No items', hasNext: false });
  assert.equal(pageSummary({ offset: 0, limit: 0 }, { items: Array(7).fill(0) }), { text: '1–7', hasNext: false });
});
paging.run();

const shell = suite('sign-in errors, area gating, navigation');
shell('the sign-in explains what the backend names', () => {
  assert.is(signInError({}), undefined);
  assert.match(signInError({ error: 'unknown_tenant', tenant: 'acme' })!, /no active tenant "acme"/);
  assert.match(
    signInError({ error: 'provider_refused', detail: 'access_denied' })!,
    /refused the sign-in \(access_denied\)/,
  );
  assert.match(signInError({ error: 'something_new' })!, /something_new/);
});

const session = (scopes: string[], operator = false): Session => ({
  tenant: 'acme',
  user: { sub: 'u', name: 'Ann', username: 'ann' },
  scopes,
  platformAdmin: false,
  operator,
  expiresAt: '2026-01-01T00:00:00Z',
});
const area = (id: string, scopes: string[], group?: string): AreaMeta => ({
  id,
  title: id.toUpperCase(),
  description: '',
  scopes,
  nav: [{ to: `/${id}`, label: id }],
  ...(group !== undefined && { group }),
});

shell('an area is shown when the session holds every scope it needs', () => {
  const areas = [
    area('bridge', ['bridge:admin'], 'Public Setting'),
    area('sso', ['identity:admin']),
    area('both', ['bridge:admin', 'audit:read']),
  ];
  assert.equal(
    visibleAreas(areas, session(['openid', 'bridge:admin'])).map((a) => a.id),
    ['bridge'],
  );
  assert.equal(
    visibleAreas(areas, session(['bridge:admin', 'identity:admin', 'audit:read'])).map((a) => a.id),
    ['bridge', 'sso', 'both'],
  );
  assert.equal(visibleAreas(areas, null), []);
  assert.ok(hasScopes(session(['a']), []));
});

shell("an operators' area is shown to an operator tenant's session holding its scope only", () => {
  const ops = { ...area('operations', ['ops:admin']), operatorOnly: true as const };
  assert.equal(
    visibleAreas([ops], session(['ops:admin'], true)).map((a) => a.id),
    ['operations'],
  );
  assert.equal(visibleAreas([ops], session(['ops:admin'], false)), []);
  assert.equal(visibleAreas([ops], session([], true)), []);
});

shell('areas under one group heading stay together, in order', () => {
  const groups = navGroups([area('bridge', [], 'Public Setting'), area('sso', []), area('hub', [], 'Public Setting')]);
  assert.equal(
    groups.map((g) => [g.heading, g.areas.map((a) => a.id)]),
    [
      ['Public Setting', ['bridge', 'hub']],
      ['SSO', ['sso']],
    ],
  );
});
shell('the current navigation entry is the longest one the page is under', () => {
  const areas = [
    {
      id: 'sso',
      title: 'SSO',
      description: '',
      scopes: [],
      nav: [
        { to: '/sso', label: 'Applications' },
        { to: '/sso/users', label: 'Users' },
      ],
    },
    {
      id: 'bridge',
      title: 'Bridge',
      description: '',
      scopes: [],
      nav: [
        { to: '/bridge', label: 'Buses' },
        { to: '/bridge/dead-letters', label: 'Dead letters' },
      ],
    },
  ] satisfies AreaMeta[];
  assert.is(currentNavEntry(areas, '/sso'), '/sso');
  assert.is(currentNavEntry(areas, '/sso/users'), '/sso/users');
  assert.is(currentNavEntry(areas, '/sso/users/u-1'), '/sso/users');
  assert.is(currentNavEntry(areas, '/sso/applications/new'), '/sso');
  assert.is(currentNavEntry(areas, '/bridge/buses/orders'), '/bridge');
  assert.is(currentNavEntry(areas, '/bridge/dead-letters'), '/bridge/dead-letters');
  assert.is(currentNavEntry(areas, '/ssox'), undefined, 'a folder, not a prefix of the name');
  assert.is(currentNavEntry(areas, '/'), undefined);
});

shell("API access and a user's roles offer every service's scopes, grouped by service", () => {
  assert.equal(
    SCOPE_GROUPS.flatMap((g) => g.scopes),
    [...SERVICE_SCOPES],
  );
  assert.ok(SCOPE_GROUPS.some((g) => g.scopes.includes('ops:admin')));
});

shell.run();
