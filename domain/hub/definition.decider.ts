import type { Decider } from '../core/decider.ts';
import { streamName } from '../core/stream-name.ts';
import { type Definition, type DeliveryRule, definitionIdOf } from './config.model.ts';
import { checkDefinition, checkRule, checkRuleCondition } from './config.validate.ts';
import { hubError } from './hub.errors.ts';
import { canonicalJson } from './resource.decider.ts';

/**
 * Communication definitions (spec "Definition", "Delivery rule"): one stream per NotificationCode holding
 * every version of the code and every version's delivery rules, so that "selectable versions of one
 * notification code cannot overlap" is one aggregate's invariant and a send reads its definition and rules
 * in one stream read. A version is a configuration selection, editable after publication (spec
 * "Versioning"); snapshots carry the immutable accepted content. Selectable = enabled: two enabled versions
 * whose [EffectiveTime, ExpiryTime) periods overlap are refused (409 DEFINITION.OVERLAP); disabled ones
 * may overlap anything. Deleting a version deletes its rules.
 */
export const DEFINITION_CATEGORY = 'hubDefinition';
export const definitionStream = (tenant: string, code: string) => streamName(DEFINITION_CATEGORY, tenant, code);

export type DefinitionInput = Omit<Definition, 'Version' | 'DefinitionId'> & { Version?: number };

export type DefinitionEvent =
  | { type: 'DefinitionSaved'; data: { Definition: Definition; Created: boolean; At: string } }
  | { type: 'DefinitionDeleted'; data: { DefinitionId: string; Version: number; At: string } }
  | { type: 'DeliveryRuleSaved'; data: { Rule: DeliveryRule; Created: boolean; At: string } }
  | { type: 'DeliveryRuleDeleted'; data: { RuleId: string; At: string } };

export type DefinitionCommand =
  | { type: 'CreateDefinition'; definition: DefinitionInput; now: string }
  | { type: 'UpdateDefinition'; definition: Definition; now: string }
  | { type: 'DeleteDefinition'; version: number; now: string }
  | { type: 'CreateRule'; rule: DeliveryRule; now: string }
  | { type: 'UpdateRule'; rule: DeliveryRule; now: string }
  | { type: 'DeleteRule'; ruleId: string; now: string };

export type DefinitionState = {
  code: string | undefined;
  /** live versions by number */
  versions: Record<number, Definition>;
  /** the highest version number ever used: a version created without a number gets the next one */
  highest: number;
  /** live rules by id */
  rules: Record<string, DeliveryRule>;
  updatedAt?: string;
};

export const DEFINITION_EVENT_TYPES = [
  'DefinitionSaved',
  'DefinitionDeleted',
  'DeliveryRuleSaved',
  'DeliveryRuleDeleted',
] as const;

const periodsOverlap = (a: Definition, b: Definition) =>
  (a.ExpiryTime === undefined || b.EffectiveTime < a.ExpiryTime) &&
  (b.ExpiryTime === undefined || a.EffectiveTime < b.ExpiryTime);

function validateDefinition(d: Definition): void {
  const violations = checkDefinition(d);
  if (violations.length > 0)
    throw hubError(
      'DEFINITION.INVALID',
      `invalid definition: ${violations.map((v) => `${v.field} ${v.message}`).join('; ')}`,
      violations,
    );
}

function validateRule(r: DeliveryRule): void {
  const violations = checkRule(r);
  if (violations.length > 0)
    throw hubError(
      'DELIVERY_RULE.INVALID',
      `invalid delivery rule: ${violations.map((v) => `${v.field} ${v.message}`).join('; ')}`,
      violations,
    );
  const condition = checkRuleCondition(r);
  if (condition !== null)
    throw hubError('DELIVERY_RULE.CONDITION_INVALID', `Condition ${condition}`, [
      { field: 'Condition', message: condition },
    ]);
}

function checkOverlap(state: DefinitionState, d: Definition): void {
  if (!d.Enabled) return;
  for (const other of Object.values(state.versions)) {
    if (other.Version === d.Version || !other.Enabled) continue;
    if (periodsOverlap(other, d)) {
      throw hubError(
        'DEFINITION.OVERLAP',
        `version ${d.Version} of ${d.NotificationCode} would overlap enabled version ${other.Version}`,
        {
          DefinitionId: d.DefinitionId,
          OverlapsWith: other.DefinitionId,
          EffectiveTime: other.EffectiveTime,
          ...(other.ExpiryTime !== undefined && { ExpiryTime: other.ExpiryTime }),
        },
      );
    }
  }
}

/** the enabled version effective at `now` (at most one: selectable versions never overlap) */
export function selectDefinition(state: DefinitionState, now: string): Definition | undefined {
  return Object.values(state.versions).find(
    (d) => d.Enabled && d.EffectiveTime <= now && (d.ExpiryTime === undefined || now < d.ExpiryTime),
  );
}

/** a version's enabled rules, by Role then OrderNo then RuleId */
export function rulesOf(state: DefinitionState, definitionId: string, includeDisabled = false): DeliveryRule[] {
  return Object.values(state.rules)
    .filter((r) => r.DefinitionId === definitionId && (includeDisabled || r.Enabled))
    .sort((a, b) =>
      a.Role < b.Role
        ? -1
        : a.Role > b.Role
          ? 1
          : a.OrderNo - b.OrderNo || (a.RuleId < b.RuleId ? -1 : a.RuleId > b.RuleId ? 1 : 0),
    );
}

export const definitionDecider: Decider<DefinitionCommand, DefinitionEvent, DefinitionState> = {
  initialState: () => ({ code: undefined, versions: {}, highest: 0, rules: {} }),
  evolve(state, event) {
    switch (event.type) {
      case 'DefinitionSaved': {
        const d = event.data.Definition;
        return {
          ...state,
          code: d.NotificationCode,
          versions: { ...state.versions, [d.Version]: d },
          highest: Math.max(state.highest, d.Version),
          updatedAt: event.data.At,
        };
      }
      case 'DefinitionDeleted': {
        const versions = { ...state.versions };
        delete versions[event.data.Version];
        const rules = Object.fromEntries(
          Object.entries(state.rules).filter(([, r]) => r.DefinitionId !== event.data.DefinitionId),
        );
        return { ...state, versions, rules, updatedAt: event.data.At };
      }
      case 'DeliveryRuleSaved':
        return {
          ...state,
          rules: { ...state.rules, [event.data.Rule.RuleId]: event.data.Rule },
          updatedAt: event.data.At,
        };
      case 'DeliveryRuleDeleted': {
        const rules = { ...state.rules };
        delete rules[event.data.RuleId];
        return { ...state, rules, updatedAt: event.data.At };
      }
    }
  },
  decide(command, state) {
    switch (command.type) {
      case 'CreateDefinition': {
        const version = command.definition.Version ?? state.highest + 1;
        const d: Definition = {
          ...command.definition,
          Version: version,
          DefinitionId: definitionIdOf(command.definition.NotificationCode, version),
        };
        validateDefinition(d);
        if (state.versions[version] !== undefined) {
          throw hubError('DEFINITION.EXISTS', `version ${version} of ${d.NotificationCode} exists already`, {
            DefinitionId: d.DefinitionId,
          });
        }
        checkOverlap(state, d);
        return [{ type: 'DefinitionSaved', data: { Definition: d, Created: true, At: command.now } }];
      }
      case 'UpdateDefinition': {
        const d = command.definition;
        const current = state.versions[d.Version];
        if (current === undefined)
          throw hubError('DEFINITION.NOT_FOUND', 'no such definition version', { DefinitionId: d.DefinitionId });
        validateDefinition(d);
        checkOverlap(state, d);
        if (canonicalJson(current) === canonicalJson(d)) return [];
        return [{ type: 'DefinitionSaved', data: { Definition: d, Created: false, At: command.now } }];
      }
      case 'DeleteDefinition': {
        const current = state.versions[command.version];
        if (current === undefined) throw hubError('DEFINITION.NOT_FOUND', 'no such definition version');
        return [
          {
            type: 'DefinitionDeleted',
            data: { DefinitionId: current.DefinitionId, Version: current.Version, At: command.now },
          },
        ];
      }
      case 'CreateRule':
      case 'UpdateRule': {
        const r = command.rule;
        const definition = Object.values(state.versions).find((d) => d.DefinitionId === r.DefinitionId);
        if (definition === undefined)
          throw hubError('DEFINITION.NOT_FOUND', `no such definition ${r.DefinitionId}`, {
            DefinitionId: r.DefinitionId,
          });
        const current = state.rules[r.RuleId];
        if (command.type === 'CreateRule' && current !== undefined)
          throw hubError('DELIVERY_RULE.EXISTS', `delivery rule ${r.RuleId} exists already`, { RuleId: r.RuleId });
        if (command.type === 'UpdateRule' && current === undefined)
          throw hubError('DELIVERY_RULE.NOT_FOUND', 'no such delivery rule', { RuleId: r.RuleId });
        validateRule(r);
        if (current !== undefined && canonicalJson(current) === canonicalJson(r)) return [];
        return [
          { type: 'DeliveryRuleSaved', data: { Rule: r, Created: command.type === 'CreateRule', At: command.now } },
        ];
      }
      case 'DeleteRule':
        if (state.rules[command.ruleId] === undefined)
          throw hubError('DELIVERY_RULE.NOT_FOUND', 'no such delivery rule', { RuleId: command.ruleId });
        return [{ type: 'DeliveryRuleDeleted', data: { RuleId: command.ruleId, At: command.now } }];
    }
  },
};
