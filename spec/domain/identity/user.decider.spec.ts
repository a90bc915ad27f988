import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { fold } from '../../../domain/core/decider.ts';
import { type UserCommand, type UserEvent, userDecider, userStream } from '../../../domain/identity/user.decider.ts';
import { deciderSpec } from '../../core/decider-spec.ts';

const spec = deciderSpec(userDecider);
const now = '2026-01-01T00:00:00.000Z';
const later = '2026-01-02T00:00:00.000Z';
const ids = { tenant: 'acme', userId: 'u1' };

const register: Extract<UserCommand, { type: 'RegisterUser' }> = {
  type: 'RegisterUser',
  tenant: 'acme',
  userId: 'u1',
  directory: 'default',
  username: 'ann.lee@acme',
  name: ' Ann Lee ',
  nickname: 'ann',
  email: 'ann@acme.example',
  passwordHash: 'scrypt$hash',
  roles: ['identity:admin', 'identity:admin'],
  now,
};
const registered: UserEvent = {
  type: 'UserRegistered',
  data: {
    tenant: 'acme',
    userId: 'u1',
    directory: 'default',
    username: 'ann.lee@acme',
    name: 'Ann Lee',
    nickname: 'ann',
    email: 'ann@acme.example',
    passwordHash: 'scrypt$hash',
    roles: ['identity:admin'],
    registeredAt: now,
  },
};
const disabled: UserEvent = { type: 'UserDisabled', data: { ...ids, disabledAt: later } };

test('users live in tenant streams', () => {
  assert.is(userStream('acme', 'u1'), 'user-acme.u1');
});

test('register: UserRegistered, name trimmed, roles de-duplicated', () => {
  spec.given([]).when(register).then([registered]);
});

test('register an existing user: 409 USER.ALREADY_EXISTS', () => {
  spec.given([registered]).when(register).thenThrows('USER.ALREADY_EXISTS', 409);
});

for (const [label, change] of [
  ['a username with a space', { username: 'ann lee' }],
  ['a username starting with a dot', { username: '.ann' }],
  ['an empty username', { username: '' }],
  ['a blank name', { name: ' ' }],
  ['a bad email', { email: 'ann' }],
  ['a role that is no scope token', { roles: ['has space'] }],
  ['a bad directory', { directory: 'a/b' }],
  ['a bad user id', { userId: 'a b' }],
  ['no password hash', { passwordHash: '' }],
] as Array<[string, Partial<typeof register>]>) {
  test(`register with ${label}: 400 USER.INVALID`, () => {
    spec
      .given([])
      .when({ ...register, ...change })
      .thenThrows('USER.INVALID', 400);
  });
}

test('disable an active user: UserDisabled; again: nothing', () => {
  spec.given([registered]).when({ type: 'DisableUser', now: later }).then([disabled]);
  spec.given([registered, disabled]).when({ type: 'DisableUser', now: later }).then([]);
});

test('enable a disabled user: UserEnabled; an active one: nothing', () => {
  spec
    .given([registered, disabled])
    .when({ type: 'EnableUser', now: later })
    .then([{ type: 'UserEnabled', data: { ...ids, enabledAt: later } }]);
  spec.given([registered]).when({ type: 'EnableUser', now: later }).then([]);
});

test('reset password: PasswordReset with the new hash (a disabled user too)', () => {
  const reset: UserEvent = { type: 'PasswordReset', data: { ...ids, passwordHash: 'scrypt$new', resetAt: later } };
  spec.given([registered]).when({ type: 'ResetPassword', passwordHash: 'scrypt$new', now: later }).then([reset]);
  spec
    .given([registered, disabled])
    .when({ type: 'ResetPassword', passwordHash: 'scrypt$new', now: later })
    .then([reset]);
  spec
    .given([registered])
    .when({ type: 'ResetPassword', passwordHash: '', now: later })
    .thenThrows('USER.INVALID', 400);
});

test('commands on an unknown user: 404 USER.NOT_FOUND', () => {
  for (const command of [
    { type: 'DisableUser', now },
    { type: 'EnableUser', now },
    { type: 'ResetPassword', passwordHash: 'x', now },
    { type: 'UpdateUser', changes: { name: 'x' }, now },
  ] as UserCommand[]) {
    spec.given([]).when(command).thenThrows('USER.NOT_FOUND', 404);
  }
});

test('update records only changes; null clears nickname and email', () => {
  spec
    .given([registered])
    .when({
      type: 'UpdateUser',
      changes: { name: 'Ann Lee', nickname: null, email: 'lee@acme.example', roles: ['identity:admin'] },
      now: later,
    })
    .then([
      {
        type: 'UserUpdated',
        data: { ...ids, changes: { nickname: null, email: 'lee@acme.example' }, updatedAt: later },
      },
    ]);
  spec
    .given([registered])
    .when({ type: 'UpdateUser', changes: { name: 'Ann Lee' }, now: later })
    .then([]);
  spec
    .given([registered])
    .when({ type: 'UpdateUser', changes: { email: 'bad' }, now: later })
    .thenThrows('USER.INVALID', 400);
});

test('fold: status, password hash and profile follow the events', () => {
  const state = fold(userDecider, [
    registered,
    disabled,
    { type: 'PasswordReset', data: { ...ids, passwordHash: 'scrypt$new', resetAt: later } },
    { type: 'UserUpdated', data: { ...ids, changes: { nickname: null, roles: [] }, updatedAt: later } },
  ]);
  assert.ok(state.status === 'exists');
  assert.is(state.user.status, 'disabled');
  assert.is(state.user.passwordHash, 'scrypt$new');
  assert.is(state.user.nickname, undefined);
  assert.equal(state.user.roles, []);
  assert.is(state.registeredAt, now);
});

test.run();
