/**
 * Times of the send request (spec: SendAt and ExpiresAt are "ISO 8601 local or offset date-times; offsets
 * are converted to the tenant timezone"). A local date-time is read in the tenant's time zone; one with an
 * offset (or `Z`) is that instant. The hub keeps instants (UTC ISO) and shows them as the tenant's local
 * date-time with its offset (`2026-03-01T10:00:00.000+01:00`). A local time that a daylight-saving jump
 * skips is read with the offset in force before the jump; one that occurs twice, the first.
 */
const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(Z|[+-]\d{2}:\d{2})?$/;

const formatters = new Map<string, Intl.DateTimeFormat>();
function formatter(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone);
  if (f === undefined) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    formatters.set(timeZone, f);
  }
  return f;
}

export function isTimeZone(timeZone: string): boolean {
  try {
    formatter(timeZone);
    return true;
  } catch {
    return false;
  }
}

/** the zone's offset from UTC at `ms`, in ms (east positive) */
export function zoneOffsetMs(ms: number, timeZone: string): number {
  const parts: Record<string, number> = {};
  for (const p of formatter(timeZone).formatToParts(new Date(ms)))
    if (p.type !== 'literal') parts[p.type] = Number(p.value);
  const asUtc = Date.UTC(parts.year!, parts.month! - 1, parts.day!, parts.hour!, parts.minute!, parts.second!);
  return asUtc - (ms - (((ms % 1000) + 1000) % 1000));
}

/** the instant (UTC ISO) of `value` read in `timeZone`; null when it is not an ISO date-time */
export function parseDateTime(value: string, timeZone: string): string | null {
  const m = DATE_TIME.exec(value);
  if (m === null) return null;
  const [, y, mo, d, h, mi, s = '0', frac = '0', zone] = m;
  const ms = Math.floor(Number(`0.${frac}`) * 1000);
  const wall = Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s), ms);
  const check = new Date(wall);
  if (
    check.getUTCMonth() !== Number(mo) - 1 ||
    check.getUTCDate() !== Number(d) ||
    Number(h) > 23 ||
    Number(mi) > 59 ||
    Number(s) > 59
  )
    return null;
  if (zone !== undefined) {
    const offset =
      zone === 'Z'
        ? 0
        : (zone[0] === '-' ? -1 : 1) * (Number(zone.slice(1, 3)) * 60 + Number(zone.slice(4, 6))) * 60_000;
    return new Date(wall - offset).toISOString();
  }
  // the offsets around that wall time: a valid reading has the offset in force at the instant it names
  const before = wall - zoneOffsetMs(wall - 86_400_000, timeZone);
  const after = wall - zoneOffsetMs(wall + 86_400_000, timeZone);
  const valid = [before, after].filter((c) => zoneOffsetMs(c, timeZone) === wall - c).sort((a, b) => a - b);
  return new Date(valid[0] ?? before).toISOString();
}

const pad = (n: number, w = 2) => String(Math.abs(n)).padStart(w, '0');

/** the tenant's local date-time of an instant, with its offset */
export function toLocal(instant: string, timeZone: string): string {
  const ms = Date.parse(instant);
  const offset = zoneOffsetMs(ms, timeZone);
  const local = new Date(ms + offset);
  const minutes = Math.round(offset / 60_000);
  const sign = minutes < 0 ? '-' : '+';
  return `${local.getUTCFullYear()}-${pad(local.getUTCMonth() + 1)}-${pad(local.getUTCDate())}T${pad(local.getUTCHours())}:${pad(local.getUTCMinutes())}:${pad(local.getUTCSeconds())}.${pad(local.getUTCMilliseconds(), 3)}${sign}${pad(Math.floor(Math.abs(minutes) / 60))}:${pad(Math.abs(minutes) % 60)}`;
}
