import { test } from 'uvu';
import * as assert from 'uvu/assert';
import {
  type ConfigEntryEvent,
  configEntryDecider,
  configEntryStream,
  isConfigKey,
} from '../../../domain/bridge/config-entry.decider.ts';
import { deciderSpec } from '../../core/decider-spec.ts';

const spec = deciderSpec(configEntryDecider);
const now = '2026-03-01T10:00:00.000Z';
const set = (value: string, secret?: boolean) => ({
  type: 'SetConfigValue' as const,
  tenant: 'acme',
  key: 'alert.token',
  value,
  ...(secret !== undefined && { secret }),
  now,
});
const wasSet = (value: string, secret = false): ConfigEntryEvent => ({
  type: 'ConfigValueSet',
  data: { tenant: 'acme', key: 'alert.token', value, ...(secret && { secret: true }), at: now },
});

test('stream and key syntax: dots allowed in the id part', () => {
  assert.is(configEntryStream('acme', 'alert.token'), 'configEntry-acme.alert.token');
  for (const k of ['alert.token', 'a', 'mail.sender-account', 'A_1.b-2.c']) assert.ok(isConfigKey(k), k);
  for (const k of ['', '.a', 'a.', 'a..b', 'a b', 'a/b', '${x}', 'a'.repeat(129)]) assert.not.ok(isConfigKey(k), k);
});

test('set: ConfigValueSet; the same value again records nothing', () => {
  spec
    .given([])
    .when(set('t0k3n'))
    .then([wasSet('t0k3n')]);
  spec
    .given([wasSet('t0k3n')])
    .when(set('t0k3n'))
    .then([]);
  spec
    .given([wasSet('t0k3n')])
    .when(set('other'))
    .then([wasSet('other')]);
});

test('secret: kept unless explicitly switched off', () => {
  spec
    .given([])
    .when(set('s', true))
    .then([wasSet('s', true)]);
  spec
    .given([wasSet('s', true)])
    .when(set('s2'))
    .then([wasSet('s2', true)]);
  spec
    .given([wasSet('s', true)])
    .when(set('s'))
    .then([]);
  spec
    .given([wasSet('s', true)])
    .when(set('s', false))
    .then([wasSet('s')]);
});

test('bad key or value: 400', () => {
  spec
    .given([])
    .when({ ...set('x'), key: 'bad key' })
    .thenThrows('CONFIG.INVALID', 400);
  spec
    .given([])
    .when(set('x'.repeat(64 * 1024 + 1)))
    .thenThrows('CONFIG.INVALID', 400);
});

test('remove: ConfigValueRemoved; absent or removed: 404; set again after removal', () => {
  const removed: ConfigEntryEvent = {
    type: 'ConfigValueRemoved',
    data: { tenant: 'acme', key: 'alert.token', at: now },
  };
  spec
    .given([wasSet('x')])
    .when({ type: 'RemoveConfigValue', now })
    .then([removed]);
  spec.given([]).when({ type: 'RemoveConfigValue', now }).thenThrows('CONFIG.NOT_FOUND', 404);
  spec
    .given([wasSet('x'), removed])
    .when({ type: 'RemoveConfigValue', now })
    .thenThrows('CONFIG.NOT_FOUND', 404);
  spec
    .given([wasSet('x', true), removed])
    .when(set('x'))
    .then([wasSet('x')]);
});

test.run();
