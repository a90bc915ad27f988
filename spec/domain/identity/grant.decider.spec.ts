import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import {
  type GrantEvent,
  type GrantStartedData,
  grantDecider,
  grantStream,
} from '../../../domain/identity/grant.decider.ts';
import { deciderSpec } from '../../core/decider-spec.ts';

const spec = deciderSpec(grantDecider);
const test = suite('grant decider');

const T0 = '2026-01-01T00:00:00.000Z';
const T1 = '2026-01-01T01:00:00.000Z';
const s0 = Date.parse(T0) / 1000;
const s1 = Date.parse(T1) / 1000;

const started: GrantStartedData = {
  grantId: 'g1',
  tenant: 'acme',
  clientId: 'app',
  subject: 'u1',
  scopes: ['openid', 'profile'],
  codeId: 'c1',
  accessJti: 'g1.a',
  accessExp: s0 + 7200,
  refreshTokenId: 'r1',
  refreshExp: s0 + 86400,
  startedAt: T0,
};
const start: GrantEvent = { type: 'GrantStarted', data: started };
const rotated: GrantEvent[] = [
  {
    type: 'RefreshTokenRotated',
    data: { grantId: 'g1', spentId: 'r1', newId: 'r2', refreshExp: s1 + 86400, rotatedAt: T1 },
  },
  { type: 'AccessTokenIssued', data: { grantId: 'g1', jti: 'g1.b', exp: s1 + 7200, scopes: ['openid', 'profile'] } },
];
const refresh = (presentedId: string, extra: Record<string, unknown> = {}) => ({
  type: 'RefreshGrant' as const,
  data: {
    grantId: 'g1',
    presentedId,
    clientId: 'app',
    newRefreshId: 'r2',
    refreshExp: s1 + 86400,
    accessJti: 'g1.b',
    accessExp: s1 + 7200,
    now: T1,
    ...extra,
  },
});

test('stream on the platform tenant', () => {
  assert.is(grantStream('g1'), 'grant-platform.g1');
});

test('StartGrant', () => {
  const { startedAt: _s, ...data } = started;
  spec
    .given([])
    .when({ type: 'StartGrant', data: { ...data, now: T0 } })
    .then([start]);
});

test('StartGrant twice is refused', () => {
  const { startedAt: _s, ...data } = started;
  spec
    .given([start])
    .when({ type: 'StartGrant', data: { ...data, now: T0 } })
    .thenThrows('GRANT.EXISTS', 409);
});

test('StartGrant after a pre-emptive revocation (a reused code) is refused', () => {
  const { startedAt: _s, ...data } = started;
  spec
    .given([{ type: 'GrantRevoked', data: { grantId: 'g1', reason: 'code reused', revokedAt: T0, accessTokens: [] } }])
    .when({ type: 'StartGrant', data: { ...data, now: T0 } })
    .thenThrows('GRANT.REVOKED', 400);
});

test('RefreshGrant rotates the refresh token and issues an access token', () => {
  spec.given([start]).when(refresh('r1')).then(rotated);
});

test('RefreshGrant may narrow the scopes', () => {
  spec
    .given([start])
    .when(refresh('r1', { scopes: ['openid'] }))
    .then([
      rotated[0]!,
      { type: 'AccessTokenIssued', data: { grantId: 'g1', jti: 'g1.b', exp: s1 + 7200, scopes: ['openid'] } },
    ]);
});

test('RefreshGrant cannot widen the scopes', () => {
  spec
    .given([start])
    .when(refresh('r1', { scopes: ['openid', 'email'] }))
    .thenThrows('GRANT.INVALID_SCOPE', 400);
});

test('reuse of a spent refresh token revokes the grant and every live access token', () => {
  spec
    .given([start, ...rotated])
    .when(refresh('r1', { newRefreshId: 'r3', accessJti: 'g1.c' }))
    .then([
      { type: 'RefreshTokenReused', data: { grantId: 'g1', tokenId: 'r1', detectedAt: T1 } },
      {
        type: 'GrantRevoked',
        data: {
          grantId: 'g1',
          reason: 'refresh_token_reused',
          revokedAt: T1,
          accessTokens: [
            { jti: 'g1.a', exp: s0 + 7200 },
            { jti: 'g1.b', exp: s1 + 7200 },
          ],
        },
      },
    ]);
});

test('after the reuse the current refresh token is dead too', () => {
  const reused: GrantEvent[] = [
    { type: 'RefreshTokenReused', data: { grantId: 'g1', tokenId: 'r1', detectedAt: T1 } },
    { type: 'GrantRevoked', data: { grantId: 'g1', reason: 'refresh_token_reused', revokedAt: T1, accessTokens: [] } },
  ];
  spec
    .given([start, ...rotated, ...reused])
    .when(refresh('r2'))
    .thenThrows('GRANT.REVOKED', 400);
});

test('refresh of an expired refresh token', () => {
  spec
    .given([start])
    .when(refresh('r1', { now: '2026-01-02T00:00:00.000Z' }))
    .thenThrows('GRANT.REFRESH_TOKEN_EXPIRED', 400);
});

test('refresh of an unknown grant / unknown token / by another client', () => {
  spec.given([]).when(refresh('r1')).thenThrows('GRANT.NOT_FOUND', 400);
  spec.given([start]).when(refresh('nope')).thenThrows('GRANT.NOT_FOUND', 400);
  spec
    .given([start])
    .when(refresh('r1', { clientId: 'other' }))
    .thenThrows('GRANT.CLIENT_MISMATCH', 400);
});

test('RevokeGrant names the access tokens that have not expired yet', () => {
  spec
    .given([start, ...rotated])
    .when({ type: 'RevokeGrant', data: { grantId: 'g1', reason: 'logout', now: '2026-01-01T02:30:00.000Z' } })
    .then([
      {
        type: 'GrantRevoked',
        data: {
          grantId: 'g1',
          reason: 'logout',
          revokedAt: '2026-01-01T02:30:00.000Z',
          accessTokens: [{ jti: 'g1.b', exp: s1 + 7200 }],
        },
      },
    ]);
});

test('RevokeGrant of a revoked grant appends nothing; of an unknown one only when asked to', () => {
  const revoked: GrantEvent = {
    type: 'GrantRevoked',
    data: { grantId: 'g1', reason: 'x', revokedAt: T1, accessTokens: [] },
  };
  spec
    .given([start, revoked])
    .when({ type: 'RevokeGrant', data: { grantId: 'g1', reason: 'y', now: T1 } })
    .then([]);
  spec
    .given([])
    .when({ type: 'RevokeGrant', data: { grantId: 'g1', reason: 'y', now: T1 } })
    .then([]);
  spec
    .given([])
    .when({ type: 'RevokeGrant', data: { grantId: 'g1', reason: 'code reused', now: T1, evenIfNotStarted: true } })
    .then([{ type: 'GrantRevoked', data: { grantId: 'g1', reason: 'code reused', revokedAt: T1, accessTokens: [] } }]);
});

test('RevokeToken: one access token; unknown or already revoked ones append nothing', () => {
  spec
    .given([start])
    .when({ type: 'RevokeToken', data: { grantId: 'g1', jti: 'g1.a', now: T1 } })
    .then([{ type: 'TokenRevoked', data: { grantId: 'g1', jti: 'g1.a', exp: s0 + 7200, revokedAt: T1 } }]);
  spec
    .given([start])
    .when({ type: 'RevokeToken', data: { grantId: 'g1', jti: 'g1.zzz', now: T1 } })
    .then([]);
  spec
    .given([start, { type: 'TokenRevoked', data: { grantId: 'g1', jti: 'g1.a', exp: s0 + 7200, revokedAt: T1 } }])
    .when({ type: 'RevokeToken', data: { grantId: 'g1', jti: 'g1.a', now: T1 } })
    .then([]);
});

test('RevokeToken of a token issued without a grant stream (client_credentials): its verified expiry is recorded once', () => {
  const revoked: GrantEvent = {
    type: 'TokenRevoked',
    data: { grantId: 'g9', jti: 'g9.a', exp: s0 + 600, revokedAt: T1 },
  };
  spec
    .given([])
    .when({ type: 'RevokeToken', data: { grantId: 'g9', jti: 'g9.a', exp: s0 + 600, now: T1 } })
    .then([revoked]);
  spec
    .given([revoked])
    .when({ type: 'RevokeToken', data: { grantId: 'g9', jti: 'g9.a', exp: s0 + 600, now: T1 } })
    .then([]);
  // without the expiry (nothing to keep it by) an unknown grant's token is left alone, as before
  spec
    .given([])
    .when({ type: 'RevokeToken', data: { grantId: 'g9', jti: 'g9.a', now: T1 } })
    .then([]);
  // a second token of the same empty grant is its own revocation
  spec
    .given([revoked])
    .when({ type: 'RevokeToken', data: { grantId: 'g9', jti: 'g9.b', exp: s0 + 900, now: T1 } })
    .then([{ type: 'TokenRevoked', data: { grantId: 'g9', jti: 'g9.b', exp: s0 + 900, revokedAt: T1 } }]);
});

test('a revoked jti is not listed again when the grant is revoked', () => {
  spec
    .given([start, { type: 'TokenRevoked', data: { grantId: 'g1', jti: 'g1.a', exp: s0 + 7200, revokedAt: T0 } }])
    .when({ type: 'RevokeGrant', data: { grantId: 'g1', reason: 'r', now: T0 } })
    .then([{ type: 'GrantRevoked', data: { grantId: 'g1', reason: 'r', revokedAt: T0, accessTokens: [] } }]);
});

test.run();
