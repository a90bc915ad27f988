import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { ConfigError, loadConfig } from '../../../infra/core/config.ts';

test('defaults on an empty environment', () => {
  const c = loadConfig({});
  assert.is(c.port, 8080);
  assert.is(c.dataDir, path.resolve('./data'));
  assert.is(c.publicBaseUrl, 'http://localhost:8080');
  assert.is(c.esdbUrl, undefined);
  assert.is(c.mongodbUrl, undefined);
});

test('values from the environment', () => {
  const c = loadConfig({
    PORT: '9000',
    DATA_DIR: '/tmp/x',
    PUBLIC_BASE_URL: 'https://id.example.com/',
    ESDB_URL: 'esdb://localhost:2113?tls=false',
    MONGODB_URL: 'mongodb://localhost:27017/?replicaSet=rs0',
  });
  assert.is(c.port, 9000);
  assert.is(c.dataDir, '/tmp/x');
  assert.is(c.publicBaseUrl, 'https://id.example.com');
  assert.is(c.esdbUrl, 'esdb://localhost:2113?tls=false');
});

test('every bad value is reported at once', () => {
  try {
    loadConfig({
      PORT: 'eighty',
      ESDB_URL: 'http://x',
      MONGODB_URL: 'nope',
      PUBLIC_BASE_URL: 'https://x.com/issuer',
      LOG_LEVEL: 'loud',
    });
    assert.unreachable('should have thrown');
  } catch (err) {
    assert.instance(err, ConfigError);
    const problems = (err as ConfigError).problems;
    assert.is(problems.length, 5, problems.join('\n'));
    assert.match(problems[0]!, /PORT/);
  }
});

test.run();
