import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { loadOperationsConfig } from '../../../infra/operations/operations.config.ts';

test('without OPS_OPERATOR_TENANTS the service decides (the platform and the seed tenant)', () => {
  assert.is(loadOperationsConfig({}).operatorTenants, undefined);
});

test('OPS_OPERATOR_TENANTS lists tenant codes, spaces and empty entries aside', () => {
  assert.equal(loadOperationsConfig({ OPS_OPERATOR_TENANTS: 'platform' }).operatorTenants, ['platform']);
  assert.equal(loadOperationsConfig({ OPS_OPERATOR_TENANTS: ' platform , ops-team,' }).operatorTenants, [
    'platform',
    'ops-team',
  ]);
});

test('a value that is no list of tenant codes stops the start, naming the variable', () => {
  for (const value of ['', ',', 'Platform', 'platform,no such']) {
    try {
      loadOperationsConfig({ OPS_OPERATOR_TENANTS: value });
      assert.unreachable(`"${value}" was taken`);
    } catch (err) {
      assert.match(String((err as Error).message ?? err), /OPS_OPERATOR_TENANTS/);
    }
  }
});

test.run();
