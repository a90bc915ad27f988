import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { fold } from '../../../domain/core/decider.ts';
import { deciderSpec } from '../../core/decider-spec.ts';
import { accountDecider } from '../../core/fixtures/account.decider.ts';

const spec = deciderSpec(accountDecider);
const opened = { type: 'AccountOpened' as const, data: { owner: 'ann', openedAt: '2026-01-01T00:00:00.000Z' } };

test('open on an empty stream decides AccountOpened with the command time', () => {
  spec.given([]).when({ type: 'OpenAccount', owner: 'ann', at: '2026-01-01T00:00:00.000Z' }).then([opened]);
});

test('open twice is rejected with a 409 code', () => {
  spec.given([opened]).when({ type: 'OpenAccount', owner: 'bob', at: 'x' }).thenThrows('ACCOUNT.EXISTS', 409);
});

test('withdraw more than the balance is rejected', () => {
  spec
    .given([opened, { type: 'MoneyDeposited', data: { amount: 10 } }])
    .when({ type: 'Withdraw', amount: 11 })
    .thenThrows('ACCOUNT.INSUFFICIENT_FUNDS');
});

test('close pays out the balance then closes: two events from one command', () => {
  spec
    .given([opened, { type: 'MoneyDeposited', data: { amount: 7 } }])
    .when({ type: 'CloseAccount' })
    .then([
      { type: 'MoneyWithdrawn', data: { amount: 7 } },
      { type: 'AccountClosed', data: {} },
    ]);
});

test('then() fails when the decided events differ (the helper can fail)', () => {
  const fails = (f: () => void) => {
    try {
      f();
    } catch {
      return true;
    }
    return false;
  };
  assert.ok(fails(() => spec.given([opened]).when({ type: 'Deposit', amount: 5 }).then([])));
  assert.ok(fails(() => spec.given([opened]).when({ type: 'Deposit', amount: 5 }).thenThrows('ACCOUNT.NOT_OPEN')));
});

test('fold replays events into state', () => {
  const s = fold(accountDecider, [opened, { type: 'MoneyDeposited', data: { amount: 3 } }]);
  assert.equal(s, { status: 'open', owner: 'ann', balance: 3 });
});

test.run();
