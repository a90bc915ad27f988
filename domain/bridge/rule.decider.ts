import { assertNever, type Decider } from '../core/decider.ts';
import type { DomainEvent } from '../core/event.ts';
import { streamName } from '../core/stream-name.ts';
import { bridgeError } from './bridge.errors.ts';
import { type BusKind, MAX_TARGETS_PER_RULE, PLATFORM_TENANT, type Rule, type Target } from './model.ts';
import { parsePattern } from './pattern/index.ts';
import { validateTarget } from './target.validate.ts';
import { at, type Violation } from './violation.ts';

/**
 * A rule of a bus (spec "Event rule": a filter pattern, a conversion per target and up to 5 targets):
 * `rule-<tenant>.<ruleId>`. Platform rules live under the tenant segment `platform`, sit on a platform
 * bus and apply to every tenant's events (a tenant may opt out, see platform-rule-opt-out.decider.ts).
 *
 * Who may put a rule on which bus: a tenant on its own custom bus and on the platform-owned buses
 * (platform and baseline: that is where platform events arrive, so a tenant that switched a platform rule
 * off routes the same event type with its own rule there); never on another tenant's custom bus.
 * A platform rule: only by the platform tenant, only on a platform bus. The bus's kind and owner come
 * into the command from the bus registry (the command handler's caller looks them up).
 *
 * Validation: the pattern by parsePattern (PATTERN.INVALID, 400, with the pattern path), then the rest as
 * RULE.INVALID (400) naming every bad field: name, 1-5 targets with unique ids, each target's record, its
 * params' forms and the per-type parameter tables (target-params.ts).
 */
export const RULE_ID = /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/;
export const MAX_RULE_NAME = 200;
export const MAX_RULE_DESCRIPTION = 2000;
export const MAX_BUS_NAME = 128;

export const ruleStream = (tenant: string, ruleId: string): string => streamName('rule', tenant, ruleId);

export type RuleDefinition = {
  name: string;
  description?: string;
  pattern: Record<string, unknown>;
  targets: Target[];
};

export type RuleCommand =
  | ({
      type: 'CreateRule';
      ruleId: string;
      tenant: string;
      bus: string;
      busKind: BusKind;
      /** the bus's owner: the tenant for a custom bus, PLATFORM_TENANT for platform and baseline buses */
      busOwner: string;
      enabled: boolean;
      /** absent: a platform rule when the platform tenant puts it on a platform bus */
      platform?: boolean;
      now: string;
    } & RuleDefinition)
  | {
      type: 'UpdateRule';
      /** only what is given changes; description null removes it */
      changes: {
        name?: string;
        description?: string | null;
        pattern?: Record<string, unknown>;
        targets?: Target[];
        enabled?: boolean;
      };
      now: string;
    }
  | { type: 'EnableRule'; now: string }
  | { type: 'DisableRule'; now: string }
  | { type: 'DeleteRule'; now: string };

type RuleRef = { ruleId: string; tenant: string; bus: string };

export type RuleCreated = DomainEvent<
  'RuleCreated',
  { rule: Rule; busKind: BusKind; busOwner: string; createdAt: string }
>;
export type RuleUpdated = DomainEvent<
  'RuleUpdated',
  RuleRef & {
    /** only the fields that changed; description null = removed */
    changes: { name?: string; description?: string | null; pattern?: Record<string, unknown>; targets?: Target[] };
    updatedAt: string;
  }
>;
export type RuleEnabled = DomainEvent<'RuleEnabled', RuleRef & { at: string }>;
export type RuleDisabled = DomainEvent<'RuleDisabled', RuleRef & { at: string }>;
export type RuleDeleted = DomainEvent<'RuleDeleted', RuleRef & { at: string }>;
export type RuleEvent = RuleCreated | RuleUpdated | RuleEnabled | RuleDisabled | RuleDeleted;

export const RULE_EVENT_TYPES: ReadonlyArray<RuleEvent['type']> = [
  'RuleCreated',
  'RuleUpdated',
  'RuleEnabled',
  'RuleDisabled',
  'RuleDeleted',
];

export type RuleState =
  | { status: 'none' }
  | { status: 'exists'; rule: Rule; busKind: BusKind; busOwner: string; createdAt: string; updatedAt: string }
  | { status: 'deleted'; ruleId: string; tenant: string; deletedAt: string };

/** A rule as the admin API shows it (from the stream or from the bridge.rules read model). */
export type RuleView = Rule & {
  busKind: BusKind;
  busOwner: string;
  createdAt: string;
  updatedAt: string;
  revision: number;
};

const invalidRule = (violations: Violation[]): never => {
  throw bridgeError(
    'RULE.INVALID',
    `invalid rule: ${violations.map((v) => `${v.field} ${v.message}`).join('; ')}`,
    violations,
  );
};

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function checkName(name: unknown): Violation[] {
  return typeof name === 'string' && name.trim().length > 0 && name.length <= MAX_RULE_NAME
    ? []
    : [{ field: 'name', message: `must be 1-${MAX_RULE_NAME} characters, not blank` }];
}

function checkDescription(description: unknown): Violation[] {
  return description === undefined || (typeof description === 'string' && description.length <= MAX_RULE_DESCRIPTION)
    ? []
    : [{ field: 'description', message: `must be a string of at most ${MAX_RULE_DESCRIPTION} characters` }];
}

export function checkTargets(targets: unknown): Violation[] {
  if (!Array.isArray(targets) || targets.length < 1 || targets.length > MAX_TARGETS_PER_RULE) {
    return [{ field: 'targets', message: `must hold 1 to ${MAX_TARGETS_PER_RULE} targets` }];
  }
  const violations = targets.flatMap((t, i) => validateTarget(t, at('targets', i)));
  const seen = new Map<unknown, number>();
  targets.forEach((t, i) => {
    const id = isObject(t) ? t.id : undefined;
    if (typeof id !== 'number') return;
    const first = seen.get(id);
    if (first !== undefined)
      violations.push({
        field: at(at('targets', i), 'id'),
        message: `target id ${id} is used twice in the rule (also targets.${first})`,
      });
    else seen.set(id, i);
  });
  return violations;
}

/** The pattern first (its own 400 with the pattern path), then everything else at once. */
function checkDefinition(d: Partial<RuleDefinition>): void {
  if (d.pattern !== undefined) parsePattern(d.pattern);
  const violations = [
    ...(d.name !== undefined ? checkName(d.name) : []),
    ...(d.description !== undefined ? checkDescription(d.description) : []),
    ...(d.targets !== undefined ? checkTargets(d.targets) : []),
  ];
  if (violations.length > 0) invalidRule(violations);
}

const sameJson = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
const refOf = (rule: Rule): RuleRef => ({ ruleId: rule.ruleId, tenant: rule.tenant, bus: rule.bus });

function existing(state: RuleState): Extract<RuleState, { status: 'exists' }> {
  if (state.status !== 'exists') throw bridgeError('RULE.NOT_FOUND', 'no such rule');
  return state;
}

export const ruleDecider: Decider<RuleCommand, RuleEvent, RuleState> = {
  initialState: () => ({ status: 'none' }),

  evolve(state, event) {
    switch (event.type) {
      case 'RuleCreated': {
        const d = event.data;
        return {
          status: 'exists',
          rule: d.rule,
          busKind: d.busKind,
          busOwner: d.busOwner,
          createdAt: d.createdAt,
          updatedAt: d.createdAt,
        };
      }
      case 'RuleUpdated': {
        if (state.status !== 'exists') return state;
        const rule: Rule = { ...state.rule };
        const c = event.data.changes;
        if (c.name !== undefined) rule.name = c.name;
        if (c.description === null) delete rule.description;
        else if (c.description !== undefined) rule.description = c.description;
        if (c.pattern !== undefined) rule.pattern = c.pattern;
        if (c.targets !== undefined) rule.targets = c.targets;
        return { ...state, rule, updatedAt: event.data.updatedAt };
      }
      case 'RuleEnabled':
      case 'RuleDisabled':
        if (state.status !== 'exists') return state;
        return { ...state, rule: { ...state.rule, enabled: event.type === 'RuleEnabled' }, updatedAt: event.data.at };
      case 'RuleDeleted':
        return { status: 'deleted', ruleId: event.data.ruleId, tenant: event.data.tenant, deletedAt: event.data.at };
      default:
        return assertNever(event);
    }
  },

  decide(command, state) {
    switch (command.type) {
      case 'CreateRule': {
        if (state.status !== 'none') {
          throw bridgeError(
            'RULE.ALREADY_EXISTS',
            state.status === 'deleted'
              ? 'a rule with this id existed and was deleted; ids are not reused'
              : 'a rule with this id exists',
            { ruleId: command.ruleId },
          );
        }
        const refViolations: Violation[] = [];
        if (typeof command.ruleId !== 'string' || !RULE_ID.test(command.ruleId)) {
          refViolations.push({
            field: 'ruleId',
            message: 'must be 1-64 letters, digits, _ or -, starting with a letter or digit',
          });
        }
        if (typeof command.bus !== 'string' || command.bus.length === 0 || command.bus.length > MAX_BUS_NAME) {
          refViolations.push({ field: 'bus', message: `must be a bus name of 1-${MAX_BUS_NAME} characters` });
        }
        if (typeof command.enabled !== 'boolean')
          refViolations.push({ field: 'enabled', message: 'must be a boolean' });
        if (refViolations.length > 0) invalidRule(refViolations);
        if (command.busKind === 'custom' && command.busOwner !== command.tenant) {
          throw bridgeError('BUS.FORBIDDEN', `bus ${command.bus} belongs to another tenant`, { bus: command.bus });
        }
        const platform = command.platform ?? (command.tenant === PLATFORM_TENANT && command.busKind === 'platform');
        if (platform && command.tenant !== PLATFORM_TENANT) {
          throw bridgeError('RULE.PLATFORM_FORBIDDEN', 'only the platform tenant creates platform rules', {
            tenant: command.tenant,
          });
        }
        if (platform && command.busKind !== 'platform') {
          throw bridgeError('RULE.INVALID', 'a platform rule must be on a platform bus', [
            { field: 'platform', message: `bus ${command.bus} is a ${command.busKind} bus, not a platform bus` },
          ]);
        }
        // every field is required on creation: an absent pattern or name is reported, not skipped
        parsePattern(command.pattern);
        checkDefinition({
          name: command.name ?? null,
          description: command.description,
          targets: command.targets ?? null,
        } as Partial<RuleDefinition>);
        const description = command.description?.trim();
        const rule: Rule = {
          ruleId: command.ruleId,
          tenant: command.tenant,
          bus: command.bus,
          name: command.name.trim(),
          ...(description !== undefined && description !== '' && { description }),
          pattern: command.pattern,
          targets: command.targets,
          enabled: command.enabled,
          platform,
        };
        return [
          {
            type: 'RuleCreated',
            data: { rule, busKind: command.busKind, busOwner: command.busOwner, createdAt: command.now },
          },
        ];
      }
      case 'UpdateRule': {
        const current = existing(state);
        const c = command.changes;
        checkDefinition({
          ...(c.name !== undefined && { name: c.name }),
          ...(typeof c.description === 'string' && { description: c.description }),
          ...(c.pattern !== undefined && { pattern: c.pattern }),
          ...(c.targets !== undefined && { targets: c.targets }),
        });
        if (c.description !== undefined && c.description !== null && typeof c.description !== 'string') {
          invalidRule([{ field: 'description', message: 'must be a string or null' }]);
        }
        if (c.enabled !== undefined && typeof c.enabled !== 'boolean')
          invalidRule([{ field: 'enabled', message: 'must be a boolean' }]);
        const rule = current.rule;
        const changes: RuleUpdated['data']['changes'] = {};
        if (c.name !== undefined && c.name.trim() !== rule.name) changes.name = c.name.trim();
        const description = typeof c.description === 'string' ? c.description.trim() : c.description;
        if ((description === null || description === '') && rule.description !== undefined) changes.description = null;
        else if (typeof description === 'string' && description !== '' && description !== rule.description)
          changes.description = description;
        if (c.pattern !== undefined && !sameJson(c.pattern, rule.pattern)) changes.pattern = c.pattern;
        if (c.targets !== undefined && !sameJson(c.targets, rule.targets)) changes.targets = c.targets;
        const events: RuleEvent[] = [];
        if (Object.keys(changes).length > 0)
          events.push({ type: 'RuleUpdated', data: { ...refOf(rule), changes, updatedAt: command.now } });
        if (c.enabled === true && !rule.enabled)
          events.push({ type: 'RuleEnabled', data: { ...refOf(rule), at: command.now } });
        if (c.enabled === false && rule.enabled)
          events.push({ type: 'RuleDisabled', data: { ...refOf(rule), at: command.now } });
        return events;
      }
      case 'EnableRule': {
        const { rule } = existing(state);
        return rule.enabled ? [] : [{ type: 'RuleEnabled', data: { ...refOf(rule), at: command.now } }];
      }
      case 'DisableRule': {
        const { rule } = existing(state);
        return rule.enabled ? [{ type: 'RuleDisabled', data: { ...refOf(rule), at: command.now } }] : [];
      }
      case 'DeleteRule': {
        const { rule } = existing(state);
        return [{ type: 'RuleDeleted', data: { ...refOf(rule), at: command.now } }];
      }
      default:
        return assertNever(command);
    }
  },
};
