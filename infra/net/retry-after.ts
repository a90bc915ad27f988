/**
 * `Retry-After` (RFC 9110 10.2.3) of a 429 or 503: delay-seconds, or an HTTP date (IMF-fixdate, and the
 * obsolete RFC 850 and asctime forms recipients must accept). Answers the wait in ms from `nowMs`, 0 for a
 * date already past, capped (default 1 hour: a peer cannot park a delivery for days), or undefined when
 * the value is none of these.
 */
export const MAX_RETRY_AFTER_MS = 3_600_000;

const IMF_FIXDATE = /^[A-Za-z]{3}, \d{2} [A-Za-z]{3} \d{4} \d{2}:\d{2}:\d{2} GMT$/;
const RFC850 = /^[A-Za-z]{6,9}, \d{2}-[A-Za-z]{3}-\d{2} \d{2}:\d{2}:\d{2} GMT$/;
const ASCTIME = /^[A-Za-z]{3} [A-Za-z]{3} [ \d]\d \d{2}:\d{2}:\d{2} \d{4}$/;

function httpDate(v: string): number {
  if (IMF_FIXDATE.test(v) || RFC850.test(v)) return Date.parse(v);
  // asctime carries no zone: it is GMT
  if (ASCTIME.test(v)) return Date.parse(`${v.replace(/ {2}/, ' ')} GMT`);
  return Number.NaN;
}

export function parseRetryAfter(
  value: string | undefined,
  nowMs: number,
  capMs: number = MAX_RETRY_AFTER_MS,
): number | undefined {
  if (value === undefined) return undefined;
  const v = value.trim();
  if (/^\d+$/.test(v)) return Math.min(Number(v) * 1000, capMs);
  const at = httpDate(v);
  if (!Number.isFinite(at)) return undefined;
  return Math.min(Math.max(at - nowMs, 0), capMs);
}
