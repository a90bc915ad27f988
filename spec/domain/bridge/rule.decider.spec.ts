import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { MAX_TARGETS_PER_RULE, type Rule } from '../../../domain/bridge/model.ts';
import { type RuleCommand, type RuleEvent, ruleDecider, ruleStream } from '../../../domain/bridge/rule.decider.ts';
import { isDomainError } from '../../../domain/core/domain-error.ts';
import { deciderSpec } from '../../core/decider-spec.ts';
import { alertPattern, httpTarget, mailTarget } from './rule-fixtures.ts';

const spec = deciderSpec(ruleDecider);
const now = '2026-03-01T10:00:00.000Z';
const later = '2026-03-01T11:00:00.000Z';

const create = (o: Partial<Extract<RuleCommand, { type: 'CreateRule' }>> = {}): RuleCommand => ({
  type: 'CreateRule',
  ruleId: 'r1',
  tenant: 'acme',
  bus: 'orders',
  busKind: 'custom',
  busOwner: 'acme',
  name: 'Orders to claims',
  pattern: { source: ['shop:orders'] },
  targets: [httpTarget()],
  enabled: true,
  now,
  ...o,
});

const rule: Rule = {
  ruleId: 'r1',
  tenant: 'acme',
  bus: 'orders',
  name: 'Orders to claims',
  pattern: { source: ['shop:orders'] },
  targets: [httpTarget()],
  enabled: true,
  platform: false,
};
const created: RuleEvent = { type: 'RuleCreated', data: { rule, busKind: 'custom', busOwner: 'acme', createdAt: now } };
const ref = { ruleId: 'r1', tenant: 'acme', bus: 'orders' };

/** the decider's error for a command, for looking at its details */
const errorOf = (events: RuleEvent[], command: RuleCommand) => {
  try {
    let s = ruleDecider.initialState();
    for (const e of events) s = ruleDecider.evolve(s, e);
    ruleDecider.decide(command, s);
  } catch (err) {
    if (isDomainError(err)) return err;
    throw err;
  }
  throw new Error('no error');
};
const fieldsOf = (err: { details: unknown }) => (err.details as Array<{ field: string }>).map((d) => d.field);

test('stream name: rule-<tenant>.<ruleId>', () => {
  assert.is(ruleStream('acme', 'r1'), 'rule-acme.r1');
  assert.is(ruleStream('platform', 'batch-alert'), 'rule-platform.batch-alert');
});

test('create: RuleCreated with the canonical rule', () => {
  spec
    .given([])
    .when(create({ description: '  sends orders  ' }))
    .then([
      {
        type: 'RuleCreated',
        data: { rule: { ...rule, description: 'sends orders' }, busKind: 'custom', busOwner: 'acme', createdAt: now },
      },
    ]);
});

test('create twice, or after deletion: 409', () => {
  spec.given([created]).when(create()).thenThrows('RULE.ALREADY_EXISTS', 409);
  spec
    .given([created, { type: 'RuleDeleted', data: { ...ref, at: later } }])
    .when(create())
    .thenThrows('RULE.ALREADY_EXISTS', 409);
});

test('platform rule: the platform tenant on a platform bus is one by default', () => {
  const cmd = create({
    tenant: 'platform',
    bus: 'platform',
    busKind: 'platform',
    busOwner: 'platform',
    ruleId: 'batch-alert',
    pattern: alertPattern,
    targets: [mailTarget()],
  });
  const [e] = ruleDecider.decide(cmd, ruleDecider.initialState());
  assert.is(e!.type, 'RuleCreated');
  assert.is((e as Extract<RuleEvent, { type: 'RuleCreated' }>).data.rule.platform, true);
});

test('platform rule: not by a tenant (403), not on another kind of bus (400)', () => {
  spec
    .given([])
    .when(create({ bus: 'platform', busKind: 'platform', busOwner: 'platform', platform: true }))
    .thenThrows('RULE.PLATFORM_FORBIDDEN', 403);
  spec
    .given([])
    .when(create({ tenant: 'platform', bus: 'base', busKind: 'baseline', busOwner: 'platform', platform: true }))
    .thenThrows('RULE.INVALID', 400);
});

test("a tenant's rule on a platform bus is a tenant rule; on another tenant's custom bus it is 403", () => {
  const [e] = ruleDecider.decide(
    create({ bus: 'platform', busKind: 'platform', busOwner: 'platform' }),
    ruleDecider.initialState(),
  );
  assert.is((e as Extract<RuleEvent, { type: 'RuleCreated' }>).data.rule.platform, false);
  spec
    .given([])
    .when(create({ busOwner: 'globex' }))
    .thenThrows('BUS.FORBIDDEN', 403);
});

test('pattern errors are the pattern 400 with its path', () => {
  const cases: Array<[unknown, string]> = [
    [{ data: { a: [{ foo: 1 }] } }, 'data.a[0]'],
    [{ data: { a: [{ wildcard: 'a**b' }] } }, 'data.a[0].wildcard'],
    [{ data: { n: [{ numeric: ['>', 5, '<', 3] }] } }, 'data.n[0].numeric'],
    [{ data: { ip: [{ cidr: '10.0.0.0/33' }] } }, 'data.ip[0].cidr'],
    [{ data: { a: [] } }, 'data.a'],
    [{}, ''],
    [undefined, ''],
  ];
  for (const [pattern, path] of cases) {
    const err = errorOf([], create({ pattern: pattern as Record<string, unknown> }));
    assert.is(err.code, 'PATTERN.INVALID', JSON.stringify(pattern));
    assert.is(err.status, 400);
    assert.is((err.details as { path: string }).path, path);
  }
});

test('targets: 1 to 5, unique ids', () => {
  spec
    .given([])
    .when(create({ targets: [] }))
    .thenThrows('RULE.INVALID', 400);
  const six = Array.from({ length: MAX_TARGETS_PER_RULE + 1 }, (_, i) => httpTarget(i));
  assert.equal(fieldsOf(errorOf([], create({ targets: six }))), ['targets']);
  const five = Array.from({ length: MAX_TARGETS_PER_RULE }, (_, i) => httpTarget(i));
  assert.is(ruleDecider.decide(create({ targets: five }), ruleDecider.initialState()).length, 1);
  const dup = errorOf([], create({ targets: [httpTarget(7), mailTarget(7)] }));
  assert.equal(fieldsOf(dup), ['targets.1.id']);
});

test('every bad field at once: name, target record, params table', () => {
  const bad = {
    ...mailTarget(),
    errorTolerance: 'SOME',
    params: mailTarget().params.filter((p) => p.resourceKey !== 'TO'),
  } as never;
  const err = errorOf([], create({ name: '  ', targets: [httpTarget(2), bad] }));
  assert.is(err.code, 'RULE.INVALID');
  assert.equal(fieldsOf(err).sort(), ['name', 'targets.1.errorTolerance', 'targets.1.params']);
  const table = errorOf(
    [],
    create({ targets: [{ ...mailTarget(), params: mailTarget().params.filter((p) => p.resourceKey !== 'TO') }] }),
  );
  assert.equal(fieldsOf(table), ['targets.0.params']);
  assert.match((table.details as Array<{ message: string }>)[0]!.message, /needs TO/);
});

test('update: only what changed; description null removes it; nothing changed records nothing', () => {
  spec
    .given([created])
    .when({ type: 'UpdateRule', changes: { name: 'Renamed', pattern: { source: ['shop:orders'] } }, now: later })
    .then([{ type: 'RuleUpdated', data: { ...ref, changes: { name: 'Renamed' }, updatedAt: later } }]);
  const described: RuleEvent = { type: 'RuleUpdated', data: { ...ref, changes: { description: 'd' }, updatedAt: now } };
  spec
    .given([created, described])
    .when({ type: 'UpdateRule', changes: { description: null }, now: later })
    .then([{ type: 'RuleUpdated', data: { ...ref, changes: { description: null }, updatedAt: later } }]);
  spec
    .given([created])
    .when({ type: 'UpdateRule', changes: { name: 'Orders to claims', targets: [httpTarget()] }, now: later })
    .then([]);
});

test('update validates what it changes, and can enable or disable in the same command', () => {
  spec
    .given([created])
    .when({ type: 'UpdateRule', changes: { pattern: { a: [{ wildcard: '**' }] } }, now: later })
    .thenThrows('PATTERN.INVALID', 400);
  spec
    .given([created])
    .when({ type: 'UpdateRule', changes: { targets: [] }, now: later })
    .thenThrows('RULE.INVALID', 400);
  spec
    .given([created])
    .when({ type: 'UpdateRule', changes: { name: 'x', enabled: false }, now: later })
    .then([
      { type: 'RuleUpdated', data: { ...ref, changes: { name: 'x' }, updatedAt: later } },
      { type: 'RuleDisabled', data: { ...ref, at: later } },
    ]);
  spec
    .given([])
    .when({ type: 'UpdateRule', changes: { name: 'x' }, now: later })
    .thenThrows('RULE.NOT_FOUND', 404);
});

test('enable and disable are idempotent', () => {
  spec.given([created]).when({ type: 'EnableRule', now: later }).then([]);
  spec
    .given([created])
    .when({ type: 'DisableRule', now: later })
    .then([{ type: 'RuleDisabled', data: { ...ref, at: later } }]);
  const disabled: RuleEvent = { type: 'RuleDisabled', data: { ...ref, at: later } };
  spec.given([created, disabled]).when({ type: 'DisableRule', now: later }).then([]);
  spec
    .given([created, disabled])
    .when({ type: 'EnableRule', now: later })
    .then([{ type: 'RuleEnabled', data: { ...ref, at: later } }]);
});

test('delete: then the rule is gone for every command', () => {
  const deleted: RuleEvent = { type: 'RuleDeleted', data: { ...ref, at: later } };
  spec.given([created]).when({ type: 'DeleteRule', now: later }).then([deleted]);
  for (const command of [
    { type: 'DeleteRule', now: later },
    { type: 'EnableRule', now: later },
    { type: 'DisableRule', now: later },
    { type: 'UpdateRule', changes: { name: 'x' }, now: later },
  ] as RuleCommand[]) {
    spec.given([created, deleted]).when(command).thenThrows('RULE.NOT_FOUND', 404);
  }
});

test('evolve folds updates into the rule', () => {
  let s = ruleDecider.initialState();
  for (const e of [
    created,
    {
      type: 'RuleUpdated',
      data: { ...ref, changes: { name: 'N', description: 'D', targets: [mailTarget()] }, updatedAt: later },
    },
    { type: 'RuleDisabled', data: { ...ref, at: later } },
  ] as RuleEvent[]) {
    s = ruleDecider.evolve(s, e);
  }
  assert.is(s.status, 'exists');
  if (s.status === 'exists') {
    assert.equal(s.rule, { ...rule, name: 'N', description: 'D', targets: [mailTarget()], enabled: false });
    assert.is(s.updatedAt, later);
    assert.is(s.createdAt, now);
  }
});

test.run();
