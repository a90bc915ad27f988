// The logic of the bridge's operations pages apart from React: a connection form's auth as the API takes
// it (secrets left out when empty, only the chosen kind's fields), whether a stored secret is set, where a
// traced delivery stands, and the times the pages show and send.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { authOf, secretSet, valuesOf } from '../src/areas/bridge/connection-auth.ts';
import { byTarget, type DeliveryStep, outcomeOf } from '../src/areas/bridge/delivery-outcome.ts';
import { instantOfLocal, utc } from '../src/areas/bridge/time-format.ts';

const auth = suite('a connection form and the API');

auth('a new form: the kind chosen, its fields only, empty ones left out', () => {
  const v = {
    ...valuesOf(),
    'auth.kind': 'API_KEY',
    'auth.headerName': 'X-Api-Key',
    'auth.value': 's3cret',
    'auth.username': 'left over',
  };
  assert.equal(authOf(v), { kind: 'API_KEY', headerName: 'X-Api-Key', value: 's3cret' });
  assert.equal(authOf({ ...valuesOf(), 'auth.username': 'ann' }), { kind: 'BASIC', username: 'ann' });
});

auth('a stored connection: secrets start empty (never the mask), and an empty one is not sent', () => {
  const stored = {
    name: 'crm',
    description: null,
    auth: { kind: 'BASIC' as const, username: 'ann', password: '******' },
  };
  const v = valuesOf(stored);
  assert.is(v['auth.password'], '');
  assert.is(v['auth.username'], 'ann');
  assert.is(v.description, '');
  assert.equal(authOf(v), { kind: 'BASIC', username: 'ann' });
  assert.equal(authOf({ ...v, 'auth.password': 'new' }), { kind: 'BASIC', username: 'ann', password: 'new' });
});

auth('bearer: the token only for a fixed one, the key or path for the others', () => {
  const v = {
    ...valuesOf(),
    'auth.kind': 'BEARER',
    'auth.token': 't',
    'auth.key': 'alert.token',
    'auth.path': '$.data.t',
  };
  assert.equal(authOf({ ...v, 'auth.source': 'fixed' }), { kind: 'BEARER', source: 'fixed', token: 't' });
  assert.equal(authOf({ ...v, 'auth.source': 'config' }), { kind: 'BEARER', source: 'config', key: 'alert.token' });
  assert.equal(authOf({ ...v, 'auth.source': 'jsonpath' }), { kind: 'BEARER', source: 'jsonpath', path: '$.data.t' });
  assert.equal(authOf({ ...v, 'auth.source': 'caller' }), { kind: 'BEARER', source: 'caller' });
});

auth('a secret is set when the API shows its mask', () => {
  assert.ok(secretSet({ kind: 'API_KEY', headerName: 'X', value: '******' }));
  assert.not.ok(secretSet({ kind: 'BEARER', source: 'caller' }));
  assert.not.ok(secretSet(undefined));
  assert.ok(secretSet({ kind: 'OAUTH_CLIENT_CREDENTIALS', clientSecret: '******' }));
});

auth.run();

const delivery = suite('where a traced delivery stands');
const step = (o: Partial<DeliveryStep>): DeliveryStep => ({
  ruleId: 'r',
  targetId: 1,
  attemptId: 'a',
  at: '2026-12-01T00:00:00.000Z',
  status: 'started',
  attempt: 1,
  ...o,
});

delivery('each last step says delivered, retrying, failed, dead-lettered or pending', () => {
  assert.is(outcomeOf(step({ status: 'succeeded', httpStatus: 200 })), 'delivered');
  assert.is(outcomeOf(step({ status: 'failed', nextAttemptAt: '2026-12-01T00:00:15.000Z' })), 'retrying');
  assert.is(outcomeOf(step({ status: 'failed', nextAttemptAt: null })), 'failed');
  assert.is(outcomeOf(step({ status: 'failed', attemptId: '', attempt: 0 })), 'failed', 'a conversion error');
  assert.is(outcomeOf(step({ status: 'dead-lettered' })), 'dead-lettered');
  assert.is(outcomeOf(step({ status: 'redriven' })), 'pending');
  assert.is(outcomeOf(step({ status: 'blocked' })), 'blocked');
});

delivery('steps are grouped per rule target, in their order', () => {
  const groups = byTarget([
    step({ status: 'scheduled' }),
    step({ ruleId: 's', status: 'scheduled' }),
    step({ status: 'succeeded' }),
    step({ targetId: 2, status: 'scheduled' }),
  ]);
  assert.equal([...groups.keys()], ['r#1', 's#1', 'r#2']);
  assert.equal(
    groups.get('r#1')!.map((s) => s.status),
    ['scheduled', 'succeeded'],
  );
});

delivery.run();

const times = suite('times shown and sent');

times('shown in UTC to the millisecond; a local input sent as an instant', () => {
  assert.is(utc('2026-12-02T05:18:56.123Z'), '2026-12-02 05:18:56.123 UTC');
  assert.is(utc('2026-12-02T06:18:56.123+01:00'), '2026-12-02 05:18:56.123 UTC');
  assert.is(utc(undefined), '');
  assert.is(instantOfLocal(''), undefined);
  assert.is(instantOfLocal('not a time'), undefined);
  assert.is(instantOfLocal('2026-12-02T05:18:56'), new Date('2026-12-02T05:18:56').toISOString());
});

times.run();
