import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { parseDateTime, toLocal } from '../../../domain/hub/local-time.ts';
import { normalizeSendRequest, requestFingerprint } from '../../../domain/hub/send-request.ts';

const fields = (r: ReturnType<typeof normalizeSendRequest>) => (r.ok ? [] : r.violations.map((v) => v.field));

test("the send request's limits: RequestId ≤ 64, Payload ≤ 64 KiB, ≤ 5 attachments, unique role/channel pairs, ExpiresAt after SendAt", () => {
  assert.equal(fields(normalizeSendRequest({ RequestId: 'x'.repeat(65), NotificationCode: 'c' }, 'UTC')), [
    'RequestId',
  ]);
  assert.equal(
    fields(normalizeSendRequest({ RequestId: 'r', NotificationCode: 'c', Payload: { s: 'x'.repeat(65_536) } }, 'UTC')),
    ['Payload'],
  );
  assert.equal(
    fields(normalizeSendRequest({ RequestId: 'r', NotificationCode: 'c', Payload: { s: 'x'.repeat(65_000) } }, 'UTC')),
    [],
  );
  assert.equal(
    fields(
      normalizeSendRequest(
        {
          RequestId: 'r',
          NotificationCode: 'c',
          Attachments: Array.from({ length: 6 }, (_, i) => ({ DocId: `d${i}` })),
        },
        'UTC',
      ),
    ),
    ['Attachments'],
  );
  assert.equal(
    fields(
      normalizeSendRequest(
        {
          RequestId: 'r',
          NotificationCode: 'c',
          Recipients: [
            { Role: 'A', Channel: 'EMAIL', Address: 'a@x' },
            { Role: 'A', Channel: 'EMAIL', Address: 'b@x' },
          ],
        },
        'UTC',
      ),
    ),
    ['Recipients.1'],
  );
  assert.equal(
    fields(
      normalizeSendRequest(
        { RequestId: 'r', NotificationCode: 'c', SendAt: '2026-03-01T10:00:00', ExpiresAt: '2026-03-01T10:00:00' },
        'UTC',
      ),
    ),
    ['ExpiresAt'],
  );
  assert.equal(fields(normalizeSendRequest({ RequestId: 'r', NotificationCode: 'c', LANGUAGE_ID: 'en' }, 'UTC')), [
    'LANGUAGE_ID',
  ]);
  const ok = normalizeSendRequest(
    { RequestId: 'r', NotificationCode: 'c', Payload: null, PreferenceExempt: true },
    'UTC',
  );
  assert.ok(ok.ok && JSON.stringify(ok.request.Payload) === '{}');
});

test("SendAt/ExpiresAt: local times in the tenant's zone, offsets converted; daylight-saving gaps and overlaps", () => {
  const r = normalizeSendRequest(
    { RequestId: 'r', NotificationCode: 'c', SendAt: '2026-07-01T09:00:00', ExpiresAt: '2026-07-01T09:00:00+00:00' },
    'Europe/Berlin',
  );
  assert.ok(r.ok);
  if (r.ok) {
    assert.is(r.request.SendAt, '2026-07-01T07:00:00.000Z');
    assert.is(r.request.ExpiresAt, '2026-07-01T09:00:00.000Z');
  }
  assert.is(parseDateTime('2026-03-29T02:30:00', 'Europe/Berlin'), '2026-03-29T01:30:00.000Z');
  assert.is(parseDateTime('2026-10-25T02:30:00', 'Europe/Berlin'), '2026-10-25T00:30:00.000Z');
  assert.is(parseDateTime('2026-02-30T10:00:00', 'UTC'), null);
  assert.is(toLocal('2026-07-01T07:00:00.000Z', 'Europe/Berlin'), '2026-07-01T09:00:00.000+02:00');
});

test('the request fingerprint ignores key order, a null Payload and PreferenceExempt; any content change changes it', () => {
  const a = requestFingerprint({ RequestId: 'r', NotificationCode: 'c', Payload: null });
  assert.is(requestFingerprint({ NotificationCode: 'c', RequestId: 'r', PreferenceExempt: true } as never), a);
  assert.is.not(requestFingerprint({ RequestId: 'r', NotificationCode: 'c', Payload: { x: 1 } }), a);
});

test.run();
