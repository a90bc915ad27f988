import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { CORE_ERRORS } from '../../../domain/core/core.errors.ts';
import { OPS_ERRORS, opsError } from '../../../domain/operations/operations.errors.ts';
import { scanErrorCodes, where } from '../../core/error-codes.scan.ts';

// The operations catalog against the operations sources: every code named is catalogued, every literal status agrees.
const scan = scanErrorCodes(['domain/operations', 'http/operations', 'infra/operations']);
const statusesOf = (code: string): number[] =>
  [(OPS_ERRORS as Record<string, number>)[code], (CORE_ERRORS as Record<string, number>)[code]].filter(
    (s): s is number => s !== undefined,
  );

test('the scan reads the operations API and finds its codes', () => {
  assert.ok(scan.files.includes('infra/operations/rebuilds.ts'));
  assert.ok(scan.codes.some((c) => c.code === 'REBUILD.RUNNING'));
});

test('every error code the operations API names is in a catalog', () => {
  assert.equal(
    scan.codes.filter((c) => statusesOf(c.code).length === 0).map((c) => `${c.code} at ${where(c)}`),
    [],
  );
});

test('no DomainError built by hand; no code shared with the core catalog; statuses are 4xx', () => {
  assert.equal(scan.constructions.map(where), []);
  assert.equal(
    Object.keys(OPS_ERRORS).filter((c) => c in CORE_ERRORS),
    [],
  );
  for (const [code, status] of Object.entries(OPS_ERRORS)) assert.ok(status >= 400 && status < 500, code);
  assert.is(opsError('REBUILD.RUNNING', 'x').status, 409);
});

test.run();
