import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { CORE_ERRORS } from '../../../domain/core/core.errors.ts';
import { WORKFLOW_ERRORS, workflowError } from '../../../domain/workflow/workflow.errors.ts';
import { scanErrorCodes, where } from '../../core/error-codes.scan.ts';

// The workflow's catalog against its sources: every code it names is catalogued, literal statuses agree,
// nothing throws around the factories.
const scan = scanErrorCodes([
  'domain/workflow',
  'commands/workflow',
  'http/workflow',
  'projections/workflow',
  'infra/workflow',
]);
const statusesOf = (code: string): number[] =>
  [(WORKFLOW_ERRORS as Record<string, number>)[code], (CORE_ERRORS as Record<string, number>)[code]].filter(
    (s): s is number => s !== undefined,
  );

test('the scan reads the workflow and finds its codes', () => {
  assert.ok(scan.files.includes('domain/workflow/instance.decider.ts'));
  assert.ok(scan.codes.some((c) => c.code === 'TASK.NOT_OPEN'));
  assert.ok(scan.codes.length > 30, `${scan.codes.length} codes`);
});

test('every code the workflow names is in a catalog; no `new DomainError(`; no code in two catalogs', () => {
  assert.equal(
    scan.codes.filter((c) => statusesOf(c.code).length === 0).map((c) => `${c.code} at ${where(c)}`),
    [],
  );
  assert.equal(
    scan.pairs.filter((p) => !statusesOf(p.code).includes(p.status)).map((p) => `${p.code} ${p.status} at ${where(p)}`),
    [],
  );
  assert.equal(scan.constructions.map(where), []);
  assert.equal(
    Object.keys(WORKFLOW_ERRORS).filter((c) => c in CORE_ERRORS),
    [],
  );
});

test("the spec's two errors: the expression and the gateway are 422, a duplicate completion 409", () => {
  assert.is(workflowError('EXPRESSION.EVALUATION_FAILED', 'x').status, 422);
  assert.is(workflowError('GATEWAY.NO_OUTGOING_FLOW', 'x').status, 422);
  assert.is(workflowError('TASK.NOT_OPEN', 'x').status, 409);
  assert.is(workflowError('WORKFLOW.TENANT_NOT_ENABLED', 'x').status, 409);
  assert.is(workflowError('DEPLOYMENT.UNSUPPORTED_ELEMENT', 'x').status, 400);
});

test.run();
