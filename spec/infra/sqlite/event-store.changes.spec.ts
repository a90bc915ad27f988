import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createChangeSignal } from '../../../infra/sqlite/event-store.changes.ts';

test("own appends move the version only; another connection's commit moves both; a failing probe counts as one", () => {
  let dataVersion = 1;
  let fail = false;
  const signal = createChangeSignal({
    probe: () =>
      fail
        ? (() => {
            throw new Error('disk I/O error');
          })()
        : dataVersion,
    intervalMs: 1000,
  });
  const v0 = signal.version();
  const f0 = signal.foreign();
  signal.fire();
  assert.equal([signal.version() - v0, signal.foreign() - f0], [1, 0], 'an own append');
  dataVersion = 2;
  assert.equal([signal.version() - v0, signal.foreign() - f0], [2, 1], "another connection's commit");
  fail = true;
  // the readers must not trust their own-commit bookkeeping: they query, and the query reports the error
  assert.equal([signal.version() - v0, signal.foreign() - f0], [3, 2], 'a failed probe');
  signal.close();
});

test('the baseline is taken when the signal is made; a first probe that fails makes the next answer count as a change', () => {
  let dataVersion = 1;
  let fail = false;
  const probe = () =>
    fail
      ? (() => {
          throw new Error('disk I/O error');
        })()
      : dataVersion;
  const early = createChangeSignal({ probe, intervalMs: 1000 });
  dataVersion = 2; // another connection commits before anybody asked
  assert.is(early.foreign(), 0);
  early.version();
  assert.is(early.foreign(), 1, 'counted against the baseline taken at creation');
  early.close();

  fail = true;
  const failing = createChangeSignal({ probe, intervalMs: 1000 });
  assert.is(failing.foreign(), 1, 'the failed first probe counts');
  fail = false;
  failing.version();
  assert.is(failing.foreign(), 2, 'the first answer after it counts as a change: no baseline to compare with');
  failing.version();
  assert.is(failing.foreign(), 2, 'then the baseline holds');
  failing.close();
});

test('with localStatements, the calls of one run of code share a probe; the next run, or a statement meanwhile, probes again', async () => {
  let probes = 0;
  let dataVersion = 1;
  let local = 0;
  const signal = createChangeSignal({
    probe: () => (probes++, dataVersion),
    intervalMs: 1000,
    localStatements: () => local,
  });
  const before = probes;
  signal.version();
  signal.version();
  signal.version();
  assert.is(probes - before, 1, 'three reads issued together: one probe');
  local += 1; // a statement on a SQLite file of this process
  signal.version();
  assert.is(probes - before, 2, 'a statement since: probed again');
  await null;
  dataVersion = 2; // another process commits; this code hears of it only in a later run
  const v = signal.version();
  assert.is(probes - before, 3, 'the next run of code probes');
  assert.is(signal.version(), v);
  assert.is(signal.foreign(), 1, "the other process's commit is seen");
  signal.close();
});

test.run();
