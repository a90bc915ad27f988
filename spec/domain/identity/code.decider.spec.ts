import { createHash } from 'node:crypto';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { fold } from '../../../domain/core/decider.ts';
import {
  type CodeCommand,
  type CodeEvent,
  type CodeIssuedData,
  codeDecider,
  codeStream,
} from '../../../domain/identity/code.decider.ts';
import { deciderSpec } from '../../core/decider-spec.ts';

const spec = deciderSpec(codeDecider);
const s256 = (v: string) => createHash('sha256').update(v, 'ascii').digest('base64url');
const VERIFIER = 'v'.repeat(43);

const issuedData: CodeIssuedData = {
  codeId: 'c1',
  clientId: 'app',
  tenant: 'acme',
  redirectUri: 'https://app.example/cb',
  userId: 'u1',
  scopes: ['openid', 'profile'],
  nonce: 'n-1',
  codeChallenge: s256(VERIFIER),
  method: 'S256',
  authTime: 1_767_225_600,
  sessionId: 's1',
  expiresAt: '2026-01-01T00:04:10.000Z',
};
const issued: CodeEvent = { type: 'CodeIssued', data: issuedData };
const redeem = (over: Partial<Extract<CodeCommand, { type: 'RedeemCode' }>['data']> = {}): CodeCommand => ({
  type: 'RedeemCode',
  data: {
    codeId: 'c1',
    clientId: 'app',
    redirectUri: 'https://app.example/cb',
    pkce: { verifier: VERIFIER, verifierS256: s256(VERIFIER) },
    grantId: 'g1',
    now: '2026-01-01T00:01:00.000Z',
    ...over,
  },
});
const redeemed: CodeEvent = {
  type: 'CodeRedeemed',
  data: { codeId: 'c1', grantId: 'g1', redeemedAt: '2026-01-01T00:01:00.000Z' },
};

test('stream name: authCode-platform.<code hash>', () => {
  assert.is(codeStream('abc'), 'authCode-platform.abc');
});

test('issue on an empty stream decides CodeIssued; a second issue is refused', () => {
  spec.given([]).when({ type: 'IssueCode', data: issuedData }).then([issued]);
  spec.given([issued]).when({ type: 'IssueCode', data: issuedData }).thenThrows('CODE.ALREADY_ISSUED', 409);
});

test('redeem with the right client, redirect_uri and verifier decides CodeRedeemed with the grant id', () => {
  spec.given([issued]).when(redeem()).then([redeemed]);
  assert.equal(fold(codeDecider, [issued, redeemed]), { status: 'redeemed', code: issuedData, grantId: 'g1' });
});

test('a second redemption decides CodeReuseDetected (appended, so the caller revokes and refuses)', () => {
  spec
    .given([issued, redeemed])
    .when(redeem({ grantId: 'g2', now: '2026-01-01T00:02:00.000Z' }))
    .then([
      { type: 'CodeReuseDetected', data: { codeId: 'c1', clientId: 'app', detectedAt: '2026-01-01T00:02:00.000Z' } },
    ]);
});

test('a reuse after expiry is still detected as a reuse', () => {
  spec
    .given([issued, redeemed])
    .when(redeem({ now: '2026-01-01T01:00:00.000Z' }))
    .then([
      { type: 'CodeReuseDetected', data: { codeId: 'c1', clientId: 'app', detectedAt: '2026-01-01T01:00:00.000Z' } },
    ]);
});

test('unknown code, another client, expired code: refused (invalid_grant at the endpoint)', () => {
  spec.given([]).when(redeem()).thenThrows('CODE.NOT_FOUND', 400);
  spec
    .given([issued])
    .when(redeem({ clientId: 'other' }))
    .thenThrows('CODE.CLIENT_MISMATCH', 400);
  // another client presenting a spent code is refused without a reuse event (no revocation by strangers)
  spec
    .given([issued, redeemed])
    .when(redeem({ clientId: 'other' }))
    .thenThrows('CODE.CLIENT_MISMATCH', 400);
  spec
    .given([issued])
    .when(redeem({ now: '2026-01-01T00:04:10.000Z' }))
    .thenThrows('CODE.EXPIRED', 400);
  spec
    .given([issued])
    .when(redeem({ now: '2026-01-01T00:04:09.999Z' }))
    .then([{ ...redeemed, data: { ...redeemed.data, redeemedAt: '2026-01-01T00:04:09.999Z' } }]);
});

test('redirect_uri must equal the authorization request one exactly (absent too)', () => {
  spec
    .given([issued])
    .when(redeem({ redirectUri: 'https://app.example/cb/' }))
    .thenThrows('CODE.REDIRECT_URI_MISMATCH');
  spec
    .given([issued])
    .when(redeem({ redirectUri: undefined }))
    .thenThrows('CODE.REDIRECT_URI_MISMATCH');
});

test('PKCE: missing or wrong verifier refused; verifier for a code without challenge refused', () => {
  spec
    .given([issued])
    .when(redeem({ pkce: undefined }))
    .thenThrows('CODE.PKCE_REQUIRED');
  const wrong = 'w'.repeat(43);
  spec
    .given([issued])
    .when(redeem({ pkce: { verifier: wrong, verifierS256: s256(wrong) } }))
    .thenThrows('CODE.PKCE_FAILED');
  const noPkce: CodeEvent = {
    type: 'CodeIssued',
    data: { ...issuedData, codeChallenge: undefined, method: undefined } as CodeIssuedData,
  };
  delete (noPkce.data as Partial<CodeIssuedData>).codeChallenge;
  delete (noPkce.data as Partial<CodeIssuedData>).method;
  spec.given([noPkce]).when(redeem()).thenThrows('CODE.PKCE_UNEXPECTED');
  spec
    .given([noPkce])
    .when(redeem({ pkce: undefined }))
    .then([redeemed]);
});

test('PKCE plain compares the verifier with the stored challenge', () => {
  const plain: CodeEvent = { type: 'CodeIssued', data: { ...issuedData, codeChallenge: VERIFIER, method: 'plain' } };
  spec.given([plain]).when(redeem()).then([redeemed]);
  spec
    .given([plain])
    .when(redeem({ pkce: { verifier: 'x'.repeat(43), verifierS256: s256('x'.repeat(43)) } }))
    .thenThrows('CODE.PKCE_FAILED');
});

test.run();
