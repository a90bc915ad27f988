import type { BridgeEvent } from './model.ts';

/** A JSON value with object keys in order: the same content whatever order its keys came in. */
const canonical = (v: unknown): string => {
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  if (typeof v === 'object' && v !== null) {
    const entries = Object.entries(v as Record<string, unknown>)
      .filter(([, x]) => x !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, x]) => `${JSON.stringify(k)}:${canonical(x)}`).join(',')}}`;
  }
  return JSON.stringify(v) ?? 'null';
};

/** The fields of the canonical event whose content differs between the first event and its repeat. */
export function differingFields(first: BridgeEvent, repeat: BridgeEvent): string[] {
  const a = first as unknown as Record<string, unknown>;
  const b = repeat as unknown as Record<string, unknown>;
  return [...new Set([...Object.keys(a), ...Object.keys(b)])].filter((k) => canonical(a[k]) !== canonical(b[k])).sort();
}
