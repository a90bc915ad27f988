import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { retentionCutoff, retentionDecider, retentionStream } from '../../../domain/audit/retention.decider.ts';
import { levelsDecider, levelsStream } from '../../../domain/audit/warning-levels.decider.ts';
import { fold } from '../../../domain/core/decider.ts';
import { deciderSpec } from '../../core/decider-spec.ts';

const test = suite('audit warning levels and retention deciders');
const T0 = '2026-01-01T00:00:00.000Z';
const levels = deciderSpec(levelsDecider);
const retention = deciderSpec(retentionDecider);

test('INFO and WARN always exist; further levels are created once', () => {
  assert.is(levelsStream(), 'auditLevels-platform.levels');
  assert.equal(Object.keys(fold(levelsDecider, []).levels), ['INFO', 'WARN']);
  levels.given([]).when({ type: 'CreateLevel', name: 'WARN', now: T0 }).thenThrows('WARNING_LEVEL.EXISTS', 409);
  levels
    .given([])
    .when({ type: 'CreateLevel', name: 'ERROR', description: 'errors', now: T0 })
    .then([{ type: 'WarningLevelCreated', data: { name: 'ERROR', description: 'errors', at: T0 } }]);
  levels
    .given([{ type: 'WarningLevelCreated', data: { name: 'ERROR', description: '', at: T0 } }])
    .when({ type: 'CreateLevel', name: 'ERROR', now: T0 })
    .thenThrows('WARNING_LEVEL.EXISTS', 409);
});

test('retention: days 1..36500 or null (keep); setting the same again records nothing', () => {
  assert.is(retentionStream('acme'), 'auditRetention-acme.policy');
  retention.given([]).when({ type: 'SetRetention', days: 0, now: T0 }).thenThrows('RETENTION.INVALID', 400);
  retention.given([]).when({ type: 'SetRetention', days: 36501, now: T0 }).thenThrows('RETENTION.INVALID', 400);
  retention
    .given([])
    .when({ type: 'SetRetention', days: 30, now: T0 })
    .then([{ type: 'RetentionSet', data: { days: 30, at: T0 } }]);
  retention
    .given([{ type: 'RetentionSet', data: { days: 30, at: T0 } }])
    .when({ type: 'SetRetention', days: 30, now: T0 })
    .then([]);
  retention
    .given([{ type: 'RetentionSet', data: { days: 30, at: T0 } }])
    .when({ type: 'SetRetention', days: null, now: T0 })
    .then([{ type: 'RetentionSet', data: { days: null, at: T0 } }]);
});

test('a run never moves the retired range back, and does nothing once the policy is cleared', () => {
  const set = { type: 'RetentionSet' as const, data: { days: 1, at: T0 } };
  const ran = { type: 'RetentionApplied' as const, data: { cutoff: T0, through_sequence: 10, at: T0 } };
  retention
    .given([set, ran])
    .when({ type: 'ApplyRetention', cutoff: T0, through_sequence: 4, now: T0 })
    .then([{ type: 'RetentionApplied', data: { cutoff: T0, through_sequence: 10, at: T0 } }]);
  retention
    .given([set, { type: 'RetentionSet', data: { days: null, at: T0 } }])
    .when({ type: 'ApplyRetention', cutoff: T0, through_sequence: 4, now: T0 })
    .then([]);
  assert.is(retentionCutoff(new Date('2026-01-03T00:00:00.000Z'), 2), '2026-01-01T00:00:00.000Z');
});

test.run();
