// The hub's TypeScript SDK against the platform: send (201, then 200 for the replay), errors as
// ConnectHubError, live progress, message detail and timeline, the receiver's receipt call; the target
// application `connect-hub` by default, overridable (COMM_HUB_APP_NAME, appName).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { ConnectHubError, createConnectHubClient } from '../../../http/hub/sdk/index.ts';
import { startWebhookReceiver, type WebhookReceiver } from './fixtures/webhook-receiver.ts';
import { aSend, configure, type HubPlatform, startHubPlatform } from './hub-harness.ts';

let p: HubPlatform;
let rx: WebhookReceiver;

test.before(async () => {
  p = await startHubPlatform();
  rx = await startWebhookReceiver(() => 202);
});
test.after(async () => {
  await rx.close();
  await p.platform.stop();
});

test('targets connect-hub by default (service discovery), overridable by COMM_HUB_APP_NAME and appName', () => {
  const asked: string[] = [];
  const resolveApp = (app: string) => (asked.push(app), p.base);
  assert.is(createConnectHubClient({ resolveApp, token: 't' }).appName, 'connect-hub');
  process.env.COMM_HUB_APP_NAME = 'connect-hub-eu';
  assert.is(createConnectHubClient({ resolveApp, token: 't' }).appName, 'connect-hub-eu');
  delete process.env.COMM_HUB_APP_NAME;
  assert.is(createConnectHubClient({ resolveApp, token: 't', appName: 'x' }).appName, 'x');
  assert.throws(() => createConnectHubClient({ token: 't' }));
});

test("send, replay, progress, message, timeline and the receiver's receipt through the SDK", async () => {
  const setup = await configure(p, 'acme', { receiverUrl: rx.url });
  const apps: string[] = [];
  const hub = createConnectHubClient({
    resolveApp: (app) => (apps.push(app), p.base),
    getToken: () => p.token('acme'),
  });
  const request = aSend(setup.code);
  const first = await hub.send(request);
  assert.is(first.status, 201);
  assert.is(apps[0], 'connect-hub');
  const replay = await hub.send(request);
  assert.equal(replay, { status: 200, acknowledgement: first.acknowledgement });
  const id = first.acknowledgement.Messages[0]!.MessageId;
  await p.eventually(async () => ((await hub.message(id)).State === 'ACCEPTED' ? true : undefined), 'accepted');
  const sub = rx.received.find((s) => s.body.MessageId === id)!;
  const receipt = await hub.receipt(sub.body.CallbackId, { Status: 'DELIVERED', ProviderRef: 'p-1' });
  assert.equal(receipt, { Applied: true, MessageId: id, State: 'DELIVERED' });
  const progress = await hub.sendRequest({ requestId: request.RequestId });
  assert.is(progress.Completed, true);
  assert.equal(progress.Acknowledgement, first.acknowledgement);
  assert.equal(
    (await hub.timeline(id)).Events.map((e) => e.Type),
    ['MessagePrepared', 'AttemptStarted', 'MessageAccepted', 'MessageDelivered'],
  );
  try {
    await hub.send(aSend('no-such-code'));
    assert.unreachable('404 expected');
  } catch (err) {
    assert.instance(err, ConnectHubError);
    assert.equal([(err as ConnectHubError).status, (err as ConnectHubError).code], [404, 'SEND.DEFINITION_NOT_FOUND']);
  }
});

test.run();
