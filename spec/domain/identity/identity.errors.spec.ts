import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { CORE_ERRORS } from '../../../domain/core/core.errors.ts';
import { DomainError } from '../../../domain/core/domain-error.ts';
import { IDENTITY_ERRORS, identityError } from '../../../domain/identity/identity.errors.ts';
import { scanErrorCodes, where } from '../../core/error-codes.scan.ts';

// The identity provider's catalog against its sources: every code it names is catalogued and every literal
// status (including those of helpers such as `refuse(code, …)` with a fixed status) agrees with the catalog.
const scan = scanErrorCodes([
  'domain/identity',
  'commands/identity',
  'http/identity',
  'projections/identity',
  'infra/identity',
]);

const statusOf = (code: string): number | undefined =>
  (IDENTITY_ERRORS as Record<string, number>)[code] ?? (CORE_ERRORS as Record<string, number>)[code];

test('the scan reads the identity provider and finds its codes (it is not vacuous)', () => {
  assert.ok(scan.codes.some((c) => c.code === 'USER.NOT_FOUND' && c.file === 'domain/identity/user.decider.ts'));
  assert.ok(scan.codes.some((c) => c.code === 'CODE.PKCE_FAILED'));
  assert.ok(scan.codes.length > 30, `${scan.codes.length} codes`);
});

test('nothing throws around the catalog: every identity error comes from identityError (or coreError)', () => {
  assert.equal(scan.constructions.map(where), []);
});

test('every error code the identity provider names is in a catalog', () => {
  const missing = scan.codes.filter((c) => statusOf(c.code) === undefined).map((c) => `${c.code} at ${where(c)}`);
  assert.equal(missing, []);
});

test('every literal status paired with a code agrees with the catalog', () => {
  const wrong = scan.pairs
    .filter((p) => statusOf(p.code) !== p.status)
    .map((p) => `${p.code} ${p.status} at ${where(p)}`);
  assert.equal(wrong, []);
});

test('a code is in one catalog only, and every status is a 4xx or a 5xx', () => {
  assert.equal(
    Object.keys(IDENTITY_ERRORS).filter((c) => c in CORE_ERRORS),
    [],
  );
  for (const [code, status] of Object.entries(IDENTITY_ERRORS))
    assert.ok(status >= 400 && status < 600, `${code} ${status}`);
});

test('identityError takes the status from the catalog', () => {
  const e = identityError('CLIENT.CROSS_TENANT_FORBIDDEN', 'no', [{ field: 'allowed_access_tenants' }]);
  assert.instance(e, DomainError);
  assert.equal([e.code, e.status], ['CLIENT.CROSS_TENANT_FORBIDDEN', 403]);
  assert.is(identityError('USER.NOT_FOUND', 'no such user').status, 404);
});

test.run();
