import type { HttpClient, HttpRequest, HttpResponse } from '../core/http-client.port.ts';

/**
 * The HttpClient port on Node's fetch (undici): the platform's only way out over HTTP (bridge targets,
 * OAuth token fetches, hub webhooks).
 *
 * - Every status resolves (a 500 is an answer, not an error); network errors, timeouts and aborts reject.
 * - Redirects are never followed (`redirect: 'manual'`): a 3xx comes back as it is, with its `location`
 *   header, and callers treat it as a failure. Following it silently could send an event, or a bearer
 *   token, to a host nobody configured.
 * - The body is read as text, at most `maxBodyBytes` (default 1 MiB; the rest is dropped and the
 *   connection closed): a peer answering endlessly cannot exhaust memory. Header names are lower case.
 * - The request's AbortSignal covers the whole exchange, the body included.
 *
 * Rejections are Errors whose message names the cause (`fetch failed: connect ECONNREFUSED 127.0.0.1:9`, `aborted:
 * timed out after 5000 ms`); an abort keeps the name `AbortError` or `TimeoutError`.
 */
export type HttpClientOptions = {
  /** largest response body kept, in bytes (default 1 MiB) */
  maxBodyBytes?: number;
};

export const DEFAULT_MAX_BODY_BYTES = 1024 * 1024;

export function createHttpClient(options: HttpClientOptions = {}): HttpClient {
  const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;

  async function send(request: HttpRequest): Promise<HttpResponse> {
    const { signal } = request;
    let res: Response;
    try {
      res = await fetch(request.url, {
        method: request.method.toUpperCase(),
        ...(request.headers !== undefined && { headers: request.headers }),
        ...(request.body !== undefined && { body: request.body }),
        redirect: 'manual',
        ...(signal !== undefined && { signal }),
      });
    } catch (err) {
      throw describe(err, signal);
    }
    const headers: Record<string, string> = {};
    // Headers iterate with lower-case names; repeated headers come joined by ", " (set-cookie aside)
    res.headers.forEach((value, name) => {
      headers[name] = value;
    });
    let body: string;
    try {
      body = await readText(res, maxBodyBytes);
    } catch (err) {
      throw describe(err, signal);
    }
    return { status: res.status, headers, body };
  }

  return { send };
}

/** The body as UTF-8 text, cut at `max` bytes (the stream is cancelled then). */
async function readText(res: Response, max: number): Promise<string> {
  if (res.body === null) return '';
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    const room = max - size;
    if (value.byteLength >= room) {
      chunks.push(value.subarray(0, room));
      size = max;
      await reader.cancel().catch(() => undefined);
      break;
    }
    chunks.push(value);
    size += value.byteLength;
  }
  // a multi-byte character cut at the limit decodes to U+FFFD: acceptable for a capped body
  return Buffer.concat(chunks, size).toString('utf8');
}

/** A readable Error from what fetch threw: undici hides the socket error in `cause`. */
function describe(err: unknown, signal: AbortSignal | undefined): Error {
  if (signal?.aborted) {
    const reason: unknown = signal.reason;
    const name = reason instanceof Error ? reason.name : 'AbortError';
    const why = reason instanceof Error ? reason.message : reason === undefined ? 'aborted' : String(reason);
    const e = new Error(`aborted: ${why}`, { cause: err });
    e.name = name === 'TimeoutError' ? 'TimeoutError' : 'AbortError';
    return e;
  }
  if (err instanceof Error) {
    const cause = (err as { cause?: unknown }).cause;
    const detail = cause instanceof Error ? cause.message : undefined;
    const e = new Error(detail !== undefined && detail !== '' && detail !== err.message ? `${err.message}: ${detail}` : err.message, { cause: err });
    if (err.name === 'AbortError' || err.name === 'TimeoutError') e.name = err.name;
    return e;
  }
  return new Error(String(err));
}
