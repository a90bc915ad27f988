/**
 * The incident view's selection in the URL (`?correlation=…`, `?stream=…`, `?from=…&to=…&category=…`), so a
 * link reproduces a timeline and the timeline's correlation ids open their own.
 */
export type IncidentSearch = { correlation?: string; stream?: string; from?: string; to?: string; category?: string };

const KEYS = ['correlation', 'stream', 'from', 'to', 'category'] as const;

export function incidentSearchOf(s: Record<string, unknown>): IncidentSearch {
  const out: IncidentSearch = {};
  for (const k of KEYS) {
    const v = s[k];
    if (typeof v === 'string' && v !== '') out[k] = v;
  }
  return out;
}

/** whether the URL names a selection (the API judges whether it is a good one) */
export const hasSelection = (s: IncidentSearch): boolean => KEYS.some((k) => s[k] !== undefined);
