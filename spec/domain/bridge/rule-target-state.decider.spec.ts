import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import {
  blockStanding,
  type RuleTargetEvent,
  ruleTargetDecider,
  ruleTargetKey,
  ruleTargetStream,
} from '../../../domain/bridge/rule-target-state.decider.ts';
import { fold } from '../../../domain/core/decider.ts';
import { deciderSpec } from '../../core/decider-spec.ts';

const spec = deciderSpec(ruleTargetDecider);
const test = suite('rule target state decider');
const ref = { ruleTenant: 'acme', ruleId: 'r1', targetId: 2 };
const T0 = '2026-01-01T00:00:00.000Z';
const T1 = '2026-01-01T00:01:00.000Z';
const T2 = '2026-01-01T00:02:00.000Z';
const blocked = (deliveryId: string, round = 1, at = T0): RuleTargetEvent => ({
  type: 'RuleTargetBlocked',
  data: { ...ref, deliveryId, round, error: 'HTTP 500', at },
});
const block = (deliveryId: string, round = 1, now = T0) => ({
  type: 'BlockRuleTarget' as const,
  ...ref,
  deliveryId,
  round,
  error: 'HTTP 500',
  now,
});

test('names: one stream per rule target', () => {
  assert.is(ruleTargetStream(ref), 'ruleTarget-acme.r1~2');
  assert.is(ruleTargetKey(ref), 'acme/r1/2');
});

test('a delivery whose retries ran out blocks its rule target; the same delivery and round again is nothing new', () => {
  spec
    .given([])
    .when(block('d1'))
    .then([blocked('d1')]);
  spec
    .given([blocked('d1')])
    .when(block('d1', 1, T1))
    .then([]);
  // another delivery of the same target ran out too: it joins the episode
  spec
    .given([blocked('d1')])
    .when(block('d2', 1, T1))
    .then([blocked('d2', 1, T1)]);
});

test('an operator resumes: the blocking deliveries are released; resuming a target that is not blocked is 409', () => {
  spec
    .given([blocked('d1'), blocked('d2', 1, T1)])
    .when({ type: 'ResumeRuleTarget', ...ref, by: 'ops@acme', now: T2 })
    .then([
      {
        type: 'RuleTargetResumed',
        data: {
          ...ref,
          at: T2,
          by: 'ops@acme',
          released: [
            { deliveryId: 'd1', round: 1, error: 'HTTP 500', at: T0 },
            { deliveryId: 'd2', round: 1, error: 'HTTP 500', at: T1 },
          ],
        },
      },
    ]);
  spec
    .given([])
    .when({ type: 'ResumeRuleTarget', ...ref, by: 'ops', now: T0 })
    .thenThrows('RULE_TARGET.NOT_BLOCKED', 409);
});

test('standing of a blocked delivery: blocking, released by a resume, or not recorded yet (a crash between the two appends)', () => {
  const resumed: RuleTargetEvent = {
    type: 'RuleTargetResumed',
    data: { ...ref, at: T1, by: 'ops', released: [{ deliveryId: 'd1', round: 1, error: 'x', at: T0 }] },
  };
  const s1 = fold(ruleTargetDecider, [blocked('d1')]);
  assert.is(s1.blocked, true);
  assert.is(s1.blockedAt, T0);
  assert.is(blockStanding(s1, 'd1', 1), 'blocking');
  assert.is(blockStanding(s1, 'd9', 1), 'unrecorded');
  const s2 = fold(ruleTargetDecider, [blocked('d1'), resumed]);
  assert.is(s2.blocked, false);
  assert.is(blockStanding(s2, 'd1', 1), 'released');
  // the released delivery failed again in its next round: blocking again
  assert.is(blockStanding(s2, 'd1', 2), 'unrecorded');
  spec
    .given([blocked('d1'), resumed])
    .when(block('d1', 1, T2))
    .then([]);
  spec
    .given([blocked('d1'), resumed])
    .when(block('d1', 2, T2))
    .then([blocked('d1', 2, T2)]);
  const s3 = fold(ruleTargetDecider, [blocked('d1'), resumed, blocked('d1', 2, T2)]);
  assert.is(blockStanding(s3, 'd1', 2), 'blocking');
  assert.is(s3.blockedAt, T2);
});

test.run();
