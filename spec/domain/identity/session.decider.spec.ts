import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { fold } from '../../../domain/core/decider.ts';
import {
  activeSession,
  type SessionEvent,
  sessionDecider,
  sessionStream,
} from '../../../domain/identity/session.decider.ts';
import { deciderSpec } from '../../core/decider-spec.ts';

const spec = deciderSpec(sessionDecider);
const data = {
  sessionId: 's1',
  tenant: 'acme',
  userId: 'u1',
  authTime: 1_767_225_600,
  expiresAt: '2026-01-01T08:00:00.000Z',
};
const started: SessionEvent = { type: 'SessionStarted', data };
const ended: SessionEvent = {
  type: 'SessionEnded',
  data: { sessionId: 's1', endedAt: '2026-01-01T01:00:00.000Z', reason: 'logout' },
};

test('stream name: session-platform.<sid>', () => {
  assert.is(sessionStream('abc'), 'session-platform.abc');
});

test('start decides SessionStarted; a taken session id is refused', () => {
  spec.given([]).when({ type: 'StartSession', data }).then([started]);
  spec.given([started]).when({ type: 'StartSession', data }).thenThrows('SESSION.ALREADY_STARTED', 409);
});

test('end decides SessionEnded once; ending an unknown or ended session records nothing', () => {
  spec
    .given([started])
    .when({ type: 'EndSession', data: { sessionId: 's1', now: '2026-01-01T01:00:00.000Z' } })
    .then([ended]);
  spec
    .given([started, ended])
    .when({ type: 'EndSession', data: { sessionId: 's1', now: '2026-01-01T02:00:00.000Z' } })
    .then([]);
  spec
    .given([])
    .when({ type: 'EndSession', data: { sessionId: 's1', now: '2026-01-01T02:00:00.000Z' } })
    .then([]);
});

test('activeSession: a started session until it expires; never an ended one', () => {
  const state = fold(sessionDecider, [started]);
  assert.equal(activeSession(state, '2026-01-01T07:59:59.999Z'), data);
  assert.is(activeSession(state, '2026-01-01T08:00:00.000Z'), null);
  assert.is(activeSession(fold(sessionDecider, [started, ended]), '2026-01-01T01:30:00.000Z'), null);
  assert.is(activeSession(fold(sessionDecider, []), '2026-01-01T01:30:00.000Z'), null);
});

test.run();
