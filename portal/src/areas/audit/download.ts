import { API_BASE } from '../../api/client.ts';
import { toApiError } from '../../api/errors.ts';

export type Progress = { bytes: number; rows: number };

/**
 * A streamed download through the portal's proxy: fetch, read the body chunk by chunk (reporting the bytes,
 * and for text the lines, received so far), then hand the whole as a Blob to the browser's download. The
 * signal cancels it. A refusal throws the API's error.
 */
export async function download(
  path: string,
  init: { method: 'GET' | 'POST'; body?: unknown; fallbackName: string; signal: AbortSignal },
  onProgress: (p: Progress) => void,
): Promise<{ name: string; bytes: number; rows: number }> {
  const res = await fetch(`${API_BASE}${path}`, {
    method: init.method,
    credentials: 'same-origin',
    headers: {
      'x-portal': '1',
      ...(init.body !== undefined && { 'content-type': 'application/json' }),
    },
    ...(init.body !== undefined && { body: JSON.stringify(init.body) }),
    signal: init.signal,
  });
  if (!res.ok) throw toApiError(res.status, await res.json().catch(() => null));
  const type = res.headers.get('content-type') ?? 'application/octet-stream';
  const name = /filename="?([^";]+)"?/.exec(res.headers.get('content-disposition') ?? '')?.[1] ?? init.fallbackName;
  const text = type.startsWith('text/');
  const chunks: Uint8Array[] = [];
  let bytes = 0;
  let lines = 0;
  const reader = res.body!.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    bytes += value.byteLength;
    if (text) for (const b of value) if (b === 10) lines++;
    onProgress({ bytes, rows: Math.max(0, lines - 1) });
  }
  const blob = new Blob(chunks as BlobPart[], { type });
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  // the browser has taken the file once the click is handled
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
  return { name, bytes, rows: Math.max(0, lines - 1) };
}

export const sizeText = (bytes: number): string =>
  bytes < 1024
    ? `${bytes} B`
    : bytes < 1024 * 1024
      ? `${(bytes / 1024).toFixed(1)} KB`
      : `${(bytes / 1048576).toFixed(1)} MB`;
