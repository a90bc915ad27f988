import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { codeIdOf, createCodes } from '../../../commands/identity/authorization-codes.commands.ts';
import { grantIdForCode } from '../../../commands/identity/grants/grant.ids.ts';
import { OAuthError } from '../../../commands/identity/oauth.error.ts';
import { codeStream } from '../../../domain/identity/code.decider.ts';
import { manualClock } from '../../../infra/core/clock.port.ts';
import { createSqliteEventStore } from '../../../infra/sqlite/event-store.sqlite.ts';

const dir = mkdtempSync(path.join(tmpdir(), 'codes-'));
const file = path.join(dir, 'events.sqlite');
const eventStore = createSqliteEventStore({ file });
// a second store instance on the same file: what a second process sees
const otherProcessStore = createSqliteEventStore({ file });
const clock = manualClock('2026-03-01T10:00:00.000Z');
const revoked: Array<{ codeId: string; reason: string }> = [];
const tokens = { revokeByCode: async (codeId: string, reason: string) => void revoked.push({ codeId, reason }) };
const codes = createCodes({ eventStore, clock, ttlSeconds: 250, tokens });
const codesElsewhere = createCodes({ eventStore: otherProcessStore, clock, ttlSeconds: 250, tokens });
test.after(async () => {
  await eventStore.close();
  await otherProcessStore.close();
  rmSync(dir, { recursive: true, force: true });
});

const VERIFIER = 'abcdefghij'.repeat(5);
const CHALLENGE = createHash('sha256').update(VERIFIER).digest('base64url');
const issue = () =>
  codes.issue(
    {
      clientId: 'app',
      redirectUri: 'https://app.example/cb',
      userId: 'u1',
      scopes: ['openid'],
      nonce: 'n',
      codeChallenge: CHALLENGE,
      method: 'S256',
      authTime: 1_772_359_200,
      sessionId: 's1',
    },
    { tenant: 'acme', actor: 'u1' },
  );
const redeem = (code: string, over: { verifier?: string; redirectUri?: string; clientId?: string } = {}, via = codes) =>
  via.redeem({
    code,
    clientId: over.clientId ?? 'app',
    redirectUri: over.redirectUri ?? 'https://app.example/cb',
    codeVerifier: 'verifier' in over ? over.verifier : VERIFIER,
  });

async function invalidGrant(p: Promise<unknown>): Promise<OAuthError> {
  try {
    await p;
  } catch (err) {
    assert.instance(err, OAuthError);
    assert.is((err as OAuthError).code, 'invalid_grant');
    assert.is((err as OAuthError).toResponse().status, 400);
    return err as OAuthError;
  }
  assert.unreachable('expected invalid_grant');
  throw new Error('unreachable');
}

test('a code is 256 random bits (43 base64url characters); only its hash reaches the log', async () => {
  const { code, codeId, expiresAt } = await issue();
  assert.match(code, /^[A-Za-z0-9_-]{43}$/);
  assert.is(codeId, codeIdOf(code));
  assert.is(expiresAt, '2026-03-01T10:04:10.000Z');
  const events = await eventStore.readStream(codeStream(codeId));
  assert.equal(
    events.map((e) => e.type),
    ['CodeIssued'],
  );
  assert.not.match(JSON.stringify(events), code);
  assert.is(events[0]!.stream, `authCode-platform.${codeId}`);
});

test('redeem answers what was issued and the grant id derived from the code', async () => {
  const { code, codeId } = await issue();
  const r = await redeem(code);
  assert.is(r.codeId, codeId);
  assert.is(r.grantId, grantIdForCode(codeId));
  assert.is(r.issued.userId, 'u1');
  assert.is(r.issued.nonce, 'n');
  assert.equal(r.issued.scopes, ['openid']);
});

test('a second redemption is invalid_grant and revokes every token issued from the code', async () => {
  const { code, codeId } = await issue();
  await redeem(code);
  revoked.length = 0;
  await invalidGrant(redeem(code));
  assert.equal(
    revoked.map((r) => r.codeId),
    [codeId],
  );
  const types = (await eventStore.readStream(codeStream(codeId))).map((e) => e.type);
  assert.equal(types, ['CodeIssued', 'CodeRedeemed', 'CodeReuseDetected']);
});

test('two concurrent redemptions (two store instances, as two processes): exactly one succeeds', async () => {
  for (let round = 0; round < 5; round++) {
    const { code, codeId } = await issue();
    revoked.length = 0;
    const results = await Promise.allSettled([redeem(code), redeem(code, {}, codesElsewhere), redeem(code)]);
    const won = results.filter((r) => r.status === 'fulfilled');
    const lost = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
    assert.is(won.length, 1, `round ${round}`);
    for (const l of lost) {
      assert.instance(l.reason, OAuthError);
      assert.is((l.reason as OAuthError).code, 'invalid_grant');
    }
    assert.ok(revoked.every((r) => r.codeId === codeId) && revoked.length === 2);
    const types = (await eventStore.readStream(codeStream(codeId))).map((e) => e.type);
    assert.is(types.filter((t) => t === 'CodeRedeemed').length, 1);
  }
});

test('expired codes are invalid_grant (250 s by default)', async () => {
  const { code } = await issue();
  clock.advance(250_000);
  const e = await invalidGrant(redeem(code));
  assert.match(e.description, /expired/);
});

test('wrong verifier, missing verifier, another redirect_uri, another client: invalid_grant, and the code stays unspent', async () => {
  const { code } = await issue();
  revoked.length = 0;
  await invalidGrant(redeem(code, { verifier: 'z'.repeat(43) }));
  await invalidGrant(redeem(code, { verifier: undefined }));
  await invalidGrant(redeem(code, { verifier: 'short' }));
  await invalidGrant(redeem(code, { redirectUri: 'https://app.example/cb2' }));
  await invalidGrant(redeem(code, { clientId: 'intruder' }));
  assert.is(revoked.length, 0, 'refusals that are not reuse revoke nothing');
  const ok = await redeem(code);
  assert.is(ok.issued.clientId, 'app');
});

test('an unknown code is invalid_grant; an empty one invalid_request', async () => {
  await invalidGrant(redeem('never-issued'));
  try {
    await redeem('');
    assert.unreachable();
  } catch (err) {
    assert.is((err as OAuthError).code, 'invalid_request');
  }
});

test.run();
