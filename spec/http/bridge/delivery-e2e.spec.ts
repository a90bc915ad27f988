import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { deliveryIdFor } from '../../../commands/bridge/delivery.scheduler.ts';
import { type SmtpTestServer, startSmtpTestServer } from '../../infra/net/smtp-test-server.ts';
import { ADMIN, aJobAlert, type BridgePlatform, PUT_EVENT, startBridgePlatform } from './bridge-harness.ts';

// The composition end to end with the real mail target: the seeded platform rule sends a tenant's batch
// job alert to the tenant's support mail group (TENANT_PROFILE, from the identity provider's tenant
// record), from the configured sender (ENV_PARAM), through a real SMTP server started here.
const test = suite('delivery end to end: the platform alert rule mails the tenant’s support group');
let smtp: SmtpTestServer;
let p: BridgePlatform;

test.before(async () => {
  smtp = await startSmtpTestServer();
  p = await startBridgePlatform({
    env: { SMTP_HOST: '127.0.0.1', SMTP_PORT: String(smtp.port), SMTP_STARTTLS: 'off', DELIVERY_POLL_MS: '10' },
  });
});
test.after(async () => {
  await p.stop();
  await smtp.close();
});

test('putEvent → platform rule → mail to TENANT_PROFILE supportMailGroup; the trace shows the delivery', async () => {
  const acme = await p.token('acme');
  const r = await p.call('POST', PUT_EVENT, { token: acme, body: aJobAlert('acme') });
  assert.is(r.status, 200, JSON.stringify(r.body));
  const eventId = r.body.eventId as string;
  const mail = await p.eventually(async () => smtp.received[0], 'a mail');
  assert.equal(mail.rcptTo, ['support@acme.example']);
  assert.is(mail.mailFrom, 'alerts@platform.local');
  assert.is(mail.headers.subject, 'Batch job alert');
  assert.match(mail.body, /Batch job nightly-close reported FAILED at 2026-03-01T09:59:00Z: disk full/);
  const deliveryId = deliveryIdFor(eventId, 'platform', 'platform-batch-job-alert', 1);
  assert.ok(
    mail.headers['message-id']!.includes(deliveryId.slice(0, 16)),
    `Message-ID ${mail.headers['message-id']} carries the delivery id`,
  );
  const trace = await p.eventually(async () => {
    const t = await p.call('GET', `${ADMIN}/trace/events/${eventId}`, { token: acme });
    const d = (t.body?.delivery ?? []) as Array<{ status: string }>;
    return d.at(-1)?.status === 'succeeded' ? d : undefined;
  }, 'delivered in the trace');
  assert.equal(
    trace.map((d) => d.status),
    ['scheduled', 'started', 'succeeded'],
  );
  assert.is(smtp.received.length, 1);
});

test.run();
