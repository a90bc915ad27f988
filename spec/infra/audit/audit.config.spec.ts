import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { loadAuditConfig } from '../../../infra/audit/audit.config.ts';
import { ConfigError } from '../../../infra/core/config.ts';

test('defaults: scrolls expire 300 s after their last page, 500 records per append at most', () => {
  assert.equal(loadAuditConfig({}), { scrollIdleSeconds: 300, writeBatchMax: 500 });
  assert.equal(loadAuditConfig({ AUDIT_SCROLL_IDLE_SECONDS: '60', AUDIT_WRITE_BATCH_MAX: '50' }), {
    scrollIdleSeconds: 60,
    writeBatchMax: 50,
  });
});

test('a bad value stops the start with one line per problem', () => {
  try {
    loadAuditConfig({ AUDIT_SCROLL_IDLE_SECONDS: '5', AUDIT_WRITE_BATCH_MAX: 'many' });
    assert.unreachable('ConfigError');
  } catch (err) {
    if (err instanceof assert.Assertion) throw err;
    assert.instance(err, ConfigError);
    assert.equal((err as ConfigError).problems.length, 2);
    assert.match((err as ConfigError).problems[0]!, /AUDIT_SCROLL_IDLE_SECONDS must be an integer from 10 to 86400/);
  }
});

test.run();
