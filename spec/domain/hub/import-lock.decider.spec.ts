// The import lock (given events / when command / then events or error) and the config bundle's shape.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { fold } from '../../../domain/core/decider.ts';
import { checkBundleShape, groupsOf } from '../../../domain/hub/config-bundle.ts';
import {
  type ImportLockCommand,
  type ImportLockEvent,
  importLockDecider,
} from '../../../domain/hub/import-lock.decider.ts';

const T0 = '2026-03-01T10:00:00.000Z';
const T1 = '2026-03-01T10:10:00.000Z';
const T2 = '2026-03-01T10:20:00.000Z';
const given = (events: ImportLockEvent[]) => ({
  when: (c: ImportLockCommand) => {
    try {
      return { events: importLockDecider.decide(c, fold(importLockDecider, events)) };
    } catch (err) {
      return { error: (err as { code: string }).code };
    }
  },
});
const acquired = (importId: string, until = T2): ImportLockEvent => ({
  type: 'ImportLockAcquired',
  data: { Group: 'templates', ImportId: importId, At: T0, Until: until },
});

test('a free lock is acquired; a held one refuses another import until its lease ends', () => {
  assert.equal(given([]).when({ type: 'Acquire', group: 'templates', importId: 'a', now: T0, until: T2 }).events, [
    acquired('a'),
  ]);
  assert.equal(
    given([acquired('a')]).when({ type: 'Acquire', group: 'templates', importId: 'b', now: T1, until: T2 }),
    { error: 'IMPORT.LOCKED' },
  );
  assert.is(
    given([acquired('a', T1)]).when({ type: 'Acquire', group: 'templates', importId: 'b', now: T1, until: T2 }).events
      ?.length,
    1,
    'lease over at T1',
  );
});

test('a release frees it for the holder only; a late release by a taken-over holder changes nothing', () => {
  const released: ImportLockEvent = { type: 'ImportLockReleased', data: { Group: 'templates', ImportId: 'a', At: T1 } };
  assert.equal(given([acquired('a')]).when({ type: 'Release', group: 'templates', importId: 'a', now: T1 }).events, [
    released,
  ]);
  assert.equal(
    given([acquired('a'), released]).when({ type: 'Acquire', group: 'templates', importId: 'b', now: T1, until: T2 })
      .events?.length,
    1,
  );
  assert.equal(given([acquired('b')]).when({ type: 'Release', group: 'templates', importId: 'a', now: T1 }).events, []);
});

test('bundle shape: module, format, arrays of objects with their ids, no id twice; the groups it locks', () => {
  assert.equal(checkBundleShape({ Module: 'other', FormatVersion: 2, Channels: {} }), {
    ok: false,
    violations: [
      { field: 'Module', message: 'must be commhub' },
      { field: 'FormatVersion', message: 'must be 1' },
      { field: 'Channels', message: 'must be an array' },
    ],
  });
  const ok = checkBundleShape({
    Module: 'commhub',
    FormatVersion: 1,
    DeliveryRules: [{ RuleId: 'a:1:r' }],
    QuietHours: [{ Channel: 'SMS', Windows: [] }],
  });
  assert.ok(ok.ok);
  if (ok.ok) assert.equal(groupsOf(ok.bundle), ['definitions', 'policies']);
});

test.run();
