import { useEffect, useState } from 'react';
import { fieldProblems, isApiError } from '../../api/errors.ts';
import type { ConversionPreview } from './bridge-api.ts';
import { isJsonObject, parseJsonText, pretty } from './json-text.ts';

/**
 * A target's content conversion as the editor holds it (every kind's fields at once, so switching the
 * kind loses nothing), the record the API takes, and the preview of the body for the sample event.
 */
export type ConversionKind = 'complete' | 'partial' | 'constant' | 'template' | 'env';
export const CONVERSION_KINDS: ReadonlyArray<{ value: ConversionKind; label: string }> = [
  { value: 'complete', label: 'Complete event' },
  { value: 'partial', label: 'Part of the event (JSONPath)' },
  { value: 'constant', label: 'Constant' },
  { value: 'template', label: 'Template' },
  { value: 'env', label: 'Configuration value' },
];

export type ConversionDraft = {
  kind: ConversionKind;
  path: string;
  /** JSON text */
  constant: string;
  /** JSON text of an object: variable name → JSONPath or constant */
  variables: string;
  template: string;
  key: string;
};

export type ConversionRecord =
  | { kind: 'complete' }
  | { kind: 'partial'; path: string }
  | { kind: 'constant'; value: unknown }
  | { kind: 'template'; variables: Record<string, unknown>; template: string }
  | { kind: 'env'; key: string };

export const emptyConversion = (): ConversionDraft => ({
  kind: 'complete',
  path: '$.data',
  constant: '{}',
  variables: '{\n  "id": "$.id"\n}',
  template: '{"id":"${id}"}',
  key: '',
});

export function draftOf(c: unknown): ConversionDraft {
  const d = emptyConversion();
  if (!isJsonObject(c)) return d;
  switch (c.kind) {
    case 'partial':
      return { ...d, kind: 'partial', path: String(c.path ?? '') };
    case 'constant':
      return { ...d, kind: 'constant', constant: pretty(c.value ?? null) };
    case 'template':
      return { ...d, kind: 'template', variables: pretty(c.variables ?? {}), template: String(c.template ?? '') };
    case 'env':
      return { ...d, kind: 'env', key: String(c.key ?? '') };
    default:
      return d;
  }
}

/** the API's record, or the draft field that is not yet JSON */
export type Converted =
  | { ok: true; conversion: ConversionRecord }
  | { ok: false; field: 'constant' | 'variables'; message: string };

export function recordOf(d: ConversionDraft): Converted {
  switch (d.kind) {
    case 'complete':
      return { ok: true, conversion: { kind: 'complete' } };
    case 'partial':
      return { ok: true, conversion: { kind: 'partial', path: d.path } };
    case 'constant': {
      const v = parseJsonText(d.constant);
      return v.ok
        ? { ok: true, conversion: { kind: 'constant', value: v.value } }
        : { ok: false, field: 'constant', message: `Not JSON: ${v.message}` };
    }
    case 'template': {
      const v = parseJsonText(d.variables);
      if (!v.ok) return { ok: false, field: 'variables', message: `Not JSON: ${v.message}` };
      if (!isJsonObject(v.value)) return { ok: false, field: 'variables', message: 'The variables are a JSON object.' };
      return { ok: true, conversion: { kind: 'template', variables: v.value, template: d.template } };
    }
    case 'env':
      return { ok: true, conversion: { kind: 'env', key: d.key } };
    default:
      return d.kind satisfies never;
  }
}

export type PreviewFn = (
  conversion: ConversionRecord,
  event: Record<string, unknown>,
  signal: AbortSignal,
) => Promise<ConversionPreview>;

export type PreviewState =
  | { status: 'waiting'; why: string }
  | { status: 'rendering' }
  | { status: 'ok'; body: string; missing: string[] }
  | { status: 'fails'; error: string }
  | { status: 'refused'; code: string; message: string; fields: Array<{ field: string; message: string }> };

/** the body as a receiver sees it: a string as it is, anything else as JSON */
export const bodyText = (body: unknown): string => (typeof body === 'string' ? body : pretty(body));

/** The preview of the converted body, asked of the API (debounced, the latest input winning). */
export function useConversionPreview(
  converted: Converted,
  event: Record<string, unknown> | null,
  preview: PreviewFn,
  delayMs = 300,
): PreviewState {
  const [state, setState] = useState<PreviewState>({ status: 'rendering' });
  const conversionKey = converted.ok ? JSON.stringify(converted.conversion) : null;
  const eventKey = event === null ? null : JSON.stringify(event);
  const notReady = converted.ok ? null : converted.message;
  useEffect(() => {
    if (conversionKey === null) {
      setState({ status: 'waiting', why: notReady ?? 'The conversion is incomplete.' });
      return;
    }
    if (eventKey === null) {
      setState({ status: 'waiting', why: 'The sample event must be a JSON object.' });
      return;
    }
    setState({ status: 'rendering' });
    const abort = new AbortController();
    const timer = setTimeout(() => {
      preview(JSON.parse(conversionKey), JSON.parse(eventKey), abort.signal).then(
        (r) => {
          if (abort.signal.aborted) return;
          setState(
            r.ok ? { status: 'ok', body: bodyText(r.body), missing: r.missing } : { status: 'fails', error: r.error },
          );
        },
        (e: unknown) => {
          if (abort.signal.aborted) return;
          setState(
            isApiError(e)
              ? { status: 'refused', code: e.code, message: e.message, fields: fieldProblems(e.details) }
              : { status: 'refused', code: 'PORTAL.ERROR', message: String(e), fields: [] },
          );
        },
      );
    }, delayMs);
    return () => {
      clearTimeout(timer);
      abort.abort();
    };
  }, [conversionKey, eventKey, notReady, preview, delayMs]);
  return state;
}
