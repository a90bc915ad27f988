/** Global positions: zero-padded decimal strings, compared as text. */
export const POSITION_DIGITS = 20;
export const START = '0'.repeat(POSITION_DIGITS);

export function toPosition(n: number | bigint): string {
  return n.toString().padStart(POSITION_DIGITS, '0');
}

/** The leading 20-digit number of a position (an event count on SQLite, a log offset on EventStoreDB). */
export function positionValue(position: string): number {
  return Number(position.slice(0, POSITION_DIGITS));
}

export const maxPosition = (a: string, b: string) => (a > b ? a : b);
