import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { fold } from '../../../domain/core/decider.ts';
import { channelDecider, contextDecider, templateDecider } from '../../../domain/hub/config.deciders.ts';
import { deliveryServiceDecider, signingSecretsAt } from '../../../domain/hub/delivery-service.decider.ts';
import { deciderSpec } from '../../core/decider-spec.ts';

const AT = '2026-01-01T00:00:00.000Z';

test('channels: codes of the CommHubChannel table ([A-Z][A-Z0-9_]{0,39}); create, unchanged update, delete', () => {
  const spec = deciderSpec(channelDecider);
  spec
    .given([])
    .when({ type: 'Create', resource: { Code: 'email', Enabled: true }, now: AT })
    .thenThrows('CHANNEL.INVALID', 400);
  spec
    .given([])
    .when({ type: 'Create', resource: { Code: `A${'B'.repeat(40)}`, Enabled: true }, now: AT })
    .thenThrows('CHANNEL.INVALID', 400);
  const saved = {
    type: 'ChannelSaved' as const,
    data: { Resource: { Code: 'WHATSAPP', Enabled: true }, Created: true, At: AT },
  };
  spec
    .given([])
    .when({ type: 'Create', resource: { Code: 'WHATSAPP', Enabled: true }, now: AT })
    .then([saved]);
  spec
    .given([saved])
    .when({ type: 'Create', resource: { Code: 'WHATSAPP', Enabled: true }, now: AT })
    .thenThrows('CHANNEL.EXISTS', 409);
  spec
    .given([saved])
    .when({ type: 'Update', resource: { Code: 'WHATSAPP', Enabled: true }, now: AT })
    .then([]);
  spec.given([]).when({ type: 'Delete', now: AT }).thenThrows('CHANNEL.NOT_FOUND', 404);
});

test('templates: `${` must start a placeholder; status DRAFT, ACTIVE or RETIRED', () => {
  const spec = deciderSpec(templateDecider);
  const t = {
    TemplateId: 'a:EMAIL:en',
    TemplateCode: 'a',
    Channel: 'EMAIL',
    LanguageId: 'en',
    ContentType: 'TEXT' as const,
    Body: 'x ${ y',
    Status: 'ACTIVE' as const,
  };
  spec.given([]).when({ type: 'Create', resource: t, now: AT }).thenThrows('TEMPLATE.INVALID', 400);
  spec
    .given([])
    .when({ type: 'Create', resource: { ...t, Body: 'cost $${5}' }, now: AT })
    .then([{ type: 'TemplateSaved', data: { Resource: { ...t, Body: 'cost $${5}' }, Created: true, At: AT } }]);
});

test('context definitions: variables name declared aliases; paths and REGEX mask patterns are checked', () => {
  const spec = deciderSpec(contextDecider);
  const c = {
    ContextDefinitionId: 'ctx',
    Contexts: { holder: '$.holder' },
    Variables: { Name: 'Context.holder.name' },
    SensitiveFields: [],
  };
  spec
    .given([])
    .when({ type: 'Create', resource: { ...c, Variables: { Name: 'Context.other.name' } }, now: AT })
    .thenThrows('CONTEXT.INVALID', 400);
  spec
    .given([])
    .when({ type: 'Create', resource: { ...c, Variables: { Name: 'holder.name' } }, now: AT })
    .thenThrows('CONTEXT.INVALID', 400);
  spec
    .given([])
    .when({ type: 'Create', resource: { ...c, Contexts: { holder: '$..x[?(@.a)]' } }, now: AT })
    .thenThrows('CONTEXT.INVALID', 400);
  spec
    .given([])
    .when({
      type: 'Create',
      resource: { ...c, SensitiveFields: [{ Path: '$.a', Method: 'REGEX', Pattern: '(a+)+$' }] },
      now: AT,
    })
    .thenThrows('CONTEXT.INVALID', 400);
  spec
    .given([])
    .when({
      type: 'Create',
      resource: { ...c, SensitiveFields: [{ Path: '$.a', Method: 'REGEX', Pattern: '\\d{4}' }] },
      now: AT,
    })
    .then([
      {
        type: 'ContextDefinitionSaved',
        data: {
          Resource: { ...c, SensitiveFields: [{ Path: '$.a', Method: 'REGEX', Pattern: '\\d{4}' }] },
          Created: true,
          At: AT,
        },
      },
    ]);
  // a sensitive path may name its value as Variables do (Context.<alias>…, Payload.…), through a declared alias
  const named = [
    { Path: 'Context.holder.email', Method: 'EMAIL' as const },
    { Path: 'Payload.holder.name', Method: 'NAME' as const },
  ];
  spec
    .given([])
    .when({ type: 'Create', resource: { ...c, SensitiveFields: named }, now: AT })
    .then([
      { type: 'ContextDefinitionSaved', data: { Resource: { ...c, SensitiveFields: named }, Created: true, At: AT } },
    ]);
  spec
    .given([])
    .when({
      type: 'Create',
      resource: { ...c, SensitiveFields: [{ Path: 'Context.policy.holder.email', Method: 'EMAIL' }] },
      now: AT,
    })
    .thenThrows('CONTEXT.INVALID', 400);
  spec
    .given([])
    .when({ type: 'Create', resource: { ...c, SensitiveFields: [{ Path: 'holder.email', Method: 'EMAIL' }] }, now: AT })
    .thenThrows('CONTEXT.INVALID', 400);
});

test('delivery services: created with a sealed signing secret; a rotation keeps the previous one signing until the overlap ends', () => {
  const spec = deciderSpec(deliveryServiceDecider);
  const s = {
    ServiceId: 'mail',
    DriverType: 'REST_WEBHOOK',
    Settings: { Url: 'https://x' },
    ReceiptMode: 'ACCEPTANCE_ONLY' as const,
  };
  spec
    .given([])
    .when({ type: 'Create', resource: { ...s, ReceiptTimeoutSeconds: 60 }, sealedSecret: 'enc:1', now: AT })
    .thenThrows('DELIVERY_SERVICE.INVALID', 400);
  const created = deliveryServiceDecider.decide(
    { type: 'Create', resource: s, sealedSecret: 'enc:1', now: AT },
    deliveryServiceDecider.initialState(),
  );
  const rotated = deliveryServiceDecider.decide(
    { type: 'RotateSecret', sealedSecret: 'enc:2', overlapUntil: '2026-01-02T00:00:00.000Z', now: AT },
    fold(deliveryServiceDecider, created),
  );
  const state = fold(deliveryServiceDecider, [...created, ...rotated]);
  assert.equal(signingSecretsAt(state, '2026-01-01T12:00:00.000Z'), ['enc:2', 'enc:1']);
  assert.equal(signingSecretsAt(state, '2026-01-02T00:00:00.000Z'), ['enc:2']);
  // the secret is never part of the service (snapshots copy the service)
  assert.is(JSON.stringify(state.status === 'live' ? state.resource : {}).includes('enc:'), false);
});

test('delivery services: ResealSecret issues the secrets in force sealed again, with the same overlap end', () => {
  const s = {
    ServiceId: 'mail',
    DriverType: 'REST_WEBHOOK',
    Settings: { Url: 'https://x' },
    ReceiptMode: 'ACCEPTANCE_ONLY' as const,
  };
  const until = '2026-01-02T00:00:00.000Z';
  const created = deliveryServiceDecider.decide(
    { type: 'Create', resource: s, sealedSecret: 'enc:1', now: AT },
    deliveryServiceDecider.initialState(),
  );
  const rotated = [
    ...created,
    ...deliveryServiceDecider.decide(
      { type: 'RotateSecret', sealedSecret: 'enc:2', overlapUntil: until, now: AT },
      fold(deliveryServiceDecider, created),
    ),
  ];
  const later = '2026-01-01T06:00:00.000Z';
  const spec = deciderSpec(deliveryServiceDecider);
  spec
    .given(rotated)
    .when({ type: 'ResealSecret', sealedSecret: 'enc:2b', previousSealed: 'enc:1b', now: later })
    .then([
      {
        type: 'SigningSecretIssued',
        data: { ServiceId: 'mail', Sealed: 'enc:2b', PreviousSealed: 'enc:1b', PreviousUntil: until, At: later },
      },
    ]);
  spec
    .given(created)
    .when({ type: 'ResealSecret', sealedSecret: 'enc:1b', now: later })
    .then([{ type: 'SigningSecretIssued', data: { ServiceId: 'mail', Sealed: 'enc:1b', At: later } }]);
  const resealed = deliveryServiceDecider.decide(
    { type: 'ResealSecret', sealedSecret: 'enc:2b', previousSealed: 'enc:1b', now: later },
    fold(deliveryServiceDecider, rotated),
  );
  const state = fold(deliveryServiceDecider, [...rotated, ...resealed]);
  assert.equal(signingSecretsAt(state, '2026-01-01T12:00:00.000Z'), ['enc:2b', 'enc:1b']);
  assert.equal(signingSecretsAt(state, until), ['enc:2b']);
  spec
    .given([])
    .when({ type: 'ResealSecret', sealedSecret: 'enc:1b', now: later })
    .thenThrows('DELIVERY_SERVICE.NOT_FOUND', 404);
});

test.run();
