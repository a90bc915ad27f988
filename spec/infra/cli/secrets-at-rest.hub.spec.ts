// The hub's delivery-service signing secrets across a change of KEY_ENCRYPTION_SECRET: created under the
// old secret, they still sign after a restart under the new one (the old one as previous); `platform keys
// rotate-config` seals them again under the new one by appending, and a platform given only the new
// secret signs with them. The whole platform in this process, restarted on the same DATA_DIR.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Webhook } from 'standardwebhooks';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { eventIdFor } from '../../../commands/core/event-id.ts';
import { createKeyedSecretBox, secretKid } from '../../../commands/core/secret.box.ts';
import { deliveryServiceStream } from '../../../domain/hub/delivery-service.decider.ts';
import { keysRotate } from '../../../infra/cli/keys.ts';
import { keysRotateConfig } from '../../../infra/cli/rotate-config.ts';
import { loadConfig } from '../../../infra/core/config.ts';
import {
  type Submission,
  startWebhookReceiver,
  type WebhookReceiver,
} from '../../http/hub/fixtures/webhook-receiver.ts';
import { aSend, configure, HUB, type HubPlatform, type Setup, startHubPlatform } from '../../http/hub/hub-harness.ts';

const OLD = 'old-key-encryption-secret-0123456789-abcdefgh';
const NEW = 'new-key-encryption-secret-9876543210-zyxwvuts';

const test = suite('hub signing secrets at rest');
const dir = mkdtempSync(path.join(tmpdir(), 'hub-secrets-'));
let p: HubPlatform | undefined;
let rx: WebhookReceiver;
let setup: Setup;
/** the service's signing secrets: the one it was created with, and the one a rotation (with overlap) issued */
let first: string;
let second: string;

const start = async (env: Record<string, string>) => {
  await p?.stop();
  p = await startHubPlatform({ platformEnv: env, dataDir: dir });
  return p;
};
const platform = () => p!;
const rotateConfig = async (env: Record<string, string>) => {
  const out: string[] = [];
  const code = await keysRotateConfig([], {
    eventStore: platform().platform.stores.eventStore,
    config: loadConfig({ DATA_DIR: dir, ...env }),
    print: (l) => out.push(l),
  });
  return { code, out: out.join('\n') };
};
/** a send, and its submission once the receiver has it */
const sendOne = async (): Promise<Submission> => {
  const body = aSend(setup.code);
  const r = await platform().call('POST', `${HUB}/notifications/send`, { token: await platform().token('acme'), body });
  assert.is(r.status, 201, JSON.stringify(r.body));
  return platform().eventually(
    async () => rx.received.find((s) => s.body.RequestId === body.RequestId),
    `the send ${body.RequestId} reaching the receiver`,
  );
};
const verifies = (secret: string, s: Submission) => {
  const headers = {
    'webhook-id': String(s.headers['webhook-id']),
    'webhook-timestamp': String(s.headers['webhook-timestamp']),
    'webhook-signature': String(s.headers['webhook-signature']),
  };
  new Webhook(secret).verify(s.raw, headers); // throws when no signature of the header matches
};
const serviceStream = () => deliveryServiceStream('acme', setup.serviceId);
const newest = async () => {
  const events = await platform().platform.stores.eventStore.readStream(serviceStream());
  return {
    count: events.length,
    last: events[events.length - 1]! as unknown as {
      type: string;
      data: { Sealed: string; PreviousSealed?: string; PreviousUntil?: string };
    },
  };
};

test.before(async () => {
  rx = await startWebhookReceiver(() => 200);
});
test.after(async () => {
  await p?.stop();
  await rx.close();
  rmSync(dir, { recursive: true, force: true });
});

test('a delivery service created under the old secret: its signing secrets sealed under it', async () => {
  await start({ KEY_ENCRYPTION_SECRET: OLD });
  setup = await configure(platform(), 'acme', { receiverUrl: rx.url });
  first = setup.signingSecret;
  const rotated = await platform().call('POST', `${HUB}/delivery-services/${setup.serviceId}/rotate-signing-secret`, {
    token: await platform().token('acme'),
    body: { OverlapSeconds: 86_400 },
  });
  assert.is(rotated.status, 200, JSON.stringify(rotated.body));
  second = rotated.body.SigningSecret;
  const log = JSON.stringify(await platform().platform.stores.eventStore.readStream(serviceStream()));
  assert.not.ok(log.includes(first) || log.includes(second), 'no signing secret in clear in the log');
  const s = await sendOne();
  verifies(first, s);
  verifies(second, s);
});

test('restarted under a new secret, the old one as previous: a send is still signed with both secrets', async () => {
  await start({ KEY_ENCRYPTION_SECRET: NEW, KEY_ENCRYPTION_SECRET_PREVIOUS: OLD });
  const s = await sendOne();
  verifies(first, s);
  verifies(second, s);
});

test('keys rotate-config seals them again under the new secret by appending; a second run finds them current', async () => {
  const before = await newest();
  const r = await rotateConfig({ KEY_ENCRYPTION_SECRET: NEW, KEY_ENCRYPTION_SECRET_PREVIOUS: OLD });
  assert.is(r.code, 0, r.out);
  assert.match(r.out, /hub signing secrets: 1 sealed again, 0 already current/);
  assert.match(r.out, new RegExp(`sealed again: acme/${setup.serviceId}`));
  const after = await newest();
  assert.is(after.count, before.count + 1, 'one new event, the old ones untouched');
  assert.is(after.last.type, 'SigningSecretIssued');
  assert.match(after.last.data.Sealed, new RegExp(`^enc:v2:${secretKid(NEW)}\\.`));
  assert.match(String(after.last.data.PreviousSealed), new RegExp(`^enc:v2:${secretKid(NEW)}\\.`));
  assert.is(after.last.data.PreviousUntil, before.last.data.PreviousUntil, 'the overlap ends when it did');

  const again = await rotateConfig({ KEY_ENCRYPTION_SECRET: NEW });
  assert.is(again.code, 0, again.out);
  assert.match(again.out, /hub signing secrets: 0 sealed again, 1 already current/);
  assert.is((await newest()).count, after.count);
});

test('a platform given only the new secret signs with the same secrets', async () => {
  // the identity provider's signing keys are the other thing the old secret sealed: a new one under NEW
  assert.is(
    await keysRotate(['--now'], {
      eventStore: platform().platform.stores.eventStore,
      config: loadConfig({ DATA_DIR: dir, KEY_ENCRYPTION_SECRET: NEW, KEY_ENCRYPTION_SECRET_PREVIOUS: OLD }),
      print: () => undefined,
    }),
    0,
  );
  await start({ KEY_ENCRYPTION_SECRET: NEW });
  const s = await sendOne();
  verifies(first, s);
  verifies(second, s);
});

test('a signing secret none of the given secrets opens: listed, left as it is, exit code 1', async () => {
  const stranger = createKeyedSecretBox('some-other-secret-nobody-configured-0123456789');
  const at = new Date().toISOString();
  const meta = { tenant: 'acme', correlationId: 'foreign', occurredAt: at, schemaVersion: 1 };
  const resource = { ServiceId: 'foreign', DriverType: 'REST_WEBHOOK', Settings: { Url: rx.url } };
  await platform().platform.stores.eventStore.append(
    deliveryServiceStream('acme', 'foreign'),
    [
      {
        id: eventIdFor('foreign', 0),
        type: 'DeliveryServiceSaved',
        data: { Resource: resource, Created: true, At: at },
        metadata: meta,
      },
      {
        id: eventIdFor('foreign', 1),
        type: 'SigningSecretIssued',
        data: { ServiceId: 'foreign', Sealed: stranger.seal('whsec_x', 'hub-service/acme/foreign'), At: at },
        metadata: meta,
      },
    ],
    'no_stream',
  );
  const r = await rotateConfig({ KEY_ENCRYPTION_SECRET: NEW });
  assert.is(r.code, 1, r.out);
  assert.match(r.out, /cannot open hub delivery service acme\/foreign: .*KEY_ENCRYPTION_SECRET_PREVIOUS/);
  assert.is(
    (await platform().platform.stores.eventStore.readStream(deliveryServiceStream('acme', 'foreign'))).length,
    2,
  );
});

test.run();
