import { useEffect, useState } from 'react';
import { isApiError } from '../../api/errors.ts';
import { locateJsonPath, type Span } from '../../ui/json-locate.ts';
import { isJsonObject, parseJsonText } from './json-text.ts';

/**
 * The pattern editor's state, checked as the user types: the text's JSON first (in the browser), then the
 * pattern itself through the API's own validation (test-pattern), debounced, the latest text winning. A
 * refusal keeps the API's code and message, and where the API names a path, the span of it in the text.
 */
export type PatternCheck =
  | { status: 'empty' }
  | { status: 'checking' }
  | { status: 'valid'; pattern: Record<string, unknown> }
  | { status: 'syntax'; message: string; span: Span }
  | { status: 'invalid'; code: string; message: string; span: Span | null }
  | { status: 'unavailable'; code: string; message: string };

/** asks the API about a pattern: resolves when it accepts it, throws its ApiError otherwise */
export type ValidatePattern = (pattern: unknown, signal: AbortSignal) => Promise<void>;

export const CHECK_DELAY_MS = 300;

export function usePatternCheck(text: string, validate: ValidatePattern, delayMs = CHECK_DELAY_MS): PatternCheck {
  const [state, setState] = useState<PatternCheck>({ status: 'checking' });
  useEffect(() => {
    if (text.trim() === '') {
      setState({ status: 'empty' });
      return;
    }
    const parsed = parseJsonText(text);
    if (!parsed.ok) {
      setState({ status: 'syntax', message: parsed.message, span: parsed.span });
      return;
    }
    if (!isJsonObject(parsed.value)) {
      setState({ status: 'syntax', message: 'A pattern is a JSON object.', span: { from: 0, to: text.length } });
      return;
    }
    const pattern = parsed.value;
    setState({ status: 'checking' });
    const abort = new AbortController();
    const timer = setTimeout(() => {
      validate(pattern, abort.signal).then(
        () => {
          if (!abort.signal.aborted) setState({ status: 'valid', pattern });
        },
        (e: unknown) => {
          if (abort.signal.aborted) return;
          setState(refusal(text, e));
        },
      );
    }, delayMs);
    return () => {
      clearTimeout(timer);
      abort.abort();
    };
  }, [text, validate, delayMs]);
  return state;
}

function refusal(text: string, e: unknown): PatternCheck {
  if (!isApiError(e)) return { status: 'unavailable', code: 'PORTAL.ERROR', message: String(e) };
  if (e.status !== 400) return { status: 'unavailable', code: e.code, message: e.message };
  const path = isJsonObject(e.details) && typeof e.details.path === 'string' ? e.details.path : null;
  return {
    status: 'invalid',
    code: e.code,
    message: e.message,
    span: path === null ? null : locateJsonPath(text, path),
  };
}
