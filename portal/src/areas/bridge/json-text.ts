import type { Span } from '../../ui/json-locate.ts';

/** JSON typed by a person: its value, or where and why it does not parse (the browser's own message). */
export type JsonText = { ok: true; value: unknown } | { ok: false; message: string; span: Span };

export function parseJsonText(text: string): JsonText {
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch (e) {
    const message = e instanceof Error ? e.message : String(e);
    const at = /position (\d+)/.exec(message);
    const from = at === null ? Math.max(0, text.length - 1) : Number(at[1]);
    return { ok: false, message, span: { from, to: Math.min(text.length, from + 1) } };
  }
}

export const isJsonObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** JSON for an editor: two spaces, as people read it */
export const pretty = (v: unknown): string => JSON.stringify(v, null, 2);
