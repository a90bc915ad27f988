// The outbound settings of infra/core/config.ts: SMTP_* (mail targets) and SERVICE_REGISTRY (preset HTTP
// client targets).
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { ConfigError, loadConfig } from '../../../infra/core/config.ts';

const test = suite('configuration: SMTP and the service registry');

const problemsOf = (env: Record<string, string>): string[] => {
  try {
    loadConfig(env);
  } catch (err) {
    assert.instance(err, ConfigError);
    return (err as ConfigError).problems;
  }
  throw new Error('expected a ConfigError');
};

test('SMTP defaults: no host, port 25, STARTTLS when offered, sender noreply@<public host>', () => {
  const c = loadConfig({ PUBLIC_BASE_URL: 'https://platform.insurer.example' });
  assert.equal(c.smtp, {
    host: undefined,
    port: 25,
    secure: false,
    auth: undefined,
    startTls: 'auto',
    from: 'noreply@platform.insurer.example',
  });
  assert.equal(c.serviceRegistry, {});
});

test('SMTP from the environment; the default port follows SMTP_SECURE and SMTP_USER', () => {
  const c = loadConfig({
    SMTP_HOST: 'smtp.example',
    SMTP_USER: 'u',
    SMTP_PASSWORD: 'p w',
    SMTP_FROM: 'Alerts <alerts@insurer.example>',
    SMTP_STARTTLS: 'require',
  });
  assert.equal(c.smtp, {
    host: 'smtp.example',
    port: 587,
    secure: false,
    auth: { user: 'u', pass: 'p w' },
    startTls: 'require',
    from: 'Alerts <alerts@insurer.example>',
  });
  assert.is(loadConfig({ SMTP_HOST: 'h', SMTP_SECURE: 'true' }).smtp.port, 465);
  assert.is(loadConfig({ SMTP_HOST: 'h', SMTP_SECURE: 'true', SMTP_PORT: '2465' }).smtp.port, 2465);
});

test('bad SMTP values are reported', () => {
  const problems = problemsOf({
    SMTP_PORT: '0',
    SMTP_SECURE: 'maybe',
    SMTP_USER: 'only-user',
    SMTP_STARTTLS: 'sometimes',
    SMTP_FROM: 'not an address',
  });
  assert.is(problems.length, 5, problems.join('\n'));
  for (const name of ['SMTP_PORT', 'SMTP_SECURE', 'SMTP_USER and SMTP_PASSWORD', 'SMTP_STARTTLS', 'SMTP_FROM']) {
    assert.ok(
      problems.some((p) => p.startsWith(name)),
      `${name}: ${problems.join('\n')}`,
    );
  }
});

test('SERVICE_REGISTRY as name=url pairs or as JSON; trailing slashes dropped', () => {
  assert.equal(
    loadConfig({ SERVICE_REGISTRY: 'claims=http://claims:8080/, billing = https://gw.internal/billing' })
      .serviceRegistry,
    {
      claims: 'http://claims:8080',
      billing: 'https://gw.internal/billing',
    },
  );
  assert.equal(
    loadConfig({ SERVICE_REGISTRY: '{"claims":"http://claims:8080","policy-svc":"http://policy"}' }).serviceRegistry,
    {
      claims: 'http://claims:8080',
      'policy-svc': 'http://policy',
    },
  );
});

test('bad SERVICE_REGISTRY entries are reported one by one', () => {
  const problems = problemsOf({
    SERVICE_REGISTRY: 'claims=ftp://x,=http://y,billing,policy=http://p?x=1,claims=http://z',
  });
  assert.equal(problems.length, 5, problems.join('\n'));
  assert.ok(problems.every((p) => p.startsWith('SERVICE_REGISTRY')));
  assert.is(problemsOf({ SERVICE_REGISTRY: '{"a": 1' }).length, 1);
  assert.is(problemsOf({ SERVICE_REGISTRY: '{"a": 1}' }).length, 1);
});

test('OUTBOUND_ALLOW: host names, addresses and CIDR blocks; empty by default', () => {
  assert.equal(loadConfig({}).outboundAllow, []);
  assert.equal(
    loadConfig({ OUTBOUND_ALLOW: '127.0.0.1, ::1,localhost,10.0.0.0/8,[fd00::1],Claims.Internal.,,fd00::/8' })
      .outboundAllow,
    ['127.0.0.1', '::1', 'localhost', '10.0.0.0/8', 'fd00::1', 'claims.internal', 'fd00::/8'],
  );
});

test('bad OUTBOUND_ALLOW entries are reported one by one', () => {
  const problems = problemsOf({ OUTBOUND_ALLOW: '10.0.0.0/33,not a host,http://x,10.0.0.1/x,localhost' });
  assert.equal(problems.length, 4, problems.join('\n'));
  assert.ok(
    problems.every((p) => p.startsWith('OUTBOUND_ALLOW')),
    problems.join('\n'),
  );
  assert.ok(
    problems.some((p) => p.includes('"10.0.0.0/33"')),
    problems.join('\n'),
  );
  assert.ok(
    problems.some((p) => p.includes('"not a host"')),
    problems.join('\n'),
  );
});

test.run();
