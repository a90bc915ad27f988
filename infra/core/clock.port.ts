/** Time enters the system here only; tests inject a controllable clock. */
export type Clock = { now(): Date };

export const systemClock: Clock = { now: () => new Date() };

/** A clock tests move by hand (retry schedules, expiry) instead of sleeping. */
export function manualClock(start: Date | string = '2026-01-01T00:00:00.000Z') {
  let t = new Date(start).getTime();
  return {
    now: () => new Date(t),
    set: (d: Date | string) => void (t = new Date(d).getTime()),
    advance: (ms: number) => void (t += ms),
  };
}
