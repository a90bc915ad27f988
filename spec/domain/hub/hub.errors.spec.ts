import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { CORE_ERRORS } from '../../../domain/core/core.errors.ts';
import { HUB_ERRORS } from '../../../domain/hub/hub.errors.ts';
import { scanErrorCodes, where } from '../../core/error-codes.scan.ts';

// The hub's catalog against its sources: every code the hub names is catalogued, every literal status
// agrees with the catalog, and nothing throws around the catalog's factories.
const scan = scanErrorCodes(['domain/hub', 'commands/hub', 'http/hub', 'projections/hub', 'infra/hub']);
const statusesOf = (code: string) =>
  [(HUB_ERRORS as Record<string, number>)[code], (CORE_ERRORS as Record<string, number>)[code]].filter(
    (s): s is number => s !== undefined,
  );

test('the scan reads the hub and finds its codes (it is not vacuous)', () => {
  assert.ok(scan.files.includes('domain/hub/notification.decider.ts'));
  assert.ok(scan.codes.some((c) => c.code === 'SEND.REQUEST_CONFLICT'));
  assert.ok(scan.codes.length > 40, `${scan.codes.length} codes`);
});

test('every error code the hub names is in a catalog; statuses agree; no `new DomainError(`', () => {
  assert.equal(
    scan.codes.filter((c) => statusesOf(c.code).length === 0).map((c) => `${c.code} at ${where(c)}`),
    [],
  );
  assert.equal(
    scan.pairs.filter((p) => !statusesOf(p.code).includes(p.status)).map((p) => `${p.code} ${p.status} at ${where(p)}`),
    [],
  );
  assert.equal(scan.constructions.map(where), []);
});

test('every code of the hub catalog is used somewhere outside the catalog (no dead codes)', () => {
  const used = new Set(scan.codes.filter((c) => c.file !== 'domain/hub/hub.errors.ts').map((c) => c.code));
  assert.equal(
    Object.keys(HUB_ERRORS).filter((c) => !used.has(c)),
    [],
  );
});

test('a code is in one catalog only', () => {
  assert.equal(
    Object.keys(HUB_ERRORS).filter((c) => c in CORE_ERRORS),
    [],
  );
});

test.run();
