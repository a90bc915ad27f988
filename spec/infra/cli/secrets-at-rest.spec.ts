// Secret configuration values are encrypted before they are appended, deliveries still
// use them, `platform replay` never prints them (nor a sealed connection secret), and `platform keys
// rotate-config` seals everything again under a new KEY_ENCRYPTION_SECRET by appending new events. The
// whole platform in this process (bridge harness), the CLI as a child process on the same DATA_DIR.
import { spawnSync } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createConfigCenter } from '../../../commands/bridge/config-center.commands.ts';
import { createConnectionReader } from '../../../commands/bridge/connections.commands.ts';
import { eventIdFor } from '../../../commands/core/event-id.ts';
import { createKeyedSecretBox, secretKid } from '../../../commands/core/secret.box.ts';
import {
  ADMIN,
  anEvent,
  type BridgePlatform,
  PUT_EVENT,
  startBridgePlatform,
} from '../../http/bridge/bridge-harness.ts';

const OLD = 'old-key-encryption-secret-0123456789-abcdefgh';
const NEW = 'new-key-encryption-secret-9876543210-zyxwvuts';
const CLEAR = 'receiver'; // the secret value: the name of the service deliveries go to
const PASSWORD = 'connection-password-never-printed';

const root = path.resolve(import.meta.dirname, '../../..');
const test = suite('secrets at rest');
let p: BridgePlatform;
let acme: string;
let receiver: Server;
const received: string[] = [];

const cli = (env: Record<string, string>, ...args: string[]) =>
  spawnSync(process.execPath, [path.join(root, 'bin/platform.js'), ...args], {
    cwd: root,
    env: { ...process.env, DATA_DIR: p.config.dataDir, LOG_LEVEL: 'silent', ...env },
    encoding: 'utf8',
  });
const stream = 'configEntry-acme.svc.name';
const rawLog = async (name: string) => JSON.stringify(await p.platform.stores.eventStore.readStream(name));

test.before(async () => {
  receiver = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      received.push(String(req.headers['x-delivery-id']));
      res.end('{}');
    });
  });
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
  p = await startBridgePlatform({
    env: { KEY_ENCRYPTION_SECRET: OLD, SERVICE_REGISTRY: `receiver=${url}`, DELIVERY_POLL_MS: '10' },
  });
  acme = await p.token('acme');
  assert.is((await p.call('POST', `${ADMIN}/buses`, { token: acme, body: { name: 'orders' } })).status, 201);
});
test.after(async () => {
  await p.stop();
  await new Promise((r) => receiver.close(r));
});

test('a secret value reaches the log sealed (with its key id), and deliveries use it in clear', async () => {
  const set = await p.call('PUT', `${ADMIN}/config/svc.name`, { token: acme, body: { value: CLEAR, secret: true } });
  assert.is(set.status, 200);
  assert.is(set.body.value, '******');
  const log = await rawLog(stream);
  assert.not.ok(log.includes(`"${CLEAR}"`), log);
  assert.match(log, new RegExp(`"value":"enc:v2:${secretKid(OLD)}\\.`));
  // the same value again writes nothing (a sealed value differs at every sealing)
  await p.call('PUT', `${ADMIN}/config/svc.name`, { token: acme, body: { value: CLEAR } });
  assert.is((await p.platform.stores.eventStore.readStream(stream)).length, 1);

  const rule = {
    id: 'via-secret',
    bus: 'orders',
    name: 'service name from a secret',
    pattern: { source: ['shop:checkout'] },
    targets: [
      {
        Id: 1,
        TypeId: 3,
        Params: [
          { ResourceKey: 'SERVICE_NAME', Form: 'ENV_PARAM', Value: 'svc.name' },
          { ResourceKey: 'BODY', Form: 'ORIGINAL', Value: '' },
        ],
      },
    ],
  };
  assert.is((await p.call('POST', `${ADMIN}/rules`, { token: acme, body: rule })).status, 201);
  await p.eventually(
    async () =>
      (await p.call('GET', `${ADMIN}/rules?bus=orders`, { token: acme })).body?.items?.length === 1 ? true : undefined,
    'rule listed',
  );
  const put = await p.call('POST', PUT_EVENT, { token: acme, body: anEvent() });
  const delivered = await p.eventually(async () => {
    const t = await p.call('GET', `${ADMIN}/trace/events/${put.body.eventId}`, { token: acme });
    return (t.body?.delivery as Array<{ status: string; deliveryId?: string }> | undefined)?.find(
      (d) => d.status === 'succeeded',
    );
  }, 'delivered through the secret service name');
  assert.ok(received.includes(delivered.deliveryId!));
});

test('platform replay prints neither the secret value nor a connection secret: [sealed] / [secret]', async () => {
  const conn = await p.call('POST', `${ADMIN}/connections`, {
    token: acme,
    body: { name: 'claims', auth: { kind: 'BASIC', username: 'svc', password: PASSWORD } },
  });
  assert.is(conn.status, 201, JSON.stringify(conn.body));
  // an entry an earlier version wrote in clear (secret, value unsealed) is masked too
  await p.platform.stores.eventStore.append(
    'configEntry-acme.legacy.token',
    [
      {
        id: eventIdFor('legacy', 0),
        type: 'ConfigValueSet',
        data: {
          tenant: 'acme',
          key: 'legacy.token',
          value: 'legacy-clear-secret',
          secret: true,
          at: new Date().toISOString(),
        },
        metadata: { tenant: 'acme', correlationId: 'legacy', occurredAt: new Date().toISOString(), schemaVersion: 1 },
      },
    ],
    'no_stream',
  );
  for (const s of [stream, 'connection-acme.claims', 'configEntry-acme.legacy.token']) {
    const r = cli({ KEY_ENCRYPTION_SECRET: OLD }, 'replay', '--stream', s, '--state');
    assert.is(r.status, 0, r.stderr);
    assert.not.match(r.stdout, new RegExp(`${CLEAR}"|${PASSWORD}|legacy-clear-secret|enc:v`), r.stdout);
    assert.match(r.stdout, /\[sealed\]|\[secret\]/);
  }
});

test('keys rotate-config: a new KEY_ENCRYPTION_SECRET, the old one as previous, everything sealed again by appending', async () => {
  const rotated = cli({ KEY_ENCRYPTION_SECRET: NEW, KEY_ENCRYPTION_SECRET_PREVIOUS: OLD }, 'keys', 'rotate-config');
  assert.is(rotated.status, 0, rotated.stdout + rotated.stderr);
  assert.match(rotated.stdout, /configuration secrets: 2 sealed again/);
  assert.match(rotated.stdout, /sealed again: acme\/svc\.name/);
  assert.match(rotated.stdout, /sealed again: acme\/legacy\.token/);
  assert.match(rotated.stdout, /connections: 1 sealed again/);
  const events = await p.platform.stores.eventStore.readStream(stream);
  assert.is(events.length, 2, 'a new event, the old one untouched');
  assert.match(String((events[1]!.data as { value: string }).value), new RegExp(`^enc:v2:${secretKid(NEW)}\\.`));
  assert.not.ok(
    (await rawLog('configEntry-acme.legacy.token')).split('ConfigValueSet')[2]?.includes('legacy-clear-secret'),
    'the clear value is sealed now',
  );

  // the new secret alone opens everything now
  const center = createConfigCenter({ eventStore: p.platform.stores.eventStore, box: createKeyedSecretBox(NEW) });
  assert.is(await center.get('acme', 'svc.name'), CLEAR);
  assert.is(await center.get('acme', 'legacy.token'), 'legacy-clear-secret');
  const connection = await createConnectionReader({ eventStore: p.platform.stores.eventStore, secret: NEW }).resolve(
    'acme',
    'claims',
  );
  assert.equal(connection?.auth, { kind: 'BASIC', username: 'svc', password: PASSWORD });

  const again = cli({ KEY_ENCRYPTION_SECRET: NEW }, 'keys', 'rotate-config');
  assert.is(again.status, 0, again.stderr);
  assert.match(again.stdout, /configuration secrets: 0 sealed again, 2 already current/);
  assert.match(again.stdout, /connections: 0 sealed again, 1 already current/);
});

test('a value none of the given secrets opens: listed, left as it is, exit code 1', async () => {
  const stranger = createKeyedSecretBox('some-other-secret-nobody-configured-0123456789');
  await p.platform.stores.eventStore.append(
    'configEntry-acme.foreign',
    [
      {
        id: eventIdFor('foreign', 0),
        type: 'ConfigValueSet',
        data: {
          tenant: 'acme',
          key: 'foreign',
          value: stranger.seal('x', 'config/acme/foreign'),
          secret: true,
          at: new Date().toISOString(),
        },
        metadata: { tenant: 'acme', correlationId: 'f', occurredAt: new Date().toISOString(), schemaVersion: 1 },
      },
    ],
    'no_stream',
  );
  const r = cli({ KEY_ENCRYPTION_SECRET: NEW }, 'keys', 'rotate-config');
  assert.is(r.status, 1);
  assert.match(r.stdout, /cannot open configuration acme\/foreign: .*KEY_ENCRYPTION_SECRET_PREVIOUS/);
  assert.is((await p.platform.stores.eventStore.readStream('configEntry-acme.foreign')).length, 1);
});

test.run();
