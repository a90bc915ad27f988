import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { fold } from '../../../domain/core/decider.ts';
import { type TenantEvent, tenantDecider, tenantStream } from '../../../domain/identity/tenant.decider.ts';
import { deciderSpec } from '../../core/decider-spec.ts';

const spec = deciderSpec(tenantDecider);
const now = '2026-01-01T00:00:00.000Z';
const later = '2026-01-02T00:00:00.000Z';
const created: TenantEvent = {
  type: 'TenantCreated',
  data: {
    code: 'acme',
    name: 'Acme',
    tokenLifetimeSeconds: 7200,
    supportMailGroup: 'support@acme.example',
    createdAt: now,
  },
};

test('tenants live in platform-segment streams', () => {
  assert.is(tenantStream('acme'), 'tenant-platform.acme');
});

test('create: TenantCreated with the command time, name trimmed', () => {
  spec
    .given([])
    .when({
      type: 'CreateTenant',
      code: 'acme',
      name: ' Acme ',
      tokenLifetimeSeconds: 7200,
      supportMailGroup: 'support@acme.example',
      now,
    })
    .then([created]);
});

test('create without a support mail group leaves it out', () => {
  spec
    .given([])
    .when({ type: 'CreateTenant', code: 'globex', name: 'Globex', tokenLifetimeSeconds: 60, now })
    .then([
      { type: 'TenantCreated', data: { code: 'globex', name: 'Globex', tokenLifetimeSeconds: 60, createdAt: now } },
    ]);
});

test('create twice: 409 TENANT.ALREADY_EXISTS', () => {
  spec
    .given([created])
    .when({ type: 'CreateTenant', code: 'acme', name: 'Acme', tokenLifetimeSeconds: 7200, now })
    .thenThrows('TENANT.ALREADY_EXISTS', 409);
});

for (const [label, cmd] of [
  ['an upper-case code', { code: 'Acme' }],
  ['a code with a dot (it would break the stream name)', { code: 'ac.me' }],
  ['an empty code', { code: '' }],
  ['a blank name', { name: '   ' }],
  ['a zero token lifetime', { tokenLifetimeSeconds: 0 }],
  ['a fractional token lifetime', { tokenLifetimeSeconds: 1.5 }],
  ['a token lifetime above 31 days', { tokenLifetimeSeconds: 31 * 86400 + 1 }],
  ['a support mail group that is no address', { supportMailGroup: 'support' }],
] as Array<[string, Partial<{ code: string; name: string; tokenLifetimeSeconds: number; supportMailGroup: string }>]>) {
  test(`create with ${label}: 400 TENANT.INVALID`, () => {
    spec
      .given([])
      .when({ type: 'CreateTenant', ...{ code: 'acme', name: 'Acme', tokenLifetimeSeconds: 7200, ...cmd }, now })
      .thenThrows('TENANT.INVALID', 400);
  });
}

test('an invalid create names every bad field', () => {
  try {
    tenantDecider.decide(
      { type: 'CreateTenant', code: 'A', name: '', tokenLifetimeSeconds: -1, supportMailGroup: 'x', now },
      { status: 'none' },
    );
    assert.unreachable();
  } catch (err) {
    const fields = (err as { details: Array<{ field: string }> }).details.map((d) => d.field);
    assert.equal(fields, ['code', 'name', 'token_lifetime_seconds', 'support_mail_group']);
  }
});

test('update records only what changed', () => {
  spec
    .given([created])
    .when({ type: 'UpdateTenant', name: 'Acme', tokenLifetimeSeconds: 3600, now: later })
    .then([
      { type: 'TenantUpdated', data: { code: 'acme', changes: { tokenLifetimeSeconds: 3600 }, updatedAt: later } },
    ]);
});

test('update with the current values: nothing to record', () => {
  spec
    .given([created])
    .when({ type: 'UpdateTenant', name: 'Acme', supportMailGroup: 'support@acme.example', now: later })
    .then([]);
});

test('update clears the support mail group with null', () => {
  const events = [
    created,
    { type: 'TenantUpdated' as const, data: { code: 'acme', changes: { supportMailGroup: null }, updatedAt: later } },
  ];
  spec.given([created]).when({ type: 'UpdateTenant', supportMailGroup: null, now: later }).then([events[1]!]);
  const state = fold(tenantDecider, events);
  assert.equal(state.status === 'exists' && state.tenant, {
    code: 'acme',
    name: 'Acme',
    tokenLifetimeSeconds: 7200,
    status: 'active',
  });
});

test('update of an unknown tenant: 404 TENANT.NOT_FOUND', () => {
  spec.given([]).when({ type: 'UpdateTenant', name: 'x', now }).thenThrows('TENANT.NOT_FOUND', 404);
});

test('update with a bad lifetime: 400 TENANT.INVALID', () => {
  spec.given([created]).when({ type: 'UpdateTenant', tokenLifetimeSeconds: 0, now }).thenThrows('TENANT.INVALID', 400);
});

test('fold: the tenant as the model has it', () => {
  const state = fold(tenantDecider, [
    created,
    {
      type: 'TenantUpdated',
      data: { code: 'acme', changes: { name: 'ACME Corp', tokenLifetimeSeconds: 600 }, updatedAt: later },
    },
  ]);
  assert.equal(state, {
    status: 'exists',
    tenant: {
      code: 'acme',
      name: 'ACME Corp',
      tokenLifetimeSeconds: 600,
      supportMailGroup: 'support@acme.example',
      status: 'active',
    },
    createdAt: now,
    updatedAt: later,
  });
});

test.run();
