// The logic of the hub's context definition and delivery rule forms, apart from React: the draft a form
// edits and the body it sends, where an error's details are shown on the form, and which value of the
// sample a sensitive field's path names (the masking line beside it).
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { bodyOf, draftOf, mapRow, placeErrors, sampleOf, sampleValue } from '../src/areas/hub/context-draft.ts';
import { ruleBodyOf, valuesOf } from '../src/areas/hub/rule-draft.ts';

const context = {
  ContextDefinitionId: 'welcome-ctx',
  Name: 'Welcome',
  Contexts: { customer: '$.customer', parties: '$.parties[*]' },
  Variables: { Email: 'Context.customer.email', PolicyNo: 'Payload.policyNo' },
  SensitiveFields: [
    { Path: '$.customer.email', Method: 'EMAIL' as const },
    { Path: '$.card', Method: 'REGEX' as const, Pattern: '\\d{4}' },
  ],
  SamplePayload: { policyNo: 'P-1' },
};

const draft = suite('the context definition draft');

draft('a stored definition becomes rows and back the same body', () => {
  const d = draftOf(context);
  assert.equal(
    d.contexts.map((r) => [r.name, r.path]),
    [
      ['customer', '$.customer'],
      ['parties', '$.parties[*]'],
    ],
  );
  assert.equal(bodyOf(d, sampleOf(d.sample).payload), {
    Name: 'Welcome',
    Contexts: context.Contexts,
    Variables: context.Variables,
    SensitiveFields: context.SensitiveFields,
    SamplePayload: { policyNo: 'P-1' },
  });
});

draft('half-typed rows are left out; a pattern goes only with REGEX', () => {
  const d = draftOf(context);
  d.variables.push(mapRow('', 'Payload.x'));
  d.sensitive.push({ key: 99, Path: '  ', Method: 'FULL', Pattern: '' });
  d.sensitive[0] = { ...d.sensitive[0]!, Pattern: 'left over' };
  const body = bodyOf(d, null);
  assert.equal(Object.keys(body.Variables), ['Email', 'PolicyNo']);
  assert.equal(body.SensitiveFields.length, 2);
  assert.is('Pattern' in body.SensitiveFields[0]!, false);
  assert.is('SamplePayload' in body, false);
});

draft('a sample that is not a JSON object has no payload', () => {
  assert.is(sampleOf('[1, 2]').payload, null);
  assert.is(sampleOf('{"a":').text.ok, false);
  assert.equal(sampleOf('{"a": 1}').payload, { a: 1 });
});

const places = suite('where a refusal is shown on the context form');

places('map entries go to the row of their name, sensitive fields to the n-th row sent', () => {
  const d = draftOf(context);
  // a blank row between them is not sent, so the API's index 1 is the third row
  d.sensitive.splice(1, 0, { key: 77, Path: '', Method: 'FULL', Pattern: '' });
  const { placed, other } = placeErrors(
    [
      { field: 'Contexts.parties', message: 'bad path' },
      { field: 'Variables.Email', message: 'unknown alias' },
      { field: 'SensitiveFields.1.Pattern', message: 'backtracks' },
      { field: 'Payload', message: 'too big' },
      { field: 'Variables.Nope', message: 'no such row' },
    ],
    d,
  );
  assert.equal(placed, {
    [`Contexts:${d.contexts[1]!.key}`]: 'bad path',
    [`Variables:${d.variables[0]!.key}`]: 'unknown alias',
    [`SensitiveFields:${d.sensitive[2]!.key}:Pattern`]: 'backtracks',
    SamplePayload: 'too big',
  });
  assert.equal(other, ['Variables.Nope no such row']);
});

const values = suite("the sample's value a sensitive field names");

values('plain JSONPaths, Payload paths and Context paths through a plain alias', () => {
  const payload = { customer: { email: 'a@b.c', phones: ['1', '2'] }, parties: [{ n: 'x' }] };
  const contexts = { customer: '$.customer', parties: '$.parties[*]' };
  assert.equal(sampleValue(payload, '$.customer.email', contexts), { value: 'a@b.c' });
  assert.equal(sampleValue(payload, '$.customer.phones[1]', contexts), { value: '2' });
  assert.equal(sampleValue(payload, 'Payload.customer.email', contexts), { value: 'a@b.c' });
  assert.equal(sampleValue(payload, 'Context.customer.phones[0]', contexts), { value: '1' });
});

values('wildcards, unknown aliases and absent values name no single value', () => {
  const payload = { parties: [{ n: 'x' }] };
  const contexts = { parties: '$.parties[*]' };
  for (const path of ['$.parties[*].n', 'Context.parties[0].n', 'Context.nobody.n', '$.missing', 'customer.email'])
    assert.is(sampleValue(payload, path, contexts), null, path);
});

const rules = suite('the delivery rule form');

rules('a stored rule gives its own body back; empty fields are left out', () => {
  const rule = {
    RuleId: 'welcome:1:email',
    DefinitionId: 'welcome:1',
    Role: 'Customer',
    Channel: 'EMAIL',
    OrderNo: 2,
    RecipientSource: 'CONTEXT' as const,
    AddressVariable: 'Email',
    Condition: 'PolicyNo = "P-1"',
    TemplateCode: 'welcome',
    ServiceId: 'mail',
    PolicyOverrides: { QuietHoursPolicy: 'BYPASS' as const },
    TemplateMode: 'HUB_MANAGED' as const,
    Enabled: true,
  };
  const { RuleId: _id, DefinitionId: _definition, ...body } = rule;
  assert.equal(ruleBodyOf(valuesOf(rule)), body);
  const fresh = ruleBodyOf({ ...valuesOf(null), Role: 'Agent', OrderNo: '' });
  assert.equal(fresh.OrderNo, 0);
  assert.is('Condition' in fresh || 'PolicyOverrides' in fresh || 'IdentityVariable' in fresh, false);
});

draft.run();
places.run();
values.run();
rules.run();
