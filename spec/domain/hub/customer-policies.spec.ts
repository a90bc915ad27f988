import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { fold } from '../../../domain/core/decider.ts';
import { capFor, frequencyCapDecider } from '../../../domain/hub/frequency-cap.decider.ts';
import {
  type QuotaEvent,
  quotaCommitted,
  quotaDecider,
  quotaReleasable,
  usage,
} from '../../../domain/hub/frequency-quota.decider.ts';
import {
  type InteractionInput,
  interactionDecider,
  preferenceChangeOf,
} from '../../../domain/hub/interaction.decider.ts';
import type { Message } from '../../../domain/hub/notification.model.ts';
import { effectivePreference, preferenceDecider } from '../../../domain/hub/preference.decider.ts';
import { quietHoursDecider, quietHoursRelease } from '../../../domain/hub/quiet-hours.ts';
import { deciderSpec } from '../../core/decider-spec.ts';

const T = '2026-03-01T10:00:00.000Z';
const key = { RecipientId: 'C-1', Channel: 'EMAIL', NotificationClass: 'MARKETING' };

test('preferences: ALLOW/DENY per recipient, channel and class (or *); the same decision again appends nothing', () => {
  const spec = deciderSpec(preferenceDecider);
  const set = {
    type: 'PreferenceSet' as const,
    data: { ...key, Decision: 'DENY' as const, Source: 'API' as const, UpdatedAt: T },
  };
  spec.given([]).when({ type: 'SetPreference', key, Decision: 'DENY', Source: 'API', now: T }).then([set]);
  spec.given([set]).when({ type: 'SetPreference', key, Decision: 'DENY', Source: 'API', now: T }).then([]);
  spec
    .given([set])
    .when({ type: 'RemovePreference', key, now: T })
    .then([{ type: 'PreferenceRemoved', data: { ...key, At: T } }]);
  spec.given([]).when({ type: 'RemovePreference', key, now: T }).thenThrows('PREFERENCE.NOT_FOUND', 404);
  spec
    .given([])
    .when({ type: 'SetPreference', key: { ...key, Channel: 'email' }, Decision: 'DENY', Source: 'API', now: T })
    .thenThrows('PREFERENCE.INVALID', 400);
  spec
    .given([])
    .when({ type: 'SetPreference', key: { ...key, RecipientId: ' ' }, Decision: 'DENY', Source: 'API', now: T })
    .thenThrows('PREFERENCE.INVALID', 400);
  spec
    .given([])
    .when({ type: 'SetPreference', key, Decision: 'MAYBE' as 'DENY', Source: 'API', now: T })
    .thenThrows('PREFERENCE.INVALID', 400);
});

test('preferences: the effective answer (latest of class and *; else the default)', () => {
  const p = (Decision: 'ALLOW' | 'DENY', NotificationClass: string, UpdatedAt: string) => ({
    ...key,
    NotificationClass,
    Decision,
    Source: 'API' as const,
    UpdatedAt,
  });
  assert.equal(effectivePreference(null, null, false), { Allowed: false, Source: 'DEFAULT' });
  assert.equal(effectivePreference(null, null, true), { Allowed: true, Source: 'DEFAULT' });
  assert.is(effectivePreference(p('ALLOW', 'MARKETING', T), null, false).Allowed, true);
  assert.is(
    effectivePreference(p('ALLOW', 'MARKETING', '2026-01-01T00:00:00.000Z'), p('DENY', '*', T), true).Source,
    'CHANNEL',
  );
  assert.is(effectivePreference(p('ALLOW', 'MARKETING', T), p('DENY', '*', T), false).Allowed, true);
});

const optOut: InteractionInput = {
  InteractionId: 'i-1',
  Type: 'OPT_OUT',
  RecipientId: 'C-1',
  Channel: 'SMS',
  ReceivedAt: T,
};

test('interactions: RECEIVED → HANDLED or DISMISSED; resent is recorded once; other content under the id is 409', () => {
  const spec = deciderSpec(interactionDecider);
  const recorded = { type: 'InteractionRecorded' as const, data: { ...optOut, At: T } };
  spec.given([]).when({ type: 'RecordInteraction', interaction: optOut, now: T }).then([recorded]);
  spec.given([recorded]).when({ type: 'RecordInteraction', interaction: optOut, now: T }).then([]);
  spec
    .given([recorded])
    .when({ type: 'RecordInteraction', interaction: { ...optOut, Type: 'REPLY' }, now: T })
    .thenThrows('INTERACTION.EXISTS', 409);
  const handled = {
    type: 'InteractionHandled' as const,
    data: { InteractionId: 'i-1', Resolution: 'HANDLED' as const, By: 'op', At: T },
  };
  spec
    .given([recorded])
    .when({ type: 'HandleInteraction', InteractionId: 'i-1', Resolution: 'HANDLED', By: 'op', now: T })
    .then([handled]);
  spec
    .given([recorded, handled])
    .when({ type: 'HandleInteraction', InteractionId: 'i-1', Resolution: 'HANDLED', By: 'op', now: T })
    .then([]);
  spec
    .given([recorded, handled])
    .when({ type: 'HandleInteraction', InteractionId: 'i-1', Resolution: 'DISMISSED', By: 'op', now: T })
    .thenThrows('INTERACTION.STATE_CONFLICT', 409);
  spec
    .given([])
    .when({ type: 'HandleInteraction', InteractionId: 'i-1', Resolution: 'HANDLED', By: 'op', now: T })
    .thenThrows('INTERACTION.NOT_FOUND', 404);
  spec
    .given([])
    .when({ type: 'RecordInteraction', interaction: { ...optOut, Type: 'BOUNCE' as 'REPLY' }, now: T })
    .thenThrows('INTERACTION.INVALID', 400);
  spec
    .given([])
    .when({
      type: 'RecordInteraction',
      interaction: { ...optOut, Type: 'REPLY', NotificationClass: 'MARKETING' },
      now: T,
    })
    .thenThrows('INTERACTION.INVALID', 400);
  assert.is(fold(interactionDecider, [recorded, handled]).interaction!.Status, 'HANDLED');
});

test('interactions: OPT_OUT denies the channel (every class unless one is named), OPT_IN allows, a REPLY changes no consent', () => {
  assert.equal(preferenceChangeOf(optOut), {
    key: { RecipientId: 'C-1', Channel: 'SMS', NotificationClass: '*' },
    Decision: 'DENY',
  });
  assert.equal(preferenceChangeOf({ ...optOut, Type: 'OPT_IN', NotificationClass: 'MARKETING' }), {
    key: { RecipientId: 'C-1', Channel: 'SMS', NotificationClass: 'MARKETING' },
    Decision: 'ALLOW',
  });
  assert.is(preferenceChangeOf({ ...optOut, Type: 'REPLY' }), null);
});

test("frequency caps: per category or *; the class's own cap, else *", () => {
  const spec = deciderSpec(frequencyCapDecider);
  spec
    .given([])
    .when({ type: 'SaveFrequencyCap', cap: { Category: 'marketing', Limit: 3, WindowSeconds: 60 }, now: T })
    .thenThrows('FREQUENCY_CAP.INVALID', 400);
  spec
    .given([])
    .when({ type: 'SaveFrequencyCap', cap: { Category: '*', Limit: 3, WindowSeconds: 0 }, now: T })
    .thenThrows('FREQUENCY_CAP.INVALID', 400);
  spec.given([]).when({ type: 'RemoveFrequencyCap', Category: '*', now: T }).thenThrows('FREQUENCY_CAP.NOT_FOUND', 404);
  const any = { type: 'FrequencyCapSaved' as const, data: { Category: '*', Limit: 5, WindowSeconds: 86_400, At: T } };
  const mk = {
    type: 'FrequencyCapSaved' as const,
    data: { Category: 'MARKETING', Limit: 2, WindowSeconds: 3600, At: T },
  };
  spec
    .given([])
    .when({ type: 'SaveFrequencyCap', cap: { Category: '*', Limit: 5, WindowSeconds: 86_400 }, now: T })
    .then([any]);
  spec
    .given([any])
    .when({ type: 'SaveFrequencyCap', cap: { Category: '*', Limit: 5, WindowSeconds: 86_400 }, now: T })
    .then([]);
  const s = fold(frequencyCapDecider, [any, mk]);
  assert.equal(capFor(s, 'MARKETING'), { Category: 'MARKETING', Limit: 2, WindowSeconds: 3600 });
  assert.equal(capFor(s, 'TRANSACTIONAL'), { Category: '*', Limit: 5, WindowSeconds: 86_400 });
  assert.is(capFor(fold(frequencyCapDecider, [mk]), 'TRANSACTIONAL'), null);
});

const cap = { Category: 'MARKETING', Limit: 2, WindowSeconds: 3600 };
const reserve = (MessageId: string, now = T, NotificationClass = 'MARKETING', Cap = cap) => ({
  type: 'ReserveQuota' as const,
  RecipientId: 'C-1',
  MessageId,
  Channel: 'EMAIL',
  NotificationClass,
  Cap,
  now,
});
const reserved = (
  MessageId: string,
  Used: number,
  At = T,
  NotificationClass = 'MARKETING',
  Cap = cap,
  Channel = 'EMAIL',
): QuotaEvent => ({
  type: 'QuotaReserved',
  data: { RecipientId: 'C-1', MessageId, Channel, NotificationClass, Cap, Used, At },
});

test('quota: a slot per logical message; the same message again takes no new slot; the cap is never exceeded (FREQUENCY_CAP_EXCEEDED)', () => {
  const spec = deciderSpec(quotaDecider);
  spec
    .given([])
    .when(reserve('m1'))
    .then([reserved('m1', 1)]);
  spec
    .given([reserved('m1', 1)])
    .when(reserve('m1'))
    .then([]);
  // usage counts across channels: an SMS and an EMAIL message share the recipient's quota
  spec
    .given([reserved('m1', 1, T, 'MARKETING', cap, 'SMS')])
    .when(reserve('m2'))
    .then([reserved('m2', 2)]);
  spec
    .given([reserved('m1', 1), reserved('m2', 2)])
    .when(reserve('m3'))
    .thenThrows('QUOTA.EXCEEDED', 409);
  // the window slides: an hour later the first slots no longer count
  spec
    .given([reserved('m1', 1), reserved('m2', 2)])
    .when(reserve('m3', '2026-03-01T11:00:00.000Z'))
    .then([reserved('m3', 1, '2026-03-01T11:00:00.000Z')]);
  // a class cap counts its class; * counts every class
  spec
    .given([reserved('t1', 1, T, 'TRANSACTIONAL', { Category: '*', Limit: 9, WindowSeconds: 60 })])
    .when(reserve('m1'))
    .then([reserved('m1', 1)]);
  const star = { Category: '*', Limit: 2, WindowSeconds: 3600 };
  assert.is(usage(fold(quotaDecider, [reserved('m1', 1), reserved('t1', 2, T, 'TRANSACTIONAL')]), star, T), 2);
});

test('quota: a release frees the slot of an uncommitted message; releasing twice appends nothing', () => {
  const spec = deciderSpec(quotaDecider);
  const released: QuotaEvent = {
    type: 'QuotaReleased',
    data: { RecipientId: 'C-1', MessageId: 'm2', Reason: 'FAILED', At: T },
  };
  spec
    .given([reserved('m1', 1), reserved('m2', 2)])
    .when({ type: 'ReleaseQuota', RecipientId: 'C-1', MessageId: 'm2', Reason: 'FAILED', now: T })
    .then([released]);
  spec
    .given([reserved('m1', 1), reserved('m2', 2), released])
    .when({ type: 'ReleaseQuota', RecipientId: 'C-1', MessageId: 'm2', Reason: 'FAILED', now: T })
    .then([]);
  spec
    .given([reserved('m1', 1), reserved('m2', 2), released])
    .when(reserve('m3'))
    .then([reserved('m3', 2)]);
});

test('quota: committed = accepted, delivered, uncertain or lost; releasable = ended without any of these', () => {
  const base = {
    State: 'FAILED',
    FinalFailure: true,
    DeliveryUncertain: false,
    Attempts: [{ Outcome: 'REJECTED' }],
  } as unknown as Message;
  assert.is(quotaCommitted(base), false);
  assert.is(quotaReleasable(base), true);
  assert.is(
    quotaReleasable({ ...base, FinalFailure: false } as Message),
    false,
    'a pending retry keeps its slot (the retry takes no new one)',
  );
  assert.is(
    quotaReleasable({ ...base, Attempts: [{ Outcome: 'ACCEPTED', Evidence: 'FAILED' }] } as unknown as Message),
    false,
    'accepted then failed keeps it',
  );
  assert.is(
    quotaReleasable({ ...base, Attempts: [{ Outcome: 'UNCERTAIN' }] } as unknown as Message),
    false,
    'uncertain keeps it',
  );
  assert.is(quotaReleasable({ ...base, State: 'SUPPRESSED', Attempts: [] } as unknown as Message), true);
  assert.is(quotaReleasable({ ...base, State: 'DELIVERED' } as Message), false);
});

test('quiet hours: configuration per channel; overnight windows; invalid times refused', () => {
  const spec = deciderSpec(quietHoursDecider);
  spec
    .given([])
    .when({ type: 'SaveQuietHours', hours: { Channel: 'SMS', Windows: [{ Start: '22:00', End: '07:00' }] }, now: T })
    .then([{ type: 'QuietHoursSaved', data: { Channel: 'SMS', Windows: [{ Start: '22:00', End: '07:00' }], At: T } }]);
  spec
    .given([])
    .when({ type: 'SaveQuietHours', hours: { Channel: 'SMS', Windows: [{ Start: '24:00', End: '07:00' }] }, now: T })
    .thenThrows('QUIET_HOURS.INVALID', 400);
  spec
    .given([])
    .when({ type: 'SaveQuietHours', hours: { Channel: 'SMS', Windows: [{ Start: '07:00', End: '07:00' }] }, now: T })
    .thenThrows('QUIET_HOURS.INVALID', 400);
  spec
    .given([])
    .when({ type: 'SaveQuietHours', hours: { Channel: 'SMS', Windows: [] }, now: T })
    .thenThrows('QUIET_HOURS.INVALID', 400);
  spec.given([]).when({ type: 'RemoveQuietHours', Channel: 'SMS', now: T }).thenThrows('QUIET_HOURS.NOT_FOUND', 404);
});

// the clock is injected: `at` is the instant the claim happens
const night = [{ Start: '22:00', End: '07:00' }];

test('quiet hours across midnight (UTC): before midnight → 07:00 next day; after midnight → 07:00 same day; outside → none', () => {
  assert.is(quietHoursRelease(night, '2026-03-01T23:30:00.000Z', 'UTC'), '2026-03-02T07:00:00.000Z');
  assert.is(quietHoursRelease(night, '2026-03-01T22:00:00.000Z', 'UTC'), '2026-03-02T07:00:00.000Z');
  assert.is(quietHoursRelease(night, '2026-03-02T00:00:00.000Z', 'UTC'), '2026-03-02T07:00:00.000Z');
  assert.is(quietHoursRelease(night, '2026-03-02T06:59:59.999Z', 'UTC'), '2026-03-02T07:00:00.000Z');
  assert.is(quietHoursRelease(night, '2026-03-02T07:00:00.000Z', 'UTC'), null, 'End is excluded');
  assert.is(quietHoursRelease(night, '2026-03-01T21:59:59.000Z', 'UTC'), null);
  assert.is(
    quietHoursRelease(night, '2026-12-31T23:00:00.000Z', 'UTC'),
    '2027-01-01T07:00:00.000Z',
    'across the year end',
  );
});

test('quiet hours across time zones: the tenant-local window, whatever the instant in UTC', () => {
  // 21:30Z is 22:30 in Berlin (CET, +01:00): quiet until 07:00 Berlin = 06:00Z next day
  assert.is(quietHoursRelease(night, '2026-03-01T21:30:00.000Z', 'Europe/Berlin'), '2026-03-02T06:00:00.000Z');
  // the same instant is 16:30 in New York (EST, -05:00): not quiet
  assert.is(quietHoursRelease(night, '2026-03-01T21:30:00.000Z', 'America/New_York'), null);
  // 05:00Z is 00:00 in New York: quiet until 07:00 New York = 12:00Z
  assert.is(quietHoursRelease(night, '2026-03-02T05:00:00.000Z', 'America/New_York'), '2026-03-02T12:00:00.000Z');
  // Tokyo (+09:00): 14:00Z is 23:00 → 07:00 next day local = 22:00Z
  assert.is(quietHoursRelease(night, '2026-03-01T14:00:00.000Z', 'Asia/Tokyo'), '2026-03-01T22:00:00.000Z');
  // a half-hour zone: Kolkata (+05:30): 17:00Z is 22:30 → 07:00 local = 01:30Z
  assert.is(quietHoursRelease(night, '2026-03-01T17:00:00.000Z', 'Asia/Kolkata'), '2026-03-02T01:30:00.000Z');
});

test('quiet hours over a daylight-saving change: the local end, with the new offset', () => {
  // Berlin springs forward on 2026-03-29 (02:00 → 03:00): 23:00 CET on the 28th (22:00Z) → 07:00 CEST = 05:00Z
  assert.is(quietHoursRelease(night, '2026-03-28T22:00:00.000Z', 'Europe/Berlin'), '2026-03-29T05:00:00.000Z');
  // New York falls back on 2026-11-01: 23:00 EDT on Oct 31 (03:00Z) → 07:00 EST = 12:00Z
  assert.is(quietHoursRelease(night, '2026-11-01T03:00:00.000Z', 'America/New_York'), '2026-11-01T12:00:00.000Z');
});

test('quiet hours: daytime windows and windows that chain are followed to the last end', () => {
  assert.is(
    quietHoursRelease([{ Start: '12:00', End: '14:00' }], '2026-03-01T13:00:00.000Z', 'UTC'),
    '2026-03-01T14:00:00.000Z',
  );
  const chained = [
    { Start: '22:00', End: '01:00' },
    { Start: '01:00', End: '07:00' },
  ];
  assert.is(quietHoursRelease(chained, '2026-03-01T23:00:00.000Z', 'UTC'), '2026-03-02T07:00:00.000Z');
  assert.is(
    quietHoursRelease(
      [
        { Start: '00:00', End: '23:59' },
        { Start: '23:59', End: '00:00' },
      ],
      '2026-03-01T10:00:00.000Z',
      'UTC',
    ) !== null,
    true,
    'an always-quiet channel still releases (bounded)',
  );
});

test.run();
