/** Outbound HTTP (bridge targets, hub webhooks, OAuth token fetches): the platform's only way out. */
export type HttpRequest = {
  method: string;
  url: string;
  headers?: Record<string, string>;
  body?: string;
  /** aborts the call (the per-call timeout) */
  signal?: AbortSignal;
};

export type HttpResponse = { status: number; headers: Record<string, string>; body: string };

export type HttpClient = {
  /** resolves for every HTTP status; rejects on network errors, timeouts and aborts */
  send(request: HttpRequest): Promise<HttpResponse>;
};
