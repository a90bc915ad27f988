// The hub's previews through the whole platform (real SQLite stores, real tokens): context extraction,
// template content in saved and inline context modes (mutually exclusive), stored-content render previews,
// delivery rule preview, masking preview. Displayed values are masked, HTML is sanitized, and nothing is
// stored: the log gains no hub event while previews run.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startWebhookReceiver, type WebhookReceiver } from './fixtures/webhook-receiver.ts';
import { aSend, configure, HUB, type HubPlatform, type Setup, startHubPlatform } from './hub-harness.ts';

let p: HubPlatform;
let rx: WebhookReceiver;
let setup: Setup;
let token: string;
const post = (path: string, body: unknown, t = token) => p.call('POST', `${HUB}${path}`, { token: t, body });
const sample = aSend('x').Payload;
const ctxId = () => `ctx-${setup.code.split('-')[1]}`;

/** the hub events appended after `from` (stream names start with the hub's categories) */
async function hubEventsAfter(from: string): Promise<string[]> {
  const events = await p.platform.stores.eventStore.readAll({ after: from });
  return events.filter((e) => e.stream.startsWith('hub')).map((e) => `${e.stream} ${e.type}`);
}

test.before(async () => {
  p = await startHubPlatform();
  rx = await startWebhookReceiver(() => 202);
  setup = await configure(p, 'acme', { receiverUrl: rx.url, preferencePolicy: 'BYPASS' });
  token = await p.token('acme');
});
test.after(async () => {
  await rx.close();
  await p.platform.stop();
});

test('previewExtraction: values shown masked, their source paths, diagnostics for what the sample lacks', async () => {
  const r = await post('/context-definitions/previewExtraction', {
    Payload: sample,
    Contexts: { customer: '$.customer' },
    Variables: {
      Name: 'Context.customer.name',
      Email: 'Context.customer.email',
      Amount: 'Payload.amount',
      Missing: 'Payload.nope',
    },
    SensitiveFields: [{ Path: '$.customer.email', Method: 'EMAIL' }],
  });
  assert.is(r.status, 200, JSON.stringify(r.body));
  assert.equal(r.body.Variables, { Name: 'Jane Roe', Email: 'j***@example.com', Amount: 120 });
  assert.equal(r.body.Sources, {
    Name: 'Context.customer.name',
    Email: 'Context.customer.email',
    Amount: 'Payload.amount',
    Missing: 'Payload.nope',
  });
  assert.equal(r.body.MaskedVariables, ['Email']);
  assert.is(r.body.MaskedPayload.customer.email, 'j***@example.com');
  assert.equal(r.body.Diagnostics, ['variable Missing: Payload.nope is not in the payload']);
});

test('previewExtraction: a sensitive path named as Variables name values (Context.<alias>…) masks the same value as its $ path', async () => {
  const r = await post('/context-definitions/previewExtraction', {
    Payload: sample,
    Contexts: { customer: '$.customer' },
    Variables: { Email: 'Context.customer.email', Name: 'Payload.customer.name' },
    SensitiveFields: [
      { Path: 'Context.customer.email', Method: 'EMAIL' },
      { Path: 'Payload.customer.name', Method: 'NAME' },
    ],
  });
  assert.is(r.status, 200, JSON.stringify(r.body));
  assert.equal(r.body.Variables, { Email: 'j***@example.com', Name: 'J*** R**' });
  assert.equal(r.body.MaskedVariables, ['Email', 'Name']);
  assert.equal(
    [r.body.MaskedPayload.customer.email, r.body.MaskedPayload.customer.name],
    ['j***@example.com', 'J*** R**'],
  );
  const undeclared = await post('/context-definitions/previewExtraction', {
    Payload: sample,
    Contexts: {},
    SensitiveFields: [{ Path: 'Context.customer.email', Method: 'EMAIL' }],
  });
  assert.is(undeclared.status, 400);
  assert.is(undeclared.body.details[0].field, 'SensitiveFields.0.Path');
});

test('previewExtraction refuses an unusable context with 400 and the field', async () => {
  const r = await post('/context-definitions/previewExtraction', { Payload: {}, Variables: { X: 'Elsewhere.a' } });
  assert.is(r.status, 400);
  assert.is(r.body.code, 'PREVIEW.INVALID');
  assert.is(r.body.details[0].field, 'Variables.X');
  const redos = await post('/context-definitions/previewExtraction', {
    Payload: {},
    SensitiveFields: [{ Path: '$.a', Method: 'REGEX', Pattern: '(a+)+$' }],
  });
  assert.is(redos.status, 400);
  assert.is(redos.body.details[0].field, 'SensitiveFields.0.Pattern');
});

test('previewContent, saved mode: the stored context with the given sample; values displayed masked', async () => {
  const r = await post('/templates/previewContent', {
    Channel: 'EMAIL',
    LanguageId: 'en_US',
    ContentType: 'TEXT',
    Subject: 'Policy ${PolicyNo}',
    Body: 'Dear ${Name} (${Email}), you pay ${Amount}.',
    ContextDefinitionId: ctxId(),
    SamplePayload: sample,
  });
  assert.is(r.status, 200, JSON.stringify(r.body));
  assert.equal(r.body, {
    Valid: true,
    Subject: 'Policy P-42',
    BodyText: 'Dear J*** R** (j***@example.com), you pay 120.',
    LanguageId: 'en_US',
    Diagnostics: [],
  });
});

test("previewContent, saved mode without SamplePayload uses the context's stored sample", async () => {
  const t = token;
  const c = await p.call('POST', `${HUB}/context-definitions`, {
    token: t,
    body: {
      ContextDefinitionId: 'ctx-with-sample',
      Variables: { Who: 'Payload.who' },
      SensitiveFields: [{ Path: '$.who', Method: 'KEEP_EDGES' }],
      SamplePayload: { who: 'Maximilian' },
    },
  });
  assert.is(c.status, 201, JSON.stringify(c.body));
  const r = await post('/templates/previewContent', {
    Channel: 'SMS',
    LanguageId: 'de',
    ContentType: 'TEXT',
    Body: 'Hallo ${Who}',
    ContextDefinitionId: 'ctx-with-sample',
  });
  assert.is(r.status, 200);
  assert.is(r.body.BodyText, 'Hallo M********n');
  assert.is(r.body.Valid, true);
  const unknown = await post('/templates/previewContent', {
    Channel: 'SMS',
    LanguageId: 'de',
    ContentType: 'TEXT',
    Body: 'x',
    ContextDefinitionId: 'no-such-context',
  });
  assert.is(unknown.status, 404);
  assert.is(unknown.body.code, 'CONTEXT.NOT_FOUND');
});

test('previewContent, inline mode; the modes are mutually exclusive (400)', async () => {
  const inline = {
    Payload: { n: 'Ann Lee', code: 4711 },
    Variables: { N: 'Payload.n', Code: 'Payload.code' },
    SensitiveFields: [{ Path: '$.code', Method: 'FULL' }],
  };
  const r = await post('/templates/previewContent', {
    Channel: 'SMS',
    LanguageId: 'en',
    ContentType: 'TEXT',
    Body: '${N}: code ${Code}',
    Context: inline,
  });
  assert.is(r.status, 200, JSON.stringify(r.body));
  assert.is(r.body.BodyText, 'Ann Lee: code ******');
  assert.equal(
    r.body.Diagnostics,
    ['channel SMS is not registered (or disabled) in CommHubChannel'],
    'a send would fail there',
  );
  assert.is(r.body.Valid, true, 'the content itself is fine');
  for (const extra of [{ ContextDefinitionId: ctxId() }, { SamplePayload: {} }]) {
    const both = await post('/templates/previewContent', {
      Channel: 'SMS',
      LanguageId: 'en',
      ContentType: 'TEXT',
      Body: 'x',
      Context: inline,
      ...extra,
    });
    assert.is(both.status, 400, JSON.stringify(extra));
    assert.is(both.body.code, 'PREVIEW.CONTEXT_MODE_CONFLICT');
  }
});

test('previewContent validates requirements against the original sample: undeclared or valueless placeholders make it invalid', async () => {
  const r = await post('/templates/previewContent', {
    Channel: 'EMAIL',
    LanguageId: 'en_US',
    ContentType: 'TEXT',
    Body: '${Name} ${Nobody} ${Phone}',
    ContextDefinitionId: ctxId(),
    SamplePayload: { customer: { name: 'Jane Roe' } },
  });
  assert.is(r.status, 200);
  assert.is(r.body.Valid, false);
  assert.ok(
    r.body.Diagnostics.some((d: string) => d.includes('Nobody')),
    JSON.stringify(r.body.Diagnostics),
  );
  assert.ok(
    r.body.Diagnostics.some((d: string) => d.includes('no value for Phone')),
    JSON.stringify(r.body.Diagnostics),
  );
  assert.is(r.body.BodyText, 'J*** R**  ');
  const bad = await post('/templates/previewContent', {
    Channel: 'email',
    LanguageId: 'en',
    ContentType: 'TEXT',
    Body: 'x ${',
  });
  assert.is(bad.status, 400);
  assert.equal(bad.body.details.map((d: { field: string }) => d.field).sort(), ['Body', 'Channel']);
});

test('previewContent sanitizes HTML: no script, no event handler, no javascript: URL; values are escaped', async () => {
  const r = await post('/templates/previewContent', {
    Channel: 'EMAIL',
    LanguageId: 'en',
    ContentType: 'HTML',
    Body: '<p onclick="steal()">Hi ${N}</p><script>alert(1)</script><a href="javascript:alert(2)">x</a><img src="x" onerror="alert(3)"><a href="https://example.com/">ok</a>',
    Context: { Payload: { n: '<img src=x onerror=alert(4)>' }, Variables: { N: 'Payload.n' } },
  });
  assert.is(r.status, 200, JSON.stringify(r.body));
  const html: string = r.body.BodyHtml;
  for (const bad of ['<script', 'onclick', '<img', 'javascript:', 'alert(1)', 'alert(3)'])
    assert.not.ok(html.includes(bad), `${bad} in ${html}`);
  assert.ok(html.includes('Hi &lt;img src=x onerror=alert(4)&gt;'), html);
  assert.ok(html.includes('<a href="https://example.com/">ok</a>'), html);
  assert.ok(r.body.Diagnostics.some((d: string) => d.includes('sanitized')));
});

test('renderPreview renders the stored ACTIVE content; renderPreviewById any status and needs templateId', async () => {
  const r = await post('/templates/renderPreview', {
    TemplateCode: setup.code,
    Channel: 'EMAIL',
    LanguageId: 'en_US',
    ContextDefinitionId: ctxId(),
    SamplePayload: sample,
  });
  assert.is(r.status, 200, JSON.stringify(r.body));
  assert.is(r.body.Subject, 'Policy P-42');
  assert.is(r.body.BodyText, 'Dear J*** R**, you pay 120.');
  const wrongLanguage = await post('/templates/renderPreview', {
    TemplateCode: setup.code,
    Channel: 'EMAIL',
    LanguageId: 'en',
  });
  assert.is(wrongLanguage.status, 404);
  const draft = await p.call('POST', `${HUB}/templates`, {
    token,
    body: {
      TemplateCode: 'draft-one',
      Channel: 'EMAIL',
      LanguageId: 'en',
      ContentType: 'TEXT',
      Body: 'Draft for ${N}',
    },
  });
  assert.is(draft.status, 201);
  const notActive = await post('/templates/renderPreview', {
    TemplateCode: 'draft-one',
    Channel: 'EMAIL',
    LanguageId: 'en',
  });
  assert.is(notActive.status, 404);
  const byId = await post(`/templates/renderPreviewById?templateId=draft-one:EMAIL:en`, {
    Context: { Payload: { n: 'Bo' }, Variables: { N: 'Payload.n' } },
  });
  assert.is(byId.status, 200, JSON.stringify(byId.body));
  assert.equal(
    [byId.body.Status, byId.body.BodyText, byId.body.TemplateId],
    ['DRAFT', 'Draft for Bo', 'draft-one:EMAIL:en'],
  );
  const noId = await post('/templates/renderPreviewById', {});
  assert.is(noId.status, 400);
});

test('delivery rule preview: condition, masked recipient, template availability, policies with their sources, runtime guards not evaluated', async () => {
  const rule = {
    Role: 'Customer',
    Channel: 'EMAIL',
    RecipientSource: 'CONTEXT',
    IdentityVariable: 'CustomerId',
    AddressVariable: 'Email',
    TemplateCode: setup.code,
    ServiceId: setup.serviceId,
    Condition: 'Amount > 100',
    PolicyOverrides: { QuietHoursPolicy: 'BYPASS' },
  };
  const r = await post('/delivery-rules/preview', {
    DefinitionId: setup.definitionId,
    Rule: rule,
    SamplePayload: sample,
  });
  assert.is(r.status, 200, JSON.stringify(r.body));
  assert.is(r.body.ConditionValid, true);
  assert.is(r.body.ConditionMatched, true);
  assert.equal(r.body.Recipient, { RecipientId: 'C*1', Address: 'j***@example.com' });
  assert.equal(r.body.Template, {
    TemplateId: `${setup.code}:EMAIL:en_US`,
    LanguageId: 'en_US',
    Status: 'ACTIVE',
    Available: true,
  });
  assert.equal(r.body.EffectivePolicies.PreferencePolicy, { Value: 'BYPASS', Source: 'DEFINITION' });
  assert.equal(r.body.EffectivePolicies.QuietHoursPolicy, { Value: 'BYPASS', Source: 'RULE' });
  assert.equal(r.body.EffectivePolicies.FrequencyCapPolicy, { Value: 'RESPECT', Source: 'DEFAULT' });
  assert.is(r.body.EffectivePolicies.RetryPolicy.Source, 'DEFAULT');
  assert.equal(r.body.Outcome, { State: 'PLANNED' });
  assert.is(r.body.RuntimeGuardsEvaluated, false);
  assert.not.ok(JSON.stringify(r.body).includes('jane@example.com'));

  const notMatched = await post('/delivery-rules/preview', {
    DefinitionId: setup.definitionId,
    Rule: { ...rule, Condition: 'Amount > 1000' },
    SamplePayload: sample,
  });
  assert.equal(
    [notMatched.body.ConditionValid, notMatched.body.ConditionMatched, notMatched.body.Outcome.Reason],
    [true, false, 'CONDITION_NOT_MATCHED'],
  );
  const invalid = await post('/delivery-rules/preview', {
    DefinitionId: setup.definitionId,
    Rule: { ...rule, Condition: 'Amount >' },
    SamplePayload: sample,
  });
  assert.is(invalid.status, 200);
  assert.equal([invalid.body.ConditionValid, invalid.body.ConditionMatched], [false, false]);
  const german = await post('/delivery-rules/preview', {
    DefinitionId: setup.definitionId,
    Rule: { ...rule, LanguageId: 'de_DE' },
    SamplePayload: sample,
  });
  assert.equal(german.body.Template, {
    TemplateId: `${setup.code}:EMAIL:de_DE`,
    LanguageId: 'de_DE',
    Available: false,
  });
  assert.equal(german.body.Outcome, { State: 'FAILED', Reason: 'TEMPLATE_NOT_AVAILABLE' });
  const request = await post('/delivery-rules/preview', {
    DefinitionId: setup.definitionId,
    Rule: { ...rule, RecipientSource: 'REQUEST', Channel: 'EMAIL' },
    SamplePayload: sample,
    Recipients: [{ Role: 'Customer', Channel: 'EMAIL', RecipientId: 'R-77', Address: 'bob@example.org' }],
  });
  assert.equal(request.body.Recipient, { RecipientId: 'R**7', Address: 'b**@example.org' });
  const missing = await post('/delivery-rules/preview', { DefinitionId: 'nothing:1', Rule: rule });
  assert.is(missing.status, 404);
});

test('previewMasking: each method, and a pattern that can backtrack catastrophically is refused', async () => {
  const m = async (Value: unknown, Method: string, Pattern?: string) =>
    post('/context-definitions/previewMasking', { Value, Method, ...(Pattern !== undefined && { Pattern }) });
  assert.is((await m('jane@example.com', 'EMAIL')).body.Masked, 'j***@example.com');
  assert.is((await m('DE89370400440532013000', 'KEEP_EDGES')).body.Masked, 'D********************0');
  assert.is((await m('Jane Mary Roe', 'NAME')).body.Masked, 'J*** M*** R**');
  assert.is((await m('secret', 'FULL')).body.Masked, '******');
  assert.is(
    (await m('card 4111 1111 1111 1234', 'REGEX', '\\d{4}(?= )|\\d{4} \\d{4} \\d{4}')).status,
    400,
    'lookaround',
  );
  assert.is(
    (await m('card 4111-1111-1111-1234', 'REGEX', '\\d{4}-\\d{4}-\\d{4}')).body.Masked,
    'card **************-1234',
  );
  for (const evil of ['(a+)+$', '(a|aa)*b', '\\d+\\d+$']) {
    const r = await m('aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa!', 'REGEX', evil);
    assert.is(r.status, 400, evil);
    assert.is(r.body.details[0].field, 'Pattern');
  }
  assert.is((await m('x', 'FULL', '\\d')).status, 400, 'Pattern only with REGEX');
});

test('previews need hub:admin and store nothing: no hub event is appended while they run', async () => {
  const before = await p.platform.stores.eventStore.headPosition();
  await post('/context-definitions/previewExtraction', { Payload: sample, Variables: { A: 'Payload.amount' } });
  await post('/templates/previewContent', {
    Channel: 'EMAIL',
    LanguageId: 'en_US',
    ContentType: 'TEXT',
    Body: '${Name}',
    ContextDefinitionId: ctxId(),
    SamplePayload: sample,
  });
  await post('/templates/renderPreview', {
    TemplateCode: setup.code,
    Channel: 'EMAIL',
    LanguageId: 'en_US',
    ContextDefinitionId: ctxId(),
  });
  await post('/delivery-rules/preview', {
    DefinitionId: setup.definitionId,
    Rule: {
      Role: 'Customer',
      Channel: 'EMAIL',
      RecipientSource: 'CONTEXT',
      AddressVariable: 'Email',
      TemplateCode: setup.code,
      ServiceId: setup.serviceId,
    },
    SamplePayload: sample,
  });
  await post('/context-definitions/previewMasking', { Value: 'abc', Method: 'FULL' });
  assert.equal(await hubEventsAfter(before), []);
  assert.is(rx.received.length, 0, 'nothing was sent');
  const sendOnly = await p.token('acme', ['hub:send']);
  const denied = await post(
    '/templates/previewContent',
    { Channel: 'EMAIL', LanguageId: 'en', ContentType: 'TEXT', Body: 'x' },
    sendOnly,
  );
  assert.is(denied.status, 403);
});

test('the previews, the bundle and the cache clear are in the connecthub OpenAPI document', async () => {
  const doc = await p.call('GET', '/v3/api-docs/connecthub');
  assert.is(doc.status, 200);
  for (const path of [
    '/comm/v1/context-definitions/previewExtraction',
    '/comm/v1/context-definitions/previewMasking',
    '/comm/v1/templates/previewContent',
    '/comm/v1/templates/renderPreview',
    '/comm/v1/templates/renderPreviewById',
    '/comm/v1/delivery-rules/preview',
    '/comm/v1/configuration-bundle/export',
    '/comm/v1/configuration-bundle/import',
    '/public/cache/v1/clear/bucket',
  ]) {
    assert.ok(doc.body.paths[path] !== undefined, path);
  }
});

test.run();
