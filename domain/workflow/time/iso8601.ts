/**
 * ISO 8601 for BPMN timers: durations (`PT10M`, `P1DT2H`, `P2W`), dates (`2026-03-01T10:00:00Z`; without an
 * offset: UTC) and simple cycles (`R3/PT1H`, `R/PT10M`: a repetition count, unbounded when absent, and a
 * duration). Pure arithmetic on instants given as ISO strings; years and months move on the UTC calendar.
 */

export type Duration = {
  years: number;
  months: number;
  weeks: number;
  days: number;
  hours: number;
  minutes: number;
  seconds: number;
};
export type Cycle = { repetitions: number | null; interval: Duration };

const DURATION =
  /^(-)?P(?:(\d+(?:[.,]\d+)?)Y)?(?:(\d+(?:[.,]\d+)?)M)?(?:(\d+(?:[.,]\d+)?)W)?(?:(\d+(?:[.,]\d+)?)D)?(?:T(?:(\d+(?:[.,]\d+)?)H)?(?:(\d+(?:[.,]\d+)?)M)?(?:(\d+(?:[.,]\d+)?)S)?)?$/;

const num = (s: string | undefined) => (s === undefined ? 0 : Number(s.replace(',', '.')));

export function parseDuration(text: string): Duration | null {
  const t = text.trim();
  const m = DURATION.exec(t);
  if (m === null || t === 'P' || t.endsWith('T') || m[1] === '-') return null;
  return {
    years: num(m[2]),
    months: num(m[3]),
    weeks: num(m[4]),
    days: num(m[5]),
    hours: num(m[6]),
    minutes: num(m[7]),
    seconds: num(m[8]),
  };
}

/** `instant` plus `d`, as an ISO instant */
export function addDuration(instant: string, d: Duration): string {
  const date = new Date(instant);
  if (d.years !== 0 || d.months !== 0) {
    const whole = Math.trunc(d.years * 12 + d.months);
    date.setUTCMonth(date.getUTCMonth() + whole);
  }
  const ms = ((d.weeks * 7 + d.days) * 86_400 + d.hours * 3_600 + d.minutes * 60 + d.seconds) * 1000;
  return new Date(date.getTime() + Math.round(ms)).toISOString();
}

const DATE_TIME = /^\d{4}-\d{2}-\d{2}(?:T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?)?(?:Z|[+-]\d{2}:?\d{2})?$/;

/** an ISO date or date-time (no offset: UTC) as an ISO instant, or null */
export function parseDateTime(text: string): string | null {
  const t = text.trim();
  if (!DATE_TIME.test(t)) return null;
  const hasOffset = /(?:Z|[+-]\d{2}:?\d{2})$/.test(t) && t.includes('T');
  const iso = t.includes('T') ? (hasOffset ? t : `${t}Z`) : `${t}T00:00:00Z`;
  const ms = Date.parse(iso.replace(/([+-]\d{2})(\d{2})$/, '$1:$2'));
  return Number.isNaN(ms) ? null : new Date(ms).toISOString();
}

export function parseCycle(text: string): Cycle | null {
  const m = /^R(\d*)\/(P[^/]+)$/.exec(text.trim());
  if (m === null) return null;
  const interval = parseDuration(m[2]!);
  if (interval === null) return null;
  return { repetitions: m[1] === '' ? null : Number(m[1]), interval };
}

/** ISO 8601 local date-time of an instant in UTC (`2026-03-01T10:00:00.000`): the spec's date format */
export const localDateTime = (instant: string): string => new Date(instant).toISOString().slice(0, 23);
