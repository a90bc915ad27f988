import type { PublicJwk } from '../../domain/identity/model.ts';

/* Reading admin request bodies (already validated against their schemas) into command inputs. */

export type Body = Record<string, unknown>;

/** `a, b` or `['a', 'b']` → ['a', 'b']; a list of one empty string is no list */
export const splitList = (v: unknown): string[] | undefined => {
  if (v === undefined) return undefined;
  const items = Array.isArray(v) ? (v as string[]) : String(v).split(',');
  return items.map((s) => s.trim()).filter((s) => s.length > 0);
};

/** a redirect URL string is one URL (a URL may hold a comma); an array is several */
export const urlList = (v: unknown): string[] | undefined => {
  if (v === undefined) return undefined;
  return (Array.isArray(v) ? (v as string[]) : [String(v)]).map((s) => s.trim()).filter((s) => s.length > 0);
};

/** `[jwk, …]` or `{keys: [jwk, …]}` → the list of keys */
export const jwksList = (v: unknown): PublicJwk[] | undefined => {
  if (v === undefined || v === null) return undefined;
  return Array.isArray(v) ? (v as PublicJwk[]) : (v as { keys: PublicJwk[] }).keys;
};

/** drops the fields a request left out, so commands see absent rather than undefined */
export const defined = <T extends Record<string, unknown>>(o: T): T =>
  Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;
