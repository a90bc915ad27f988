import { test } from 'uvu';
import * as assert from 'uvu/assert';
import {
  RESERVATION_GRACE_MS,
  type UsernameCommand,
  type UsernameEvent,
  usernameDecider,
  usernameKey,
  usernameStream,
} from '../../../domain/identity/username.decider.ts';
import { deciderSpec } from '../../core/decider-spec.ts';

const spec = deciderSpec(usernameDecider);
const now = '2026-01-01T00:00:00.000Z';
const reserve: UsernameCommand = {
  type: 'ReserveUsername',
  tenant: 'acme',
  directory: 'default',
  username: 'Ann',
  userId: 'u1',
  now,
};
const reserved: UsernameEvent = {
  type: 'UsernameReserved',
  data: { tenant: 'acme', directory: 'default', username: 'Ann', userId: 'u1', reservedAt: now },
};
const after = (ms: number) => new Date(Date.parse(now) + ms).toISOString();

test('one stream per (tenant, directory, username), case-insensitive', () => {
  assert.is(usernameStream('acme', 'default', 'Ann'), 'username-acme.default/ann');
  assert.is(usernameStream('acme', 'default', 'ANN'), usernameStream('acme', 'default', 'ann'));
  assert.is.not(usernameStream('acme', 'ldap', 'ann'), usernameStream('acme', 'default', 'ann'));
  assert.is(usernameKey('Ａnn'), 'ann', 'NFKC folds full-width letters');
});

test('a free name is reserved for the user id', () => {
  spec.given([]).when(reserve).then([reserved]);
});

test('the same user again (a retried registration): nothing new', () => {
  spec
    .given([reserved])
    .when({ ...reserve, now: after(1000) })
    .then([]);
});

test('another user: 409 USER.USERNAME_TAKEN', () => {
  spec
    .given([reserved])
    .when({ ...reserve, userId: 'u2' })
    .thenThrows('USER.USERNAME_TAKEN', 409);
});

test('reclaiming a stranded reservation before the grace period: refused', () => {
  spec
    .given([reserved])
    .when({ ...reserve, userId: 'u2', reclaimFrom: 'u1', now: after(RESERVATION_GRACE_MS - 1) })
    .thenThrows('USER.USERNAME_TAKEN', 409);
});

test('reclaiming a stranded reservation after the grace period: reserved for the new user', () => {
  const at = after(RESERVATION_GRACE_MS);
  spec
    .given([reserved])
    .when({ ...reserve, userId: 'u2', reclaimFrom: 'u1', now: at })
    .then([
      { type: 'UsernameReserved', data: { ...reserved.data, userId: 'u2', reservedAt: at, reclaimedFrom: 'u1' } },
    ]);
});

test('reclaiming from a holder that is no longer the holder: refused', () => {
  const taken: UsernameEvent = {
    type: 'UsernameReserved',
    data: { ...reserved.data, userId: 'u3', reservedAt: now, reclaimedFrom: 'u1' },
  };
  spec
    .given([reserved, taken])
    .when({ ...reserve, userId: 'u2', reclaimFrom: 'u1', now: after(RESERVATION_GRACE_MS * 2) })
    .thenThrows('USER.USERNAME_TAKEN', 409);
});

test.run();
