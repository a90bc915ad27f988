import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { BRIDGE_ERRORS, bridgeError } from '../../../domain/bridge/bridge.errors.ts';
import { CORE_ERRORS } from '../../../domain/core/core.errors.ts';
import { DomainError } from '../../../domain/core/domain-error.ts';
import { scanErrorCodes, where } from '../../core/error-codes.scan.ts';

// The bridge's catalog against its sources: every code the bridge names is catalogued, every literal status
// agrees with the catalog, and nothing throws around the catalog's factories.
const scan = scanErrorCodes(['domain/bridge', 'commands/bridge', 'http/bridge', 'projections/bridge', 'infra/bridge']);

/** the status a code is answered with: its catalog's */
const statusesOf = (code: string): number[] =>
  [(BRIDGE_ERRORS as Record<string, number>)[code], (CORE_ERRORS as Record<string, number>)[code]].filter(
    (s): s is number => s !== undefined,
  );

test('the scan reads the bridge and finds its codes (it is not vacuous)', () => {
  assert.ok(scan.files.some((f) => f === 'domain/bridge/rule.decider.ts'));
  assert.ok(scan.codes.some((c) => c.code === 'RULE.NOT_FOUND' && c.file === 'domain/bridge/rule.decider.ts'));
  assert.ok(scan.codes.length > 100, `${scan.codes.length} codes`);
});

test('every error code the bridge names is in a catalog', () => {
  const missing = scan.codes.filter((c) => statusesOf(c.code).length === 0).map((c) => `${c.code} at ${where(c)}`);
  assert.equal(missing, []);
});

test('every literal status paired with a code agrees with the catalog', () => {
  assert.ok(
    scan.pairs.some((p) => p.code === 'PATTERN.INVALID'),
    'the pattern error pairs its code with a status',
  );
  const wrong = scan.pairs
    .filter((p) => !statusesOf(p.code).includes(p.status))
    .map((p) => `${p.code} ${p.status} at ${where(p)}`);
  assert.equal(wrong, []);
});

test('the bridge throws through its catalog: no `new DomainError(` in its sources', () => {
  assert.equal(scan.constructions.map(where), []);
});

test('a code is in one catalog only, with one status: a schema named by the path is 404, by a request field 400 (another code)', () => {
  const both = Object.keys(BRIDGE_ERRORS).filter((c) => c in CORE_ERRORS);
  assert.equal(both, []);
  assert.is(BRIDGE_ERRORS['SCHEMA.NOT_FOUND'], 404);
  assert.is(BRIDGE_ERRORS['SCHEMA.UNKNOWN'], 400);
});

test('every status is a 4xx or a 5xx', () => {
  for (const [code, status] of Object.entries(BRIDGE_ERRORS))
    assert.ok(status >= 400 && status < 600, `${code} ${status}`);
});

test('the factories take the status from the catalog', () => {
  const e = bridgeError('RULE.NOT_FOUND', 'no such rule', { ruleId: 'r1' });
  assert.instance(e, DomainError);
  assert.equal([e.code, e.status, e.message, e.details], ['RULE.NOT_FOUND', 404, 'no such rule', { ruleId: 'r1' }]);
  assert.is(bridgeError('SCHEMA.NOT_FOUND', 'x').status, 404);
  assert.is(bridgeError('SCHEMA.UNKNOWN', 'x').status, 400);
  // TypeScript refuses an unknown code; a cast that slips one through fails loudly instead of answering status undefined
  assert.throws(() => bridgeError('NOT.A_CODE' as 'RULE.NOT_FOUND', 'x'), /not in its catalog/);
});

test.run();
