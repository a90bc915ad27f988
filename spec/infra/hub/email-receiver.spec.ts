// The reference EMAIL receiver against a real SMTP server (smtp-server): durable acceptance before the 2xx,
// deduplication by attempt, signature and token checks, SMTP outcomes reported as receipts; and end to end
// behind the hub (hub → receiver → SMTP → receipt → DELIVERED).
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { type EmailReceiver, startEmailReceiver } from '../../../infra/hub/email-receiver/email-receiver.app.ts';
import { createSmtpMailSender, type SmtpMailSender } from '../../../infra/net/smtp-mail.ts';
import { webhookHeaders } from '../../../infra/net/webhook-signature.ts';
import { eventually } from '../../core/eventually.ts';
import { aSend, configure, HUB, startHubPlatform } from '../../http/hub/hub-harness.ts';
import { type SmtpTestServer, startSmtpTestServer } from '../net/smtp-test-server.ts';

const SECRET = `whsec_${Buffer.from('receiver-spec-secret-0123456789ab').toString('base64')}`;
let dir: string;
let smtp: SmtpTestServer;
let mail: SmtpMailSender;
let hub: Server;
let hubUrl: string;
const receipts: Array<{ callbackId: string; body: any }> = [];
let hubAnswers = 200;

test.before(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'hub-email-receiver-'));
  smtp = await startSmtpTestServer();
  mail = createSmtpMailSender({ host: '127.0.0.1', port: smtp.port, ignoreTLS: true });
  // a stand-in for the hub's receipt endpoint
  hub = createServer((req, res) => {
    let raw = '';
    req.on('data', (c) => (raw += c));
    req.on('end', () => {
      if (hubAnswers === 200)
        receipts.push({ callbackId: String(req.headers['x-comm-callback-id']), body: JSON.parse(raw) });
      res.writeHead(hubAnswers, { 'content-type': 'application/json' });
      res.end('{}');
    });
  });
  await new Promise<void>((r) => hub.listen(0, '127.0.0.1', r));
  hubUrl = `http://127.0.0.1:${(hub.address() as AddressInfo).port}`;
});
test.after(async () => {
  mail.close();
  await smtp.close();
  await new Promise((r) => hub.close(r));
  rmSync(dir, { recursive: true, force: true });
});

let n = 0;
const submission = (o: Record<string, unknown> = {}) => ({
  ClientRequestId: `crid-${++n}`,
  CallbackId: `acme.x.m1.a1.cb${n}`,
  CallbackPath: '/comm/v1/callbacks/receipt',
  CallbackUrl: `${hubUrl}/comm/v1/callbacks/receipt`,
  Tenant: 'acme',
  MessageId: 'x.m1',
  Channel: 'EMAIL',
  Recipient: { RecipientId: 'C-1', Address: 'jane@example.com' },
  TemplateMode: 'HUB_MANAGED',
  ContentType: 'TEXT',
  Subject: 'Your policy',
  BodyText: 'Dear Jane',
  ...o,
});
async function post(rx: EmailReceiver, body: Record<string, unknown>, o: { secret?: string; id?: string } = {}) {
  const raw = JSON.stringify(body);
  const headers = webhookHeaders(o.id ?? String(body.ClientRequestId), Math.floor(Date.now() / 1000), raw, [
    o.secret ?? SECRET,
  ]);
  const res = await fetch(rx.url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: raw,
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}
const start = (file: string, extra: Partial<Parameters<typeof startEmailReceiver>[0]> = {}) =>
  startEmailReceiver({
    file: path.join(dir, file),
    mail,
    from: 'Hub <noreply@hub.example>',
    signingSecrets: [SECRET],
    pollMs: 20,
    ...extra,
  });

test('a submission is stored and answered 202; sent once through SMTP (Message-ID from the attempt); DELIVERED reported; a repeat is 200 and not resent', async () => {
  const rx = await start('a.sqlite');
  try {
    const s = submission();
    const first = await post(rx, s);
    assert.equal([first.status, first.body.Duplicate], [202, false]);
    assert.ok(rx.store.get(s.ClientRequestId), 'stored before the answer');
    await eventually(() => receipts.some((r) => r.callbackId === s.CallbackId), 'the receipt');
    const again = await post(rx, s);
    assert.equal([again.status, again.body.Duplicate], [200, true]);
    await rx.runDue();
    const sent = smtp.received.filter((m) => m.headers['message-id'] === `<${s.ClientRequestId}@hub.example>`);
    assert.is(sent.length, 1);
    assert.equal(sent[0]!.rcptTo, ['jane@example.com']);
    assert.is(sent[0]!.headers.subject, 'Your policy');
    const r = receipts.find((x) => x.callbackId === s.CallbackId)!;
    assert.is(r.body.Status, 'DELIVERED');
  } finally {
    await rx.close();
  }
});

test('401 for a bad signature; 400 for what it can never send (another channel, provider-managed templates)', async () => {
  const rx = await start('b.sqlite');
  try {
    assert.is(
      (
        await post(rx, submission(), {
          secret: `whsec_${Buffer.from('another-secret-0123456789abcdef').toString('base64')}`,
        })
      ).status,
      401,
    );
    assert.is((await post(rx, submission(), { id: 'not-the-signed-id' })).status, 202, 'webhook-id is what is signed');
    assert.is((await post(rx, submission({ Channel: 'SMS' }))).status, 400);
    assert.is((await post(rx, submission({ TemplateMode: 'PROVIDER_MANAGED', BodyText: undefined }))).status, 400);
  } finally {
    await rx.close();
  }
});

test('an SMTP 5xx refusal is reported FAILED (Retryable false); temporary failures retried, then FAILED (Retryable true)', async () => {
  let clock = Date.now();
  const rx = await start('c.sqlite', { maxSendTries: 2, now: () => clock });
  try {
    smtp.onData = () => ({ code: 550, message: 'mailbox unavailable' });
    const s = submission();
    await post(rx, s);
    await eventually(() => receipts.some((r) => r.callbackId === s.CallbackId), 'the FAILED receipt');
    assert.equal(receipts.find((r) => r.callbackId === s.CallbackId)!.body, {
      Status: 'FAILED',
      ProviderRef: 'smtp 550: Message failed: 550 mailbox unavailable',
      Retryable: false,
    });
    smtp.onData = () => ({ code: 451, message: 'try later' });
    const t = submission();
    await post(rx, t);
    await eventually(() => rx.store.get(t.ClientRequestId)!.tries === 1, 'a first temporary failure');
    clock += 60_000;
    await rx.runDue();
    await eventually(() => receipts.some((r) => r.callbackId === t.CallbackId), 'the retryable FAILED receipt');
    assert.is(receipts.find((r) => r.callbackId === t.CallbackId)!.body.Retryable, true);
  } finally {
    smtp.onData = () => undefined;
    await rx.close();
  }
});

test('durable: what was accepted before a stop is sent and reported after the restart; receipts are retried until the hub takes them', async () => {
  smtp.onData = () => ({ code: 421, message: 'closing' });
  const first = await start('d.sqlite');
  const s = submission();
  assert.is((await post(first, s)).status, 202);
  await first.close();
  smtp.onData = () => undefined;
  hubAnswers = 503;
  // a later time: a temporary failure before the stop waits a second
  let offset = 5000;
  const second = await start('d.sqlite', { now: () => Date.now() + offset });
  try {
    await eventually(() => second.store.get(s.ClientRequestId)!.state === 'reporting', 'sent after the restart');
    assert.is(
      receipts.some((r) => r.callbackId === s.CallbackId),
      false,
    );
    hubAnswers = 200;
    offset += 120_000;
    await second.runDue();
    await eventually(() => receipts.some((r) => r.callbackId === s.CallbackId), 'reported');
    assert.is(second.store.get(s.ClientRequestId)!.state, 'done');
  } finally {
    hubAnswers = 200;
    await second.close();
  }
});

test('end to end: the hub submits to the receiver (token and signature verified), the mail goes out, the DELIVERED receipt reaches the hub', async () => {
  const p = await startHubPlatform();
  const setup = await configure(p, 'acme', { receiverUrl: 'http://127.0.0.1:1/placeholder' });
  const token = await p.token('acme');
  const rx = await startEmailReceiver({
    file: path.join(dir, 'e2e.sqlite'),
    mail,
    from: 'noreply@hub.example',
    signingSecrets: [setup.signingSecret],
    issuer: p.base,
    pollMs: 20,
  });
  try {
    const svc = await p.call('GET', `${HUB}/delivery-services/${setup.serviceId}`, { token });
    const { ServiceId: _s, Revision: _r, CreatedAt: _c, UpdatedAt: _u, ...fields } = svc.body;
    assert.is(
      (
        await p.call('PUT', `${HUB}/delivery-services/${setup.serviceId}`, {
          token,
          body: { ...fields, Settings: { ...fields.Settings, Url: rx.url } },
        })
      ).status,
      200,
    );
    const ack = await p.call('POST', `${HUB}/notifications/send`, { token, body: aSend(setup.code) });
    assert.is(ack.status, 201, JSON.stringify(ack.body));
    const id = ack.body.Messages[0].MessageId;
    const m = await p.eventually(async () => {
      const r = await p.call('GET', `${HUB}/messages/getById?messageId=${id}`, { token });
      return r.body.State === 'DELIVERED' ? r.body : undefined;
    }, 'DELIVERED through the reference receiver');
    assert.ok(m.ProviderRef);
    const sent = smtp.received.find((x) => x.rcptTo.includes('jane@example.com') && x.body.includes('Dear Jane Roe'));
    assert.ok(sent, 'the mail reached the SMTP server');
  } finally {
    await rx.close();
    await p.platform.stop();
  }
});

test.run();
