// The hub's configuration API through the platform: channels, delivery services (driver types, settings
// validation, the signing secret shown once), templates, context definitions, definitions (non-overlapping
// versions, local times) and delivery rules (an invalid FEEL condition is a 400 at save).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { HUB, type HubPlatform, startHubPlatform } from './hub-harness.ts';

let p: HubPlatform;
let token: string;
const call = (method: string, path: string, body?: unknown) =>
  p.call(method, `${HUB}${path}`, { token, ...(body !== undefined && { body }) });

test.before(async () => {
  p = await startHubPlatform({ env: { HUB_TIME_ZONE: 'Europe/Berlin' } });
  token = await p.token('beta');
});
test.after(async () => {
  await p.platform.stop();
});

test('channels: codes of CommHubChannel; 201, 409, 400, read, list, replace, delete', async () => {
  assert.is((await call('POST', '/channels', { Code: 'WHATSAPP', Description: 'messaging app' })).status, 201);
  const dup = await call('POST', '/channels', { Code: 'WHATSAPP' });
  assert.equal([dup.status, dup.body.code], [409, 'CHANNEL.EXISTS']);
  const bad = await call('POST', '/channels', { Code: 'whatsapp' });
  assert.equal([bad.status, bad.body.code, bad.body.details[0].field], [400, 'CHANNEL.INVALID', 'Code']);
  assert.is((await call('GET', '/channels/WHATSAPP')).body.Description, 'messaging app');
  assert.is((await call('PUT', '/channels/WHATSAPP', { Enabled: false })).body.Enabled, false);
  const list = await p.eventually(async () => {
    const r = await call('GET', '/channels');
    return r.body.Items.some((c: any) => c.Code === 'WHATSAPP' && c.Enabled === false) ? r.body : undefined;
  }, 'the list');
  assert.is(list.PageNo, 1);
  assert.is((await call('DELETE', '/channels/WHATSAPP')).status, 204);
  assert.is((await call('GET', '/channels/WHATSAPP')).status, 404);
});

test('delivery services: driverTypes; validateSettings is local; the signing secret is answered once, never read back; rotation', async () => {
  assert.equal((await call('GET', '/delivery-services/driverTypes')).body, { DriverTypes: ['REST_WEBHOOK'] });
  assert.equal(
    (
      await call('POST', '/delivery-services/validateSettings', {
        DriverType: 'REST_WEBHOOK',
        Channel: 'EMAIL',
        Settings: { Url: 'https://rx.example/n', SupportedChannels: ['EMAIL'] },
      })
    ).body,
    { Valid: true },
  );
  const invalid = await call('POST', '/delivery-services/validateSettings', {
    DriverType: 'REST_WEBHOOK',
    Channel: 'EMAIL',
    Settings: { SupportedChannels: ['SMS'], ApiKey: 'x' },
  });
  assert.equal([invalid.status, invalid.body.code], [400, 'DELIVERY_SERVICE.SETTINGS_INVALID']);
  assert.equal(invalid.body.details.map((d: any) => d.field).sort(), [
    'Settings.ApiKey',
    'Settings.SupportedChannels',
    'Settings.Url',
  ]);
  assert.is(
    (await call('POST', '/delivery-services/validateSettings', { DriverType: 'CARRIER_PIGEON', Settings: {} })).body
      .code,
    'DELIVERY_SERVICE.DRIVER_UNKNOWN',
  );
  const created = await call('POST', '/delivery-services', {
    ServiceId: 'mail',
    DriverType: 'REST_WEBHOOK',
    Channel: 'EMAIL',
    Settings: { Url: 'https://rx.example/n' },
    ReceiptMode: 'FINAL_RESULT',
  });
  assert.is(created.status, 201);
  assert.match(created.body.SigningSecret, /^whsec_/);
  const read = await call('GET', '/delivery-services/mail');
  assert.is(read.body.SigningSecret, undefined);
  assert.not.match(JSON.stringify(read.body), /whsec_|enc:v\d/);
  const rotated = await call('POST', '/delivery-services/mail/rotate-signing-secret', { OverlapSeconds: 3600 });
  assert.match(rotated.body.SigningSecret, /^whsec_/);
  assert.is.not(rotated.body.SigningSecret, created.body.SigningSecret);
  assert.ok(rotated.body.PreviousValidUntil);
  assert.is(
    (
      await call('POST', '/delivery-services', {
        ServiceId: 'driverTypes',
        DriverType: 'REST_WEBHOOK',
        Settings: { Url: 'https://x' },
        ReceiptMode: 'FINAL_RESULT',
      })
    ).status,
    400,
  );
  const badMode = await call('POST', '/delivery-services', {
    ServiceId: 'm2',
    DriverType: 'REST_WEBHOOK',
    Settings: { Url: 'https://x' },
    ReceiptMode: 'ACCEPTANCE_ONLY',
    ReceiptTimeoutSeconds: 10,
  });
  assert.equal([badMode.status, badMode.body.code], [400, 'DELIVERY_SERVICE.INVALID']);
});

test('templates: the id is code:channel:language; a stray ${ is a 400', async () => {
  const t = await call('POST', '/templates', {
    TemplateCode: 'welcome',
    Channel: 'EMAIL',
    LanguageId: 'de_DE',
    ContentType: 'HTML',
    Subject: 'Hallo',
    Body: '<p>${Name}</p>',
  });
  assert.equal([t.status, t.body.TemplateId, t.body.Status], [201, 'welcome:EMAIL:de_DE', 'DRAFT']);
  const bad = await call('PUT', '/templates/welcome:EMAIL:de_DE', {
    ContentType: 'HTML',
    Body: '<p>${Name</p>',
    Status: 'ACTIVE',
  });
  assert.equal([bad.status, bad.body.code], [400, 'TEMPLATE.INVALID']);
  assert.is(
    (
      await call('PUT', '/templates/welcome:EMAIL:de_DE', {
        ContentType: 'HTML',
        Body: '<p>${Name}!</p>',
        Status: 'ACTIVE',
      })
    ).body.Status,
    'ACTIVE',
  );
});

test('context definitions: variables must name declared aliases', async () => {
  const bad = await call('POST', '/context-definitions', {
    ContextDefinitionId: 'c1',
    Contexts: { p: '$.policy' },
    Variables: { No: 'Context.q.no' },
  });
  assert.equal([bad.status, bad.body.code], [400, 'CONTEXT.INVALID']);
  assert.is(
    (
      await call('POST', '/context-definitions', {
        ContextDefinitionId: 'c1',
        Contexts: { p: '$.policy' },
        Variables: { No: 'Context.p.no' },
        SensitiveFields: [{ Path: '$.policy.holder', Method: 'NAME' }],
      })
    ).status,
    201,
  );
});

test("definitions: local EffectiveTime in the tenant's zone; selectable versions do not overlap (409); bad times 400", async () => {
  const d1 = await call('POST', '/definitions', {
    NotificationCode: 'welcome',
    EffectiveTime: '2026-01-01T00:00:00',
    ExpiryTime: '2026-07-01T00:00:00',
    ContextDefinitionId: 'c1',
    DefaultLanguageId: 'de_DE',
  });
  assert.equal(
    [d1.status, d1.body.DefinitionId, d1.body.EffectiveTime],
    [201, 'welcome:1', '2025-12-31T23:00:00.000Z'],
  );
  const overlap = await call('POST', '/definitions', {
    NotificationCode: 'welcome',
    EffectiveTime: '2026-06-30T00:00:00',
  });
  assert.equal(
    [overlap.status, overlap.body.code, overlap.body.details.OverlapsWith],
    [409, 'DEFINITION.OVERLAP', 'welcome:1'],
  );
  const d2 = await call('POST', '/definitions', { NotificationCode: 'welcome', EffectiveTime: '2026-07-01T00:00:00' });
  assert.equal([d2.status, d2.body.Version], [201, 2]);
  assert.equal(
    (await call('POST', '/definitions', { NotificationCode: 'welcome', EffectiveTime: 'soon' })).body.code,
    'DEFINITION.INVALID',
  );
  assert.is((await call('GET', '/definitions/welcome:1')).body.ExpiryTime, '2026-06-30T22:00:00.000Z');
  assert.is((await call('GET', '/definitions/welcome:9')).status, 404);
});

test('delivery rules: an invalid FEEL condition is a 400 at save; ids are <DefinitionId>:<RuleKey>; replace, list, delete', async () => {
  const rule = {
    DefinitionId: 'welcome:1',
    Role: 'Customer',
    Channel: 'EMAIL',
    RecipientSource: 'CONTEXT',
    AddressVariable: 'Email',
    TemplateCode: 'welcome',
    ServiceId: 'mail',
  };
  const bad = await call('POST', '/delivery-rules', { ...rule, Condition: 'Premium >> 3' });
  assert.equal(
    [bad.status, bad.body.code, bad.body.details[0].field],
    [400, 'DELIVERY_RULE.CONDITION_INVALID', 'Condition'],
  );
  const ok = await call('POST', '/delivery-rules', { ...rule, RuleKey: 'mail', Condition: 'Premium > 3' });
  assert.equal([ok.status, ok.body.RuleId, ok.body.TemplateMode], [201, 'welcome:1:mail', 'HUB_MANAGED']);
  const generated = await p.call('POST', `${HUB}/delivery-rules`, {
    token,
    body: rule,
    headers: { 'idempotency-key': 'rule-create-1' },
  });
  const retried = await p.call('POST', `${HUB}/delivery-rules`, {
    token,
    body: rule,
    headers: { 'idempotency-key': 'rule-create-1' },
  });
  assert.is(retried.body.RuleId, generated.body.RuleId);
  assert.is((await call('POST', '/delivery-rules', { ...rule, DefinitionId: 'nope:1' })).status, 404);
  const { DefinitionId: _d, ...fields } = rule;
  assert.is(
    (await call('PUT', '/delivery-rules/welcome:1:mail', { ...fields, Condition: 'Premium > 4', OrderNo: 2 })).body
      .OrderNo,
    2,
  );
  const listed = await p.eventually(async () => {
    const r = await call('GET', '/delivery-rules?definitionId=welcome:1');
    // the listing is a read model: wait until it has read the replace as well as both creates
    return r.body.Total === 2 && r.body.Items.some((x: any) => x.Condition === 'Premium > 4') ? r.body : undefined;
  }, 'two rules listed, one replaced');
  assert.equal(listed.Items.find((r: any) => r.RuleId === 'welcome:1:mail').OrderNo, 2);
  assert.is((await call('DELETE', '/delivery-rules/welcome:1:mail')).status, 204);
  assert.is((await call('GET', '/delivery-rules/welcome:1:mail')).status, 404);
});

test('the configuration needs hub:admin', async () => {
  const sendOnly = await p.token('beta', ['hub:send']);
  assert.is((await p.call('GET', `${HUB}/channels`, { token: sendOnly })).status, 403);
  assert.is((await p.call('GET', `${HUB}/channels`)).status, 401);
});

test.run();
