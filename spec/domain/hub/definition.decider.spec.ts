import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { fold } from '../../../domain/core/decider.ts';
import type { Definition, DeliveryRule } from '../../../domain/hub/config.model.ts';
import {
  type DefinitionEvent,
  definitionDecider,
  rulesOf,
  selectDefinition,
} from '../../../domain/hub/definition.decider.ts';
import { deciderSpec } from '../../core/decider-spec.ts';

const spec = deciderSpec(definitionDecider);
const AT = '2026-01-01T00:00:00.000Z';
const def = (version: number, o: Partial<Definition> = {}): Definition => ({
  DefinitionId: `renewal:${version}`,
  NotificationCode: 'renewal',
  Version: version,
  EffectiveTime: '2026-01-01T00:00:00.000Z',
  Enabled: true,
  DeliveryStrategy: 'ALL',
  RoleDeliveryStrategyOverrides: {},
  NotificationClass: 'TRANSACTIONAL',
  ...o,
});
const saved = (d: Definition): DefinitionEvent => ({
  type: 'DefinitionSaved',
  data: { Definition: d, Created: true, At: AT },
});
const rule = (o: Partial<DeliveryRule> = {}): DeliveryRule => ({
  RuleId: 'renewal:1:email',
  DefinitionId: 'renewal:1',
  Role: 'Holder',
  Channel: 'EMAIL',
  OrderNo: 0,
  RecipientSource: 'CONTEXT',
  AddressVariable: 'Email',
  TemplateCode: 'renewal',
  ServiceId: 'mail',
  TemplateMode: 'HUB_MANAGED',
  Enabled: true,
  ...o,
});
const input = (o: Partial<Definition> = {}) => {
  const { DefinitionId: _d, Version: _v, ...rest } = def(1, o);
  return rest;
};

test('a version without a number gets the next one; an existing number is 409', () => {
  spec
    .given([])
    .when({ type: 'CreateDefinition', definition: input(), now: AT })
    .then([saved(def(1))]);
  spec
    .given([saved(def(1, { ExpiryTime: '2026-06-01T00:00:00.000Z' }))])
    .when({ type: 'CreateDefinition', definition: input({ EffectiveTime: '2026-06-01T00:00:00.000Z' }), now: AT })
    .then([saved(def(2, { EffectiveTime: '2026-06-01T00:00:00.000Z' }))]);
  spec
    .given([saved(def(1))])
    .when({ type: 'CreateDefinition', definition: { ...input({ Enabled: false }), Version: 1 }, now: AT })
    .thenThrows('DEFINITION.EXISTS', 409);
});

test('selectable (enabled) versions of one code cannot overlap; [EffectiveTime, ExpiryTime) is half-open; disabled ones may', () => {
  const first = saved(def(1, { ExpiryTime: '2026-06-01T00:00:00.000Z' }));
  spec
    .given([first])
    .when({ type: 'CreateDefinition', definition: input({ EffectiveTime: '2026-05-31T00:00:00.000Z' }), now: AT })
    .thenThrows('DEFINITION.OVERLAP', 409);
  spec
    .given([first])
    .when({
      type: 'CreateDefinition',
      definition: input({ EffectiveTime: '2026-05-31T00:00:00.000Z', Enabled: false }),
      now: AT,
    })
    .then([saved(def(2, { EffectiveTime: '2026-05-31T00:00:00.000Z', Enabled: false }))]);
  const open = saved(def(1));
  spec
    .given([open])
    .when({ type: 'CreateDefinition', definition: input({ EffectiveTime: '2030-01-01T00:00:00.000Z' }), now: AT })
    .thenThrows('DEFINITION.OVERLAP', 409);
  // enabling a disabled overlapping version is refused too
  spec
    .given([first, saved(def(2, { EffectiveTime: '2026-05-31T00:00:00.000Z', Enabled: false }))])
    .when({ type: 'UpdateDefinition', definition: def(2, { EffectiveTime: '2026-05-31T00:00:00.000Z' }), now: AT })
    .thenThrows('DEFINITION.OVERLAP', 409);
});

test('selection: the enabled version effective now; none outside every period', () => {
  const s = fold(definitionDecider, [
    saved(def(1, { ExpiryTime: '2026-06-01T00:00:00.000Z' })),
    saved(def(2, { EffectiveTime: '2026-06-01T00:00:00.000Z' })),
  ]);
  assert.is(selectDefinition(s, '2026-05-31T23:59:59.999Z')?.Version, 1);
  assert.is(selectDefinition(s, '2026-06-01T00:00:00.000Z')?.Version, 2);
  assert.is(selectDefinition(s, '2025-12-31T23:59:59.999Z'), undefined);
});

test('invalid definitions name every bad field', () => {
  spec
    .given([])
    .when({
      type: 'CreateDefinition',
      definition: input({
        ExpiryTime: '2025-01-01T00:00:00.000Z',
        NotificationClass: 'nope',
        DeliveryStrategy: 'SOME' as never,
      }),
      now: AT,
    })
    .thenThrows('DEFINITION.INVALID', 400);
});

test('rules: an invalid FEEL condition is refused at save (400); a rule needs its definition version; deleting the version deletes its rules', () => {
  const d = saved(def(1));
  spec
    .given([d])
    .when({ type: 'CreateRule', rule: rule({ Condition: 'Premium >' }), now: AT })
    .thenThrows('DELIVERY_RULE.CONDITION_INVALID', 400);
  spec
    .given([d])
    .when({ type: 'CreateRule', rule: rule({ Condition: 'foo(' }), now: AT })
    .thenThrows('DELIVERY_RULE.CONDITION_INVALID', 400);
  spec
    .given([d])
    .when({ type: 'CreateRule', rule: rule({ Condition: 'Premium > 100 and Region = "EU"' }), now: AT })
    .then([
      {
        type: 'DeliveryRuleSaved',
        data: { Rule: rule({ Condition: 'Premium > 100 and Region = "EU"' }), Created: true, At: AT },
      },
    ]);
  spec.given([]).when({ type: 'CreateRule', rule: rule(), now: AT }).thenThrows('DEFINITION.NOT_FOUND', 404);
  spec
    .given([d])
    .when({ type: 'CreateRule', rule: rule({ RecipientSource: 'CONTEXT', AddressVariable: undefined }), now: AT })
    .thenThrows('DELIVERY_RULE.INVALID', 400);
  const withRule = [d, { type: 'DeliveryRuleSaved', data: { Rule: rule(), Created: true, At: AT } } as DefinitionEvent];
  spec.given(withRule).when({ type: 'CreateRule', rule: rule(), now: AT }).thenThrows('DELIVERY_RULE.EXISTS', 409);
  spec.given(withRule).when({ type: 'UpdateRule', rule: rule(), now: AT }).then([]);
  const s = fold(definitionDecider, [
    ...withRule,
    { type: 'DefinitionDeleted', data: { DefinitionId: 'renewal:1', Version: 1, At: AT } },
  ]);
  assert.equal(rulesOf(s, 'renewal:1'), []);
});

test.run();
