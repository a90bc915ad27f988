// The REST_WEBHOOK driver against real HTTP receivers on loopback: what it sends (body, token, Standard
// Webhooks signature verified with the reference library), and what it observes for 2xx, 400, 429, 500, a
// read timeout, a reset connection and a refused connection, classified per the spec's table.
import { Webhook } from 'standardwebhooks';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { DriverRequest } from '../../../commands/hub/driver.contracts.ts';
import { createRestWebhookDriver } from '../../../commands/hub/drivers/rest-webhook.driver.ts';
import { type HubSettings, TenantTokenError, type TenantTokens } from '../../../commands/hub/hub.contracts.ts';
import { classify } from '../../../domain/hub/classification.ts';
import { DEFAULT_RETRY_POLICY } from '../../../domain/hub/config.model.ts';
import type { Message } from '../../../domain/hub/notification.model.ts';
import { startWebhookReceiver, type WebhookReceiver } from '../../http/hub/fixtures/webhook-receiver.ts';
import { loopbackHttpClient } from '../../infra/net/loopback-client.ts';

const SECRET = `whsec_${Buffer.from('0123456789abcdef0123456789abcdef').toString('base64')}`;
const http = loopbackHttpClient();
let rx: WebhookReceiver;
const invalidated: string[] = [];
let tokenFails: TenantTokenError | undefined;
const tokens: TenantTokens = {
  token: async () => {
    if (tokenFails !== undefined) throw tokenFails;
    return 'tenant-token-1';
  },
  invalidate: (_t, token) => void invalidated.push(token),
};
const settings: HubSettings = { get: async () => undefined };
const driver = createRestWebhookDriver({
  http,
  tokens,
  settings,
  defaults: { connectTimeoutMs: 2000, readTimeoutMs: 300 },
});

const message: Message = {
  MessageId: 'n1.m1',
  RuleId: 'c:1:r',
  Role: 'Customer',
  Channel: 'EMAIL',
  OrderNo: 0,
  Strategy: 'ALL',
  State: 'SUBMITTED',
  Recipient: { RecipientId: 'C-1', Address: 'jane@example.com' },
  Content: {
    TemplateMode: 'HUB_MANAGED',
    TemplateId: 'c:EMAIL:en',
    TemplateCode: 'c',
    LanguageId: 'en',
    ContentType: 'TEXT',
    Subject: 'Hi',
    BodyText: 'Hello Jane',
  },
  ServiceId: 'svc',
  DueAt: '2026-01-01T00:00:00.000Z',
  RetryPolicy: DEFAULT_RETRY_POLICY,
  Policies: { PreferencePolicy: 'RESPECT', FrequencyCapPolicy: 'RESPECT', QuietHoursPolicy: 'RESPECT' },
  ReceiptMode: 'FINAL_RESULT',
  Attempts: [],
  AutoAttempts: 1,
  DeliveryUncertain: false,
  TrackingCompleted: false,
  FinalFailure: false,
  UpdatedAt: '2026-01-01T00:00:00.000Z',
};
const request = (url: string, settingsOverride: Record<string, unknown> = {}): DriverRequest => ({
  tenant: 'acme',
  notification: { NotificationId: 'n1', RequestId: 'r1', NotificationCode: 'c' },
  message,
  attempt: { AttemptId: 'a1', AttemptNo: 1, ClientRequestId: 'crid-1', CallbackId: 'acme.n1.m1.a1.xyz' },
  service: {
    ServiceId: 'svc',
    DriverType: 'REST_WEBHOOK',
    Settings: { Url: url, ...settingsOverride },
    ReceiptMode: 'FINAL_RESULT',
  },
  signingSecrets: [SECRET],
  callbackPath: '/comm/v1/callbacks/receipt',
  callbackUrl: 'http://hub.example/comm/v1/callbacks/receipt',
});

test.before(async () => {
  rx = await startWebhookReceiver();
});
test.after(async () => {
  await rx.close();
  await http.close();
});

test('2xx: the content, ClientRequestId, CallbackId and CallbackPath, with the tenant token, signed per Standard Webhooks (webhook-id = ClientRequestId)', async () => {
  rx.behave = () => 202;
  const o = await driver.deliver(request(rx.url));
  assert.equal(classify(o).kind, 'ACCEPTED');
  const s = rx.received.at(-1)!;
  assert.is(s.headers.authorization, 'Bearer tenant-token-1');
  assert.is(s.headers['webhook-id'], 'crid-1');
  assert.is(s.headers['idempotency-key'], 'crid-1');
  assert.is(s.headers['x-comm-callback-id'], 'acme.n1.m1.a1.xyz');
  new Webhook(SECRET).verify(s.raw, {
    'webhook-id': String(s.headers['webhook-id']),
    'webhook-timestamp': String(s.headers['webhook-timestamp']),
    'webhook-signature': String(s.headers['webhook-signature']),
  });
  assert.equal(
    {
      ClientRequestId: s.body.ClientRequestId,
      CallbackId: s.body.CallbackId,
      CallbackPath: s.body.CallbackPath,
      Subject: s.body.Subject,
      BodyText: s.body.BodyText,
      Recipient: s.body.Recipient,
      Channel: s.body.Channel,
    },
    {
      ClientRequestId: 'crid-1',
      CallbackId: 'acme.n1.m1.a1.xyz',
      CallbackPath: '/comm/v1/callbacks/receipt',
      Subject: 'Hi',
      BodyText: 'Hello Jane',
      Recipient: { RecipientId: 'C-1', Address: 'jane@example.com' },
      Channel: 'EMAIL',
    },
  );
});

test('400 is a definite permanent rejection; a 401 also drops the cached token', async () => {
  rx.behave = () => ({ status: 400, body: '{"error":"bad address"}' });
  const o = classify(await driver.deliver(request(rx.url)));
  assert.is(o.kind, 'REJECTED');
  assert.ok(o.kind === 'REJECTED' && o.reason.includes('bad address'));
  rx.behave = () => 401;
  assert.is(classify(await driver.deliver(request(rx.url))).kind, 'REJECTED');
  assert.equal(invalidated, ['tenant-token-1']);
});

test('429 is a definite retryable failure, with its Retry-After', async () => {
  rx.behave = () => ({ status: 429, headers: { 'retry-after': '120' } });
  assert.equal(classify(await driver.deliver(request(rx.url))), {
    kind: 'RETRYABLE',
    reason: 'the receiver answered 429: {}',
    httpStatus: 429,
    retryAfterMs: 120_000,
  });
});

test('500 is an unknown outcome', async () => {
  rx.behave = () => 500;
  assert.is(classify(await driver.deliver(request(rx.url))).kind, 'UNCERTAIN');
});

test('a read timeout after the request went out is an unknown outcome (ReadTimeoutMs)', async () => {
  rx.behave = () => 'hang';
  const o = await driver.deliver(request(rx.url, { ReadTimeoutMs: 150 }));
  assert.equal(o.kind === 'failure' && [o.phase, o.reason], ['exchange', 'timeout']);
  assert.equal(classify(o).kind, 'UNCERTAIN');
});

test('a connection reset after the request went out is uncertain', async () => {
  rx.behave = () => 'reset';
  const o = await driver.deliver(request(rx.url));
  assert.equal(o.kind === 'failure' && o.phase, 'exchange');
  assert.is(classify(o).kind, 'UNCERTAIN');
});

test('a refused connection is a recognized connect failure: definite retryable', async () => {
  const closed = await startWebhookReceiver();
  const url = closed.url;
  await closed.close();
  const o = await driver.deliver(request(url));
  assert.equal(o.kind === 'failure' && [o.phase, o.reason], ['connect', 'refused']);
  assert.is(classify(o).kind, 'RETRYABLE');
});

test('the SSRF guard: a loopback receiver without OUTBOUND_ALLOW is refused, permanently', async () => {
  const { createOutboundHttpClient } = await import('../../../infra/net/outbound-http.client.ts');
  const guarded = createOutboundHttpClient();
  const d = createRestWebhookDriver({ http: guarded, tokens, settings });
  const o = await d.deliver(request(rx.url));
  assert.equal(classify(o).kind, 'REJECTED');
  await guarded.close();
});

test('no tenant token: nothing is sent; retryable unless the identity provider refused the credentials', async () => {
  const before = rx.received.length;
  tokenFails = new TenantTokenError('the token endpoint answered 401', false);
  assert.is(classify(await driver.deliver(request(rx.url))).kind, 'REJECTED');
  tokenFails = new TenantTokenError('the token endpoint could not be reached', true);
  assert.is(classify(await driver.deliver(request(rx.url))).kind, 'RETRYABLE');
  tokenFails = undefined;
  assert.is(rx.received.length, before);
});

test('validateSettings: Url required, timeouts bounded, capabilities well-formed, no unknown (credential) keys', () => {
  const fields = (s: Record<string, unknown>, ch?: string) => driver.validateSettings(s, ch).map((v) => v.field);
  assert.equal(
    fields(
      {
        Url: 'https://rx.example/n',
        ConnectTimeoutMs: 5000,
        ReadTimeoutMs: 10_000,
        SupportedChannels: ['EMAIL'],
        SupportedContentTypes: ['TEXT', 'HTML'],
        SupportsAttachments: false,
      },
      'EMAIL',
    ),
    [],
  );
  assert.equal(fields({}), ['Settings.Url']);
  assert.equal(fields({ Url: 'ftp://x', ConnectTimeoutMs: 0, Password: 'p' }), [
    'Settings.Password',
    'Settings.Url',
    'Settings.ConnectTimeoutMs',
  ]);
  assert.equal(fields({ Url: 'https://x', SupportedChannels: ['SMS'] }, 'EMAIL'), ['Settings.SupportedChannels']);
  assert.equal(fields({ Url: 'https://x', SupportedContentTypes: [] }), ['Settings.SupportedContentTypes']);
});

test.run();
