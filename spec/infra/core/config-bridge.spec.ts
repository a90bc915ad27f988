import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { ConfigError, loadConfig } from '../../../infra/core/config.ts';

const test = suite('configuration: the bridge delivery engine');

test('defaults: 5 s per call (spec Limits), a 30 s lease, 32 deliveries side by side, a 500 ms poll', () => {
  assert.equal(loadConfig({}).bridge, {
    deliveryTimeoutMs: 5000,
    deliveryLeaseMs: 30_000,
    deliveryConcurrency: 32,
    deliveryPollMs: 500,
  });
  const c = loadConfig({
    DELIVERY_TIMEOUT_MS: '2000',
    DELIVERY_LEASE_MS: '4000',
    DELIVERY_CONCURRENCY: '2',
    DELIVERY_POLL_MS: '50',
  });
  assert.equal(c.bridge, {
    deliveryTimeoutMs: 2000,
    deliveryLeaseMs: 4000,
    deliveryConcurrency: 2,
    deliveryPollMs: 50,
  });
});

test('the lease must outlast the call: an attempt older than the lease is taken for lost', () => {
  try {
    loadConfig({ DELIVERY_TIMEOUT_MS: '5000', DELIVERY_LEASE_MS: '5500' });
    assert.unreachable('accepted');
  } catch (err) {
    assert.instance(err, ConfigError);
    assert.ok(
      (err as ConfigError).problems.some((p) => p.startsWith('DELIVERY_LEASE_MS must exceed DELIVERY_TIMEOUT_MS')),
    );
  }
  try {
    loadConfig({ DELIVERY_CONCURRENCY: '0', DELIVERY_TIMEOUT_MS: 'soon' });
    assert.unreachable('accepted');
  } catch (err) {
    assert.equal((err as ConfigError).problems.filter((p) => p.startsWith('DELIVERY_')).length, 2);
  }
});

test.run();
