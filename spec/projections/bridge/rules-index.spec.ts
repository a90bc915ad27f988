import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { RulesIndex } from '../../../commands/bridge/bridge.contracts.ts';
import { createRuleCommands } from '../../../commands/bridge/rules.commands.ts';
import { manualClock } from '../../../infra/core/clock.port.ts';
import { createSqliteEventStore } from '../../../infra/sqlite/event-store.sqlite.ts';
import { createSqliteReadStore } from '../../../infra/sqlite/read-store.sqlite.ts';
import { createRuleQueries, rulesProjection } from '../../../projections/bridge/rules.projection.ts';
import { createRulesIndex } from '../../../projections/bridge/rules-index.ts';
import { createProjectionRunner } from '../../../projections/core/projection-runner.ts';
import { caughtUp as caughtUpAll } from '../../core/eventually.ts';
import { alertPattern, httpTarget, mailTarget } from '../../domain/bridge/rule-fixtures.ts';

const dir = mkdtempSync(path.join(tmpdir(), 'rules-index-'));
const eventStore = createSqliteEventStore({ file: path.join(dir, 'events.sqlite'), pollIntervalMs: 20 });
const readStore = createSqliteReadStore({ file: path.join(dir, 'read.sqlite') });
const clock = manualClock('2026-03-01T10:00:00.000Z');
const commands = createRuleCommands({ eventStore, clock });
const runner = createProjectionRunner({ eventStore, readStore, projection: rulesProjection, clock });
// the contract FLOW consumes
const index: RulesIndex = createRulesIndex({ readStore, eventStore });
const queries = createRuleQueries(readStore);
let seq = 0;
const cmd = () => `cmd-${++seq}`;
const acme = { tenant: 'acme', actor: 'spec' };
const platform = { tenant: 'platform', actor: 'spec' };

test.before(() => runner.start());
test.after(async () => {
  await runner.stop();
  await eventStore.close();
  await readStore.close();
  rmSync(dir, { recursive: true, force: true });
});

const caughtUp = () => caughtUpAll(runner);

const customRule = (ruleId: string, bus = 'orders', tenant = 'acme') =>
  commands.create(
    {
      ruleId,
      bus,
      busKind: 'custom',
      busOwner: tenant,
      name: ruleId,
      pattern: { source: ['shop:orders'] },
      targets: [httpTarget()],
    },
    { tenant, actor: 'spec' },
    cmd(),
  );
const ids = (r: { rules: Array<{ ruleId: string }> }) => r.rules.map((x) => x.ruleId).sort();

test('an empty bus: no rules, a stable version', async () => {
  const a = await index.rulesForBus('orders');
  const b = await index.rulesForBus('orders');
  assert.equal(a.rules, []);
  assert.is(a.version, b.version);
});

test('rules appear when created and the version changes', async () => {
  const before = await index.rulesForBus('orders');
  await customRule('r1');
  await caughtUp();
  const after = await index.rulesForBus('orders');
  assert.equal(ids(after), ['r1']);
  assert.is.not(after.version, before.version);
  const rule = after.rules[0]!;
  assert.is(rule.tenant, 'acme');
  assert.is(rule.platform, false);
  assert.equal(rule.targets, [httpTarget()]);
  assert.equal(rule.pattern, { source: ['shop:orders'] });
});

test('disable removes a rule from the index, enable brings it back; each changes the version', async () => {
  await customRule('r2');
  await caughtUp();
  const both = await index.rulesForBus('orders');
  assert.equal(ids(both), ['r1', 'r2']);
  await commands.disable('r2', acme, cmd());
  await caughtUp();
  const disabled = await index.rulesForBus('orders');
  assert.equal(ids(disabled), ['r1']);
  assert.is.not(disabled.version, both.version);
  await commands.enable('r2', acme, cmd());
  await caughtUp();
  const again = await index.rulesForBus('orders');
  assert.equal(ids(again), ['r1', 'r2']);
  // same set of rules as before the disable, but a newer revision of r2: the version moved on
  assert.is.not(again.version, both.version);
  assert.is.not(again.version, disabled.version);
});

test('an update changes the rule and the version; an update that changes nothing does not', async () => {
  const before = await index.rulesForBus('orders');
  await commands.update('r1', { pattern: { source: ['shop:returns'] } }, acme, cmd());
  await caughtUp();
  const after = await index.rulesForBus('orders');
  assert.equal(after.rules.find((r) => r.ruleId === 'r1')!.pattern, { source: ['shop:returns'] });
  assert.is.not(after.version, before.version);
  await commands.update('r1', { pattern: { source: ['shop:returns'] } }, acme, cmd());
  await caughtUp();
  assert.is((await index.rulesForBus('orders')).version, after.version);
});

test('delete removes the rule', async () => {
  const before = await index.rulesForBus('orders');
  await commands.delete('r2', acme, cmd());
  await caughtUp();
  const after = await index.rulesForBus('orders');
  assert.equal(ids(after), ['r1']);
  assert.is.not(after.version, before.version);
  assert.is(await commands.get('acme', 'r2'), null);
});

test('owner narrows to one tenant’s bus of that name; other buses are not mixed in', async () => {
  await customRule('g1', 'orders', 'globex');
  await customRule('x1', 'other');
  await caughtUp();
  assert.equal(ids(await index.rulesForBus('orders')), ['g1', 'r1']);
  assert.equal(ids(await index.rulesForBus('orders', 'acme')), ['r1']);
  assert.equal(ids(await index.rulesForBus('orders', 'globex')), ['g1']);
  assert.equal(ids(await index.rulesForBus('other')), ['x1']);
  // a change on another bus leaves this bus's version alone
  const v = (await index.rulesForBus('orders', 'acme')).version;
  await commands.disable('x1', acme, cmd());
  await caughtUp();
  assert.is((await index.rulesForBus('orders', 'acme')).version, v);
});

test('platform bus: the platform rules and the tenants’ own rules there', async () => {
  await commands.create(
    {
      ruleId: 'batch-alert',
      bus: 'platform',
      busKind: 'platform',
      busOwner: 'platform',
      name: 'Batch alert mail',
      pattern: alertPattern,
      targets: [mailTarget()],
    },
    platform,
    cmd(),
  );
  await commands.create(
    {
      ruleId: 'acme-alert',
      bus: 'platform',
      busKind: 'platform',
      busOwner: 'platform',
      name: 'Our alert',
      pattern: alertPattern,
      targets: [httpTarget()],
    },
    acme,
    cmd(),
  );
  await caughtUp();
  const r = await index.rulesForBus('platform', 'platform');
  assert.equal(ids(r), ['acme-alert', 'batch-alert']);
  const byId = new Map(r.rules.map((x) => [x.ruleId, x]));
  assert.is(byId.get('batch-alert')!.platform, true);
  assert.is(byId.get('batch-alert')!.tenant, 'platform');
  assert.is(byId.get('acme-alert')!.platform, false);
  assert.is(byId.get('acme-alert')!.tenant, 'acme');
});

test('opt-outs: per tenant, on and off; unknown or non-platform rules are 404', async () => {
  assert.equal(await index.optedOut('acme'), new Set());
  const out = await commands.optOut('batch-alert', acme, cmd());
  assert.equal(out, { ruleId: 'batch-alert', optedOut: true, changed: true });
  await caughtUp();
  assert.equal(await index.optedOut('acme'), new Set(['batch-alert']));
  assert.equal(await index.optedOut('globex'), new Set());
  assert.is(await commands.isOptedOut('acme', 'batch-alert'), true);
  // the opt-out does not touch the rules or their version
  assert.equal(ids(await index.rulesForBus('platform', 'platform')), ['acme-alert', 'batch-alert']);
  assert.equal((await queries.optOutsOf('acme')).get('batch-alert'), '2026-03-01T10:00:00.000Z');

  await commands.optIn('batch-alert', acme, cmd());
  await caughtUp();
  assert.equal(await index.optedOut('acme'), new Set());
  for (const ruleId of ['nope', 'acme-alert']) {
    try {
      await commands.optOut(ruleId, acme, cmd());
      assert.unreachable(ruleId);
    } catch (err) {
      assert.is((err as { code?: string }).code, 'RULE.NOT_FOUND', ruleId);
    }
  }
});

test('queries: a tenant lists its own rules; platform rules listed apart', async () => {
  const mine = await queries.list('acme', { limit: 50, offset: 0 });
  assert.equal(mine.items.map((r) => r.ruleId).sort(), ['acme-alert', 'r1', 'x1']);
  assert.is(mine.total, 3);
  const enabled = await queries.list('acme', { limit: 50, offset: 0, enabled: true });
  assert.equal(enabled.items.map((r) => r.ruleId).sort(), ['acme-alert', 'r1']);
  const onOrders = await queries.list('acme', { limit: 1, offset: 0, bus: 'orders' });
  assert.equal(
    onOrders.items.map((r) => r.ruleId),
    ['r1'],
  );
  const platformRules = await queries.platformRules({ limit: 50, offset: 0 });
  assert.equal(
    platformRules.items.map((r) => r.ruleId),
    ['batch-alert'],
  );
});

test('the same command id twice creates one rule', async () => {
  const input = {
    bus: 'orders',
    busKind: 'custom' as const,
    busOwner: 'acme',
    name: 'twice',
    pattern: { source: ['a'] },
    targets: [httpTarget()],
  };
  const first = await commands.create(input, acme, 'same-id');
  const second = await commands.create(input, acme, 'same-id');
  assert.is(first.created, true);
  assert.is(second.created, false);
  assert.is(first.rule.ruleId, second.rule.ruleId);
});

test.run();
