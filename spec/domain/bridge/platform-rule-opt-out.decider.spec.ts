import { test } from 'uvu';
import * as assert from 'uvu/assert';
import {
  type RuleOptOutEvent,
  ruleOptOutDecider,
  ruleOptOutStream,
} from '../../../domain/bridge/platform-rule-opt-out.decider.ts';
import { deciderSpec } from '../../core/decider-spec.ts';

const spec = deciderSpec(ruleOptOutDecider);
const now = '2026-03-01T10:00:00.000Z';
const out: RuleOptOutEvent = { type: 'PlatformRuleOptedOut', data: { tenant: 'acme', ruleId: 'batch-alert', at: now } };
const back: RuleOptOutEvent = { type: 'PlatformRuleOptedIn', data: { tenant: 'acme', ruleId: 'batch-alert', at: now } };
const optOut = { type: 'OptOutOfPlatformRule' as const, tenant: 'acme', ruleId: 'batch-alert', now };
const optIn = { type: 'OptInToPlatformRule' as const, tenant: 'acme', ruleId: 'batch-alert', now };

test('stream: ruleOptOut-<tenant>.<ruleId>', () => {
  assert.is(ruleOptOutStream('acme', 'batch-alert'), 'ruleOptOut-acme.batch-alert');
});

test('opt out, then in; each idempotent', () => {
  spec.given([]).when(optOut).then([out]);
  spec.given([out]).when(optOut).then([]);
  spec.given([out]).when(optIn).then([back]);
  spec.given([]).when(optIn).then([]);
  spec.given([out, back]).when(optIn).then([]);
  spec.given([out, back]).when(optOut).then([out]);
});

test('state says since when', () => {
  assert.equal(ruleOptOutDecider.evolve(ruleOptOutDecider.initialState(), out), { optedOut: true, since: now });
});

test.run();
