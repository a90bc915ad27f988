// Configuration import/export (the data-import module `commhub`) and the cache bucket through the whole
// platform (real SQLite stores, real tokens, a real receiver): export without secrets, a round trip into
// another tenant over HTTP that then sends, all-or-nothing validation, import locks (a held lock: 409;
// racing acquirers: exactly one wins), the cache clear making a configuration change visible at once, and
// another process's definition cache following the log.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createConfigCommands as createConfigCenterCommands } from '../../../commands/bridge/config-center.commands.ts';
import { createConfigCommands } from '../../../commands/hub/config.commands.ts';
import { createConfigBundle } from '../../../commands/hub/config-bundle.commands.ts';
import { createConfigCacheConsumer } from '../../../commands/hub/config-cache.consumer.ts';
import { createDriverRegistry } from '../../../commands/hub/driver.registry.ts';
import { createConfigQueries } from '../../../projections/hub/config.projection.ts';
import { startWebhookReceiver, type WebhookReceiver } from './fixtures/webhook-receiver.ts';
import { aSend, configure, HUB, type HubPlatform, type Setup, startHubPlatform } from './hub-harness.ts';

let p: HubPlatform;
let rx: WebhookReceiver;
let setup: Setup;
const spec = (tenant: string) => ({ tenant, actor: 'spec' });

/** the tenant's export once the listings show `ruleId` */
async function exported(tenant: string, ruleId: string): Promise<any> {
  const t = await p.token(tenant);
  return p.eventually(async () => {
    const r = await p.call('GET', `${HUB}/configuration-bundle/export`, { token: t });
    assert.is(r.status, 200, JSON.stringify(r.body));
    return r.body.DeliveryRules.some((x: { RuleId: string }) => x.RuleId === ruleId) ? r.body : undefined;
  }, `${tenant}'s export with ${ruleId}`);
}
const sections = (b: any) => ({ ...b, Tenant: undefined, ExportedAt: undefined });

test.before(async () => {
  p = await startHubPlatform();
  rx = await startWebhookReceiver(() => 202);
  setup = await configure(p, 'acme', { receiverUrl: rx.url, condition: 'Amount > 10' });
  // the customer-policy configuration goes into the bundle too (a channel the sends here do not use)
  const t = await p.token('acme');
  assert.is(
    (await p.call('PUT', `${HUB}/frequency-caps/MARKETING`, { token: t, body: { Limit: 3, WindowSeconds: 86_400 } }))
      .status,
    200,
  );
  assert.is(
    (await p.call('PUT', `${HUB}/quiet-hours/SMS`, { token: t, body: { Windows: [{ Start: '22:00', End: '07:00' }] } }))
      .status,
    200,
  );
});
test.after(async () => {
  await rx.close();
  await p.platform.stop();
});

test('export: one commhub document with every resource group, sorted, without secrets', async () => {
  const b = await exported('acme', setup.rules[0]!);
  assert.is(b.Module, 'commhub');
  assert.is(b.FormatVersion, 1);
  assert.is(b.Tenant, 'acme');
  assert.equal(
    b.Channels.map((c: { Code: string }) => c.Code),
    ['EMAIL'],
  );
  assert.equal(
    b.DeliveryServices.map((s: { ServiceId: string }) => s.ServiceId),
    [setup.serviceId],
  );
  assert.is(b.Templates[0].TemplateId, `${setup.code}:EMAIL:en_US`);
  assert.is(b.Definitions[0].DefinitionId, setup.definitionId);
  assert.is(b.DeliveryRules[0].Condition, 'Amount > 10');
  assert.ok(b.ContextDefinitions.length >= 1);
  assert.equal(b.FrequencyCaps, [{ Category: 'MARKETING', Limit: 3, WindowSeconds: 86_400 }]);
  assert.equal(b.QuietHours, [{ Channel: 'SMS', Windows: [{ Start: '22:00', End: '07:00' }] }]);
  const text = JSON.stringify(b);
  assert.not.ok(text.includes('whsec_'), 'no signing secret');
  assert.not.ok(/Sealed|SigningSecret|enc:v/.test(text), 'nothing sealed either');
});

test('round trip over HTTP: the export imported into another tenant exports the same and sends; importing it again changes nothing', async () => {
  const source = await exported('acme', setup.rules[0]!);
  const beta = await p.token('beta');
  const imported = await p.call('POST', `${HUB}/configuration-bundle/import`, {
    token: beta,
    body: source,
    headers: { 'idempotency-key': 'import-beta-1' },
  });
  assert.is(imported.status, 200, JSON.stringify(imported.body));
  const total = [
    'Channels',
    'DeliveryServices',
    'Templates',
    'ContextDefinitions',
    'Definitions',
    'DeliveryRules',
    'FrequencyCaps',
    'QuietHours',
  ].reduce((n, k) => n + source[k].length, 0);
  assert.equal([imported.body.Created, imported.body.Updated, imported.body.Unchanged], [total, 0, 0]);
  assert.match(imported.body.SigningSecrets[setup.serviceId], /^whsec_/);

  const again = await exported('beta', setup.rules[0]!);
  assert.equal(sections(again), sections(source));
  assert.equal((await p.call('GET', `${HUB}/quiet-hours/SMS`, { token: beta })).body.Windows, [
    { Start: '22:00', End: '07:00' },
  ]);
  const second = await p.call('POST', `${HUB}/configuration-bundle/import`, { token: beta, body: source });
  assert.is(second.status, 200);
  assert.equal([second.body.Created, second.body.Updated, second.body.Unchanged], [0, 0, total]);
  assert.equal(second.body.SigningSecrets, {});

  // the imported configuration is live: a send in beta reaches the receiver
  const sent = await p.call('POST', `${HUB}/notifications/send`, { token: beta, body: aSend(setup.code) });
  assert.is(sent.status, 201, JSON.stringify(sent.body));
  const got = await p.eventually(
    async () => rx.received.find((s) => s.body.NotificationId === sent.body.NotificationId),
    "the webhook of beta's send",
  );
  assert.is(got.body.Tenant, 'beta');
  assert.is(got.body.BodyText, 'Dear Jane Roe, you pay 120.');
});

test('import is all or nothing: one refused resource and nothing is written; an update replaces the whole resource', async () => {
  const t = await p.token('acme');
  const bad = await p.call('POST', `${HUB}/configuration-bundle/import`, {
    token: t,
    body: {
      Module: 'commhub',
      FormatVersion: 1,
      Channels: [{ Code: 'FAX', Enabled: true }],
      Templates: [
        {
          TemplateId: 'x:FAX:en',
          TemplateCode: 'x',
          Channel: 'FAX',
          LanguageId: 'en',
          ContentType: 'PDF',
          Body: 'b',
          Status: 'ACTIVE',
        },
      ],
      Definitions: [
        { ...(await exported('acme', setup.rules[0]!)).Definitions[0], DefinitionId: `${setup.code}:2`, Version: 2 },
      ],
      QuietHours: [{ Channel: 'FAX', Windows: [{ Start: '25:00', End: '07:00' }] }],
    },
  });
  assert.is(bad.status, 400, JSON.stringify(bad.body));
  assert.is(bad.body.code, 'IMPORT.INVALID');
  const fields = bad.body.details.map(
    (d: { field: string; message: string }) => `${d.field} ${d.message.split(':')[0]}`,
  );
  assert.ok(
    fields.some((f: string) => f.startsWith('Templates.0.ContentType TEMPLATE.INVALID')),
    fields.join(' | '),
  );
  assert.ok(
    fields.some((f: string) => f.startsWith('Definitions.0 DEFINITION.OVERLAP')),
    fields.join(' | '),
  );
  assert.ok(
    fields.some((f: string) => f.startsWith('QuietHours.0.Windows[0].Start')),
    fields.join(' | '),
  );
  assert.is(
    (await p.call('GET', `${HUB}/channels/FAX`, { token: t })).status,
    404,
    'the valid channel was not written either',
  );

  const shape = await p.call('POST', `${HUB}/configuration-bundle/import`, {
    token: t,
    body: { Module: 'commhub', FormatVersion: 1, Channels: [{ Code: 'A' }, { Code: 'A' }] },
  });
  assert.is(shape.status, 400);
  assert.is(shape.body.details[0].field, 'Channels.1.Code');

  const update = await p.call('POST', `${HUB}/configuration-bundle/import`, {
    token: t,
    body: { Module: 'commhub', FormatVersion: 1, Channels: [{ Code: 'EMAIL', Description: 'mail', Enabled: true }] },
  });
  assert.is(update.status, 200, JSON.stringify(update.body));
  assert.equal(update.body.Resources, [{ Section: 'Channels', Id: 'EMAIL', Action: 'UPDATE' }]);
  assert.is((await p.call('GET', `${HUB}/channels/EMAIL`, { token: t })).body.Description, 'mail');
});

test("imports cannot interleave: a held group lock answers 409 and writes nothing; of racing acquirers exactly one wins; a dead holder's lease ends", async () => {
  const { eventStore, readStore } = p.platform.stores;
  // another process's import, on the same stores
  const other = createConfigBundle({
    eventStore,
    clock: p.clock,
    config: createConfigCommands({
      eventStore,
      clock: p.clock,
      drivers: createDriverRegistry([]),
      sealer: () => ({ seal: (s) => s, open: (s) => s }),
    }),
    queries: createConfigQueries(readStore),
    drivers: createDriverRegistry([]),
  });
  await other.locks.acquire(['channels'], 'other-import', spec('acme'));
  const t = await p.token('acme');
  const body = { Module: 'commhub', FormatVersion: 1, Channels: [{ Code: 'PAGER', Enabled: true }] };
  const refused = await p.call('POST', `${HUB}/configuration-bundle/import`, { token: t, body });
  assert.is(refused.status, 409, JSON.stringify(refused.body));
  assert.is(refused.body.code, 'IMPORT.LOCKED');
  assert.equal([refused.body.details.Group, refused.body.details.HeldBy], ['channels', 'other-import']);
  assert.is((await p.call('GET', `${HUB}/channels/PAGER`, { token: t })).status, 404);
  await other.locks.release(['channels'], 'other-import', spec('acme'));
  const ok = await p.call('POST', `${HUB}/configuration-bundle/import`, { token: t, body });
  assert.is(ok.status, 200, JSON.stringify(ok.body));

  // racing for a free lock (expected-revision appends): one wins, the others are refused
  const racers = ['r1', 'r2', 'r3', 'r4', 'r5', 'r6'];
  const outcomes = await Promise.allSettled(racers.map((id) => other.locks.acquire(['templates'], id, spec('acme'))));
  const won = outcomes.filter((o) => o.status === 'fulfilled');
  assert.is(won.length, 1);
  for (const o of outcomes)
    if (o.status === 'rejected') assert.is((o.reason as { code: string }).code, 'IMPORT.LOCKED');
  // the winner "dies" holding it: past its lease (15 minutes) another import takes it
  p.advance(16 * 60_000);
  await other.locks.acquire(['templates'], 'after-lease', spec('acme'));
  await other.locks.release(['templates'], 'after-lease', spec('acme'));
});

test('two imports at once never interleave: each answers 200 or 409 IMPORT.LOCKED, and the templates end all from one bundle', async () => {
  const t = await p.token('acme');
  const bundleOf = (word: string) => ({
    Module: 'commhub',
    FormatVersion: 1,
    Templates: Array.from({ length: 12 }, (_, i) => ({
      TemplateId: `race-${i}:EMAIL:en`,
      TemplateCode: `race-${i}`,
      Channel: 'EMAIL',
      LanguageId: 'en',
      ContentType: 'TEXT',
      Body: word,
      Status: 'DRAFT',
    })),
  });
  for (let round = 0; round < 3; round++) {
    const answers = await Promise.all(
      ['first', 'second'].map((w) =>
        p.call('POST', `${HUB}/configuration-bundle/import`, { token: t, body: bundleOf(`${w}-${round}`) }),
      ),
    );
    for (const a of answers)
      assert.ok(a.status === 200 || (a.status === 409 && a.body.code === 'IMPORT.LOCKED'), JSON.stringify(a.body));
    assert.ok(answers.some((a) => a.status === 200));
    const bodies = new Set<string>();
    for (let i = 0; i < 12; i++)
      bodies.add((await p.call('GET', `${HUB}/templates/race-${i}:EMAIL:en`, { token: t })).body.Body);
    assert.is(bodies.size, 1, `one bundle's content throughout: ${[...bodies].join(', ')}`);
  }
});

test('cache clear: a configuration change is visible right after it; unknown buckets 404; hub:admin needed', async () => {
  const t = await p.token('acme');
  const preview = () =>
    p.call('POST', `${HUB}/templates/previewContent`, {
      token: t,
      body: {
        Channel: 'EMAIL',
        LanguageId: 'en',
        ContentType: 'TEXT',
        Body: 'twenty characters...',
        Context: { Payload: {} },
      },
    });
  assert.is((await preview()).body.Valid, true);
  // comm-hub.template.max-rendered-length changed in the configuration center (kept 5 s per process; the clock here stands still)
  const center = createConfigCenterCommands({ eventStore: p.platform.stores.eventStore, clock: p.clock });
  await center.set({ key: 'comm-hub.template.max-rendered-length', value: '10' }, spec('acme'), 'spec/max-length');
  assert.is((await preview()).body.Valid, true, 'still the kept value');
  const cleared = await p.call('GET', '/public/cache/v1/clear/bucket?bucketCode=hub', { token: t });
  assert.is(cleared.status, 200, JSON.stringify(cleared.body));
  assert.equal([cleared.body.BucketCode, cleared.body.Scope], ['hub', 'acme']);
  const after = await preview();
  assert.is(after.body.Valid, false);
  assert.ok(
    after.body.Diagnostics.some((d: string) => d.includes('at most 10')),
    JSON.stringify(after.body),
  );
  await center.set(
    { key: 'comm-hub.template.max-rendered-length', value: '65536' },
    spec('acme'),
    'spec/max-length-back',
  );
  await p.call('GET', '/public/cache/v1/clear/bucket?bucketCode=hub', { token: t });

  const unknown = await p.call('GET', '/public/cache/v1/clear/bucket?bucketCode=workflow', { token: t });
  assert.is(unknown.status, 404);
  assert.is(unknown.body.code, 'CACHE.BUCKET_UNKNOWN');
  assert.is((await p.call('GET', '/public/cache/v1/clear/bucket?bucketCode=hub')).status, 401);
  assert.is(
    (
      await p.call('GET', '/public/cache/v1/clear/bucket?bucketCode=hub', {
        token: await p.token('acme', ['hub:send']),
      })
    ).status,
    403,
  );
});

test("another process's definition cache follows the log: an edit made here and a bucket clear reach it without waiting for its TTL", async () => {
  const { eventStore } = p.platform.stores;
  // process B: its own cache (kept an hour) and its cache consumer, fed the log's pages as its log reader would
  const b = createConfigCommands({
    eventStore,
    clock: p.clock,
    drivers: createDriverRegistry([]),
    sealer: () => ({ seal: (s) => s, open: (s) => s }),
    cacheMs: 3_600_000,
  });
  const consumer = createConfigCacheConsumer({ eventStore, cache: b.cache });
  let position = await consumer.start();
  const follow = async () => {
    const events = await eventStore.readAll({ after: position });
    if (events.length > 0) position = await consumer.handle({ events, position: events[events.length - 1]!.position });
  };
  const templateId = `${setup.code}:EMAIL:en_US`;
  assert.is((await b.templates.get('acme', templateId))!.resource.Body, 'Dear ${Name}, you pay ${Amount}.');
  await b.templates.get('beta', templateId);
  const t = await p.token('acme');
  const edit = await p.call('PUT', `${HUB}/templates/${templateId}`, {
    token: t,
    body: { ContentType: 'TEXT', Subject: 'Policy ${PolicyNo}', Body: 'Hello ${Name}.', Status: 'ACTIVE' },
  });
  assert.is(edit.status, 200, JSON.stringify(edit.body));
  assert.is(
    (await b.templates.get('acme', templateId))!.resource.Body,
    'Dear ${Name}, you pay ${Amount}.',
    'B keeps what it read until it hears of the edit',
  );
  await follow();
  assert.is((await b.templates.get('acme', templateId))!.resource.Body, 'Hello ${Name}.');

  // a clear in the platform (the acme tenant's) empties B's acme entries, not beta's
  await b.channels.get('acme', 'EMAIL');
  const before = b.cache.size();
  assert.ok(before >= 3);
  assert.is((await p.call('GET', '/public/cache/v1/clear/bucket?bucketCode=hub', { token: t })).status, 200);
  await follow();
  assert.is(b.cache.size(), 1, "only beta's template is kept");

  // the other way round: B edits, and the platform's own cache consumer drops what the platform kept
  const shown = async () =>
    (
      await p.call('POST', `${HUB}/templates/renderPreviewById?templateId=${templateId}`, {
        token: t,
        body: { Context: { Payload: { n: 'Al' }, Variables: { Name: 'Payload.n' } } },
      })
    ).body.BodyText;
  assert.is(await shown(), 'Hello Al.');
  await b.templates.update(
    { ...(await b.templates.get('acme', templateId))!.resource, Body: 'Bye ${Name}.' },
    spec('acme'),
    'spec/b-edit',
  );
  await p.eventually(
    async () => ((await shown()) === 'Bye Al.' ? true : undefined),
    "the platform to see B's edit (its clock stands still: the TTL never ends)",
  );
});

test.run();
