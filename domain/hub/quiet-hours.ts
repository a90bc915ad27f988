import type { Decider } from '../core/decider.ts';
import { streamName } from '../core/stream-name.ts';
import { CHANNEL_CODE } from './config.model.ts';
import { hubError, type Violation } from './hub.errors.ts';
import { parseDateTime, zoneOffsetMs } from './local-time.ts';

/**
 * Quiet hours (spec "Dispatch gate": "Quiet hours are tenant-local channel windows, including overnight
 * windows; they keep initial work SCHEDULED and keep retries FAILED with a later due time"): the tenant's
 * windows per channel, one aggregate per tenant (`hubQuietHours-<tenant>.windows`). A window is a daily
 * local time span `Start`–`End` (`HH:mm`, End excluded) in the tenant's time zone (`comm-hub.time-zone`);
 * Start after End is an overnight window (22:00–07:00 runs from 22:00 to 07:00 the next morning).
 */
export const QUIET_HOURS_CATEGORY = 'hubQuietHours';
export const quietHoursStream = (tenant: string) => streamName(QUIET_HOURS_CATEGORY, tenant, 'windows');

export type QuietWindow = { Start: string; End: string };
export type ChannelQuietHours = { Channel: string; Windows: QuietWindow[] };

export type QuietHoursEvent =
  | { type: 'QuietHoursSaved'; data: ChannelQuietHours & { At: string } }
  | { type: 'QuietHoursRemoved'; data: { Channel: string; At: string } };
export type QuietHoursCommand =
  | { type: 'SaveQuietHours'; hours: ChannelQuietHours; now: string }
  | { type: 'RemoveQuietHours'; Channel: string; now: string };
export type QuietHoursState = { channels: Record<string, ChannelQuietHours & { UpdatedAt: string }> };

const HHMM = /^([01]\d|2[0-3]):([0-5]\d)$/;
const minutesOf = (hhmm: string) => {
  const m = HHMM.exec(hhmm)!;
  return Number(m[1]) * 60 + Number(m[2]);
};

export function checkQuietHours(h: ChannelQuietHours): Violation[] {
  const out: Violation[] = [];
  if (typeof h.Channel !== 'string' || !CHANNEL_CODE.test(h.Channel))
    out.push({ field: 'Channel', message: 'must be a channel code [A-Z][A-Z0-9_]{0,39}' });
  if (!Array.isArray(h.Windows) || h.Windows.length === 0 || h.Windows.length > 10) {
    out.push({ field: 'Windows', message: 'must hold 1 to 10 windows' });
    return out;
  }
  h.Windows.forEach((w, i) => {
    if (typeof w?.Start !== 'string' || !HHMM.test(w.Start))
      out.push({ field: `Windows[${i}].Start`, message: 'must be a local time HH:mm' });
    if (typeof w?.End !== 'string' || !HHMM.test(w.End))
      out.push({ field: `Windows[${i}].End`, message: 'must be a local time HH:mm' });
    if (w?.Start === w?.End) out.push({ field: `Windows[${i}]`, message: 'Start and End must differ' });
  });
  return out;
}

export const quietHoursDecider: Decider<QuietHoursCommand, QuietHoursEvent, QuietHoursState> = {
  initialState: () => ({ channels: {} }),
  evolve(state, e) {
    switch (e.type) {
      case 'QuietHoursSaved': {
        const { At, ...hours } = e.data;
        return { channels: { ...state.channels, [hours.Channel]: { ...hours, UpdatedAt: At } } };
      }
      case 'QuietHoursRemoved': {
        const { [e.data.Channel]: _gone, ...rest } = state.channels;
        return { channels: rest };
      }
    }
  },
  decide(c, state) {
    switch (c.type) {
      case 'SaveQuietHours': {
        const bad = checkQuietHours(c.hours);
        if (bad.length > 0)
          throw hubError('QUIET_HOURS.INVALID', bad.map((v) => `${v.field} ${v.message}`).join('; '), bad);
        const windows = c.hours.Windows.map((w) => ({ Start: w.Start, End: w.End }));
        const old = state.channels[c.hours.Channel];
        if (old !== undefined && JSON.stringify(old.Windows) === JSON.stringify(windows)) return [];
        return [{ type: 'QuietHoursSaved', data: { Channel: c.hours.Channel, Windows: windows, At: c.now } }];
      }
      case 'RemoveQuietHours':
        if (state.channels[c.Channel] === undefined)
          throw hubError('QUIET_HOURS.NOT_FOUND', `no quiet hours for channel ${c.Channel}`, { Channel: c.Channel });
        return [{ type: 'QuietHoursRemoved', data: { Channel: c.Channel, At: c.now } }];
    }
  },
};

const pad = (n: number) => String(n).padStart(2, '0');

/** the instant at which the local wall time `hhmm` next occurs on the local day `dayOffset` days after `localDay` */
function instantAt(
  localDay: { y: number; mo: number; d: number },
  dayOffset: number,
  hhmm: string,
  timeZone: string,
): string {
  const day = new Date(Date.UTC(localDay.y, localDay.mo - 1, localDay.d + dayOffset));
  return parseDateTime(
    `${day.getUTCFullYear()}-${pad(day.getUTCMonth() + 1)}-${pad(day.getUTCDate())}T${hhmm}`,
    timeZone,
  )!;
}

/** the end of the window `w` that `at` lies in, or null */
function windowEnd(w: QuietWindow, at: string, timeZone: string): string | null {
  const ms = Date.parse(at);
  const local = new Date(ms + zoneOffsetMs(ms, timeZone));
  const day = { y: local.getUTCFullYear(), mo: local.getUTCMonth() + 1, d: local.getUTCDate() };
  const t =
    local.getUTCHours() * 60 + local.getUTCMinutes() + local.getUTCSeconds() / 60 + local.getUTCMilliseconds() / 60_000;
  const s = minutesOf(w.Start);
  const e = minutesOf(w.End);
  if (s < e) return t >= s && t < e ? instantAt(day, 0, w.End, timeZone) : null;
  // overnight: from Start to midnight, and from midnight to End
  if (t >= s) return instantAt(day, 1, w.End, timeZone);
  if (t < e) return instantAt(day, 0, w.End, timeZone);
  return null;
}

/**
 * When quiet hours release a message due at `at`: null when `at` lies in no window; else the end of the
 * window it lies in, followed through windows that start where another ends (22:00–01:00 and 01:00–07:00
 * release at 07:00). Daylight-saving jumps: a window end that the clock skips is read with the offset in
 * force before the jump (local-time.ts parseDateTime).
 */
export function quietHoursRelease(windows: readonly QuietWindow[], at: string, timeZone: string): string | null {
  let release: string | null = null;
  let probe = at;
  for (let i = 0; i <= windows.length; i++) {
    const ends = windows.map((w) => windowEnd(w, probe, timeZone)).filter((x): x is string => x !== null && x > probe);
    if (ends.length === 0) break;
    probe = ends.sort().at(-1)!;
    release = probe;
  }
  return release;
}
