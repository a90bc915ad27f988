import type { AddressInfo } from 'node:net';
import { createServer } from 'node:net';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { loadConfig } from '../../../infra/core/config.ts';
import type { MailMessage, MailSendFailure } from '../../../infra/core/mail.port.ts';
import { createSmtpMailSender, type SmtpMailSender, smtpMailOptions } from '../../../infra/net/smtp-mail.ts';
import { type SmtpTestServer, startSmtpTestServer } from './smtp-test-server.ts';

const test = suite('SMTP mail sender (nodemailer) against a real SMTP server');
let smtp: SmtpTestServer;
let mail: SmtpMailSender;

test.before(async () => {
  smtp = await startSmtpTestServer();
  mail = createSmtpMailSender({ host: '127.0.0.1', port: smtp.port, ignoreTLS: true });
});

test.after(async () => {
  mail.close();
  await smtp.close();
});

test.before.each(() => {
  smtp.onRcpt = () => undefined;
  smtp.onData = () => undefined;
});

const message = (o: Partial<MailMessage> = {}): MailMessage => ({
  messageId: '<d-1@platform>',
  from: 'Batch Alerts <alerts@insurer.example>',
  to: ['ops@acme.example', 'Jane Doe <jane@acme.example>'],
  cc: ['audit@acme.example'],
  subject: 'Job nightly-close failed — ünïcode',
  text: 'The job nightly-close failed: disk full.\nSee the console.',
  priority: 'high',
  headers: { 'X-Delivery-Id': 'd-1' },
  ...o,
});

async function rejection(p: Promise<unknown>): Promise<MailSendFailure> {
  try {
    await p;
  } catch (err) {
    return err as MailSendFailure;
  }
  throw new Error('expected the send to be rejected');
}

test('delivers the message: envelope, headers, priority and body', async () => {
  const before = smtp.received.length;
  const r = await mail.send(message());
  assert.equal(r.accepted.sort(), ['audit@acme.example', 'jane@acme.example', 'ops@acme.example']);
  assert.equal(r.rejected, []);
  assert.match(r.response, /^250/);
  const got = smtp.received[before]!;
  assert.is(got.mailFrom, 'alerts@insurer.example');
  assert.equal(got.rcptTo.sort(), ['audit@acme.example', 'jane@acme.example', 'ops@acme.example']);
  assert.is(got.headers.from, 'Batch Alerts <alerts@insurer.example>');
  assert.is(got.headers.to, 'ops@acme.example, Jane Doe <jane@acme.example>');
  assert.is(got.headers.cc, 'audit@acme.example');
  assert.is(got.headers.subject, 'Job nightly-close failed — ünïcode');
  assert.is(got.headers['message-id'], '<d-1@platform>');
  assert.is(got.headers['x-priority'], '1 (Highest)');
  assert.is(got.headers.importance, 'High');
  assert.is(got.headers['x-delivery-id'], 'd-1');
  assert.match(got.headers['content-type'] ?? '', /^text\/plain/);
  assert.is(got.body.replace(/\r\n/g, '\n'), 'The job nightly-close failed: disk full.\nSee the console.');
});

test('HTML bodies go as text/html; low priority; no Cc header without cc', async () => {
  const before = smtp.received.length;
  const { text: _t, ...rest } = message();
  await mail.send({ ...rest, cc: [], html: '<p>Job <b>failed</b></p>', priority: 'low', messageId: '<d-2@platform>' });
  const got = smtp.received[before]!;
  assert.match(got.headers['content-type'] ?? '', /^text\/html/);
  assert.is(got.body, '<p>Job <b>failed</b></p>');
  assert.is(got.headers['x-priority'], '5 (Lowest)');
  assert.is(got.headers.cc, undefined);
  assert.is(got.headers['message-id'], '<d-2@platform>');
});

test('a recipient refused with 5xx while another is accepted: delivered, the refused one listed', async () => {
  smtp.onRcpt = (a) => (a === 'jane@acme.example' ? { code: 550, message: 'no such user' } : undefined);
  const before = smtp.received.length;
  const r = await mail.send(message({ cc: [] }));
  assert.equal(r.accepted, ['ops@acme.example']);
  assert.equal(r.rejected, ['jane@acme.example']);
  assert.equal(smtp.received[before]!.rcptTo, ['ops@acme.example']);
});

test('every recipient refused with 5xx: rejects with responseCode 550', async () => {
  smtp.onRcpt = () => ({ code: 550, message: 'mailbox unavailable' });
  const err = await rejection(mail.send(message()));
  assert.is(err.responseCode, 550);
  assert.match(err.message, /recipients were rejected/);
  assert.match(err.response ?? '', /^550/);
});

test('recipients refused with 450 and 550: the temporary code wins', async () => {
  smtp.onRcpt = (a) =>
    a === 'ops@acme.example' ? { code: 450, message: 'mailbox busy' } : { code: 550, message: 'unknown' };
  const err = await rejection(mail.send(message()));
  assert.is(err.responseCode, 450);
  assert.match(err.message, /ops@acme.example: 450/);
});

test('the data refused with 452 (temporary) or 554 (permanent)', async () => {
  smtp.onData = () => ({ code: 452, message: 'insufficient storage' });
  const temporary = await rejection(mail.send(message()));
  assert.is(temporary.responseCode, 452);
  smtp.onData = () => ({ code: 554, message: 'transaction failed: spam' });
  const permanent = await rejection(mail.send(message()));
  assert.is(permanent.responseCode, 554);
  assert.match(permanent.message, /spam/);
});

test('the pool keeps the connection: several messages, one connection', async () => {
  const fresh = await startSmtpTestServer();
  const pooled = createSmtpMailSender({ host: '127.0.0.1', port: fresh.port, ignoreTLS: true, maxConnections: 1 });
  try {
    for (let i = 0; i < 3; i++) await pooled.send(message({ messageId: `<pool-${i}@platform>` }));
    assert.is(fresh.received.length, 3);
    assert.is(fresh.connections, 1);
  } finally {
    pooled.close();
    await fresh.close();
  }
});

test('no server: rejects without a response code', async () => {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const port = (probe.address() as AddressInfo).port;
  await new Promise((resolve) => probe.close(resolve));
  const nowhere = createSmtpMailSender({ host: '127.0.0.1', port, ignoreTLS: true });
  try {
    const err = await rejection(nowhere.send(message()));
    assert.is(err.responseCode, undefined);
    assert.match(err.message, /ECONNREFUSED/);
  } finally {
    nowhere.close();
  }
});

test('options from the configuration (SMTP_*)', async () => {
  assert.is(smtpMailOptions(loadConfig({}).smtp), undefined);
  const options = smtpMailOptions(
    loadConfig({ SMTP_HOST: '127.0.0.1', SMTP_PORT: String(smtp.port), SMTP_STARTTLS: 'off' }).smtp,
  )!;
  assert.equal(options, { host: '127.0.0.1', port: smtp.port, secure: false, ignoreTLS: true });
  assert.equal(
    smtpMailOptions(loadConfig({ SMTP_HOST: 'h', SMTP_USER: 'u', SMTP_PASSWORD: 'p', SMTP_STARTTLS: 'require' }).smtp),
    {
      host: 'h',
      port: 587,
      secure: false,
      auth: { user: 'u', pass: 'p' },
      requireTLS: true,
    },
  );
  const configured = createSmtpMailSender(options);
  try {
    const before = smtp.received.length;
    await configured.send(message({ messageId: '<configured@platform>' }));
    assert.is(smtp.received[before]!.headers['message-id'], '<configured@platform>');
  } finally {
    configured.close();
  }
});

test.run();
