import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { AUDIT_ERRORS, auditError } from '../../../domain/audit/audit.errors.ts';
import { CORE_ERRORS } from '../../../domain/core/core.errors.ts';
import { scanErrorCodes, where } from '../../core/error-codes.scan.ts';

// The audit catalog against the audit sources: every code named is catalogued, every literal status agrees.
const scan = scanErrorCodes(['domain/audit', 'commands/audit', 'http/audit', 'projections/audit', 'infra/audit']);
const statusesOf = (code: string): number[] =>
  [(AUDIT_ERRORS as Record<string, number>)[code], (CORE_ERRORS as Record<string, number>)[code]].filter(
    (s): s is number => s !== undefined,
  );

test('the scan reads the audit service and finds its codes', () => {
  assert.ok(scan.files.includes('domain/audit/catalog.decider.ts'));
  assert.ok(scan.codes.some((c) => c.code === 'MODULE.HAS_TRANSACTIONS'));
});

test('every error code the audit service names is in a catalog', () => {
  assert.equal(
    scan.codes.filter((c) => statusesOf(c.code).length === 0).map((c) => `${c.code} at ${where(c)}`),
    [],
  );
});

test('every literal status agrees with the catalog; no DomainError built by hand', () => {
  assert.equal(
    scan.pairs.filter((p) => !statusesOf(p.code).includes(p.status)).map((p) => `${p.code} ${p.status} at ${where(p)}`),
    [],
  );
  assert.equal(scan.constructions.map(where), []);
});

test('no code shared with the core catalog; statuses are 4xx', () => {
  assert.equal(
    Object.keys(AUDIT_ERRORS).filter((c) => c in CORE_ERRORS),
    [],
  );
  for (const [code, status] of Object.entries(AUDIT_ERRORS)) assert.ok(status >= 400 && status < 500, code);
  assert.is(auditError('SCROLL.EXPIRED', 'x').status, 410);
});

test.run();
