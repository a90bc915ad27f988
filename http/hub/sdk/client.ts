import type { Acknowledgement, ReceiptStatus } from '../../../domain/hub/notification.model.ts';
import type { SendRequestInput } from '../../../domain/hub/send-request.ts';
import { MESSAGE_PATH, MESSAGE_TIMELINE_PATH, RECEIPT_PATH, SEND_PATH, SEND_REQUEST_PATH } from '../hub.paths.ts';

/**
 * The notification hub's TypeScript SDK: send, and follow what happened. Depends on nothing but
 * `fetch` and the hub's paths, so an application can import it alone.
 *
 *   const hub = createConnectHubClient({ resolveApp: (app) => registry[app], getToken });
 *   const { status, acknowledgement } = await hub.send({ RequestId: 'order-4711', NotificationCode: 'policy-confirmation', Payload });
 *   const progress = await hub.sendRequest({ requestId: 'order-4711' });
 *
 * The client targets the application `connect-hub` (spec: the SDK targets `connect-hub` by default,
 * overridable with the property `comm-hub.app.name`): `appName`, else the environment's
 * COMM_HUB_APP_NAME (the property's environment spelling), else `connect-hub`, resolved to a base URL by
 * `resolveApp` (service discovery), or `baseUrl` when given. `send` answers 201 (accepted) or 200 (an
 * equivalent replay of the RequestId: the stored acknowledgement); every other status throws
 * ConnectHubError with the hub's {code, message, details} (409 SEND.REQUEST_CONFLICT, 404, 422 …).
 */
export const DEFAULT_APP_NAME = 'connect-hub';

export type { Acknowledgement, SendRequestInput as SendRequest };

export type ConnectHubClientOptions = {
  /** scheme, host and port of the hub (no path); or give resolveApp */
  baseUrl?: string;
  /** the application to target (default COMM_HUB_APP_NAME, else connect-hub) */
  appName?: string;
  /** service discovery: the base URL of an application */
  resolveApp?: (appName: string) => string | Promise<string>;
  /** a fixed access token (scope hub:send) … */
  token?: string;
  /** … or a function answering a current one (called before each request; cache in it) */
  getToken?: () => Promise<string> | string;
  fetch?: typeof fetch;
};

export type MessageSummary = {
  MessageId: string;
  RuleId: string;
  Role: string;
  Channel: string;
  State: string;
  Reason?: string;
  DeliveryUncertain: boolean;
  TrackingCompleted: boolean;
  Attempts: number;
  NextRetryTime?: string;
  ReceiptDeadline?: string;
  LastError?: string;
  ProviderRef?: string;
  UpdatedAt: string;
};

export type SendRequestProgress = {
  NotificationId: string;
  RequestId: string;
  NotificationCode: string;
  DefinitionId: string;
  SnapshotId: string;
  AcceptedAt: string;
  SendAt?: string;
  ExpiresAt?: string;
  /** nothing pending and nothing uncertain */
  Completed: boolean;
  Counts: Record<string, number>;
  Uncertain: number;
  Messages: MessageSummary[];
  Payload: Record<string, unknown>;
  Acknowledgement: Acknowledgement;
};

export type TimelineEntry = {
  Revision: number;
  Type: string;
  At: string;
  Actor?: string;
  Data: Record<string, unknown>;
};

export type ConnectHubClient = {
  readonly appName: string;
  send(request: SendRequestInput): Promise<{ status: 201 | 200; acknowledgement: Acknowledgement }>;
  sendRequest(by: { requestId: string } | { notificationId: string }): Promise<SendRequestProgress>;
  message(messageId: string): Promise<MessageSummary & Record<string, unknown>>;
  timeline(
    messageId: string,
  ): Promise<{ MessageId: string; NotificationId: string; State: string; Events: TimelineEntry[] }>;
  /** for receivers: report evidence for the attempt a CallbackId names (no token needed) */
  receipt(
    callbackId: string,
    receipt: { Status: ReceiptStatus; ProviderRef?: string; Retryable?: boolean },
  ): Promise<{ Applied: boolean; MessageId: string; State: string; Ignored?: string }>;
};

export class ConnectHubError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details: unknown,
  ) {
    super(message);
    this.name = 'ConnectHubError';
  }
}

export function createConnectHubClient(options: ConnectHubClientOptions): ConnectHubClient {
  const appName =
    options.appName ?? (typeof process !== 'undefined' ? process.env.COMM_HUB_APP_NAME : undefined) ?? DEFAULT_APP_NAME;
  if (options.baseUrl === undefined && options.resolveApp === undefined)
    throw new Error('createConnectHubClient: give baseUrl or resolveApp');
  const doFetch = options.fetch ?? globalThis.fetch;
  const base = async () => (options.baseUrl ?? (await options.resolveApp!(appName))).replace(/\/+$/, '');
  const token = async () => options.token ?? (options.getToken === undefined ? undefined : await options.getToken());

  async function call<T>(
    method: string,
    path: string,
    o: { body?: unknown; headers?: Record<string, string>; auth?: boolean } = {},
  ): Promise<{ status: number; body: T }> {
    const bearer = o.auth === false ? undefined : await token();
    const res = await doFetch(`${await base()}${path}`, {
      method,
      headers: {
        accept: 'application/json',
        ...(bearer !== undefined && { authorization: `Bearer ${bearer}` }),
        ...(o.body !== undefined && { 'content-type': 'application/json' }),
        ...o.headers,
      },
      ...(o.body !== undefined && { body: JSON.stringify(o.body) }),
    });
    const text = await res.text();
    let parsed: unknown;
    try {
      parsed = text === '' ? undefined : JSON.parse(text);
    } catch {
      parsed = undefined;
    }
    if (!res.ok) {
      const p = (parsed ?? {}) as { code?: string; message?: string; details?: unknown };
      throw new ConnectHubError(
        res.status,
        p.code ?? `HTTP_${res.status}`,
        p.message ?? (text.slice(0, 300) || res.statusText),
        p.details ?? null,
      );
    }
    return { status: res.status, body: parsed as T };
  }
  const q = (params: Record<string, string>) => `?${new URLSearchParams(params).toString()}`;

  return {
    appName,
    async send(request) {
      const r = await call<Acknowledgement>('POST', SEND_PATH, { body: request });
      return { status: r.status === 200 ? 200 : 201, acknowledgement: r.body };
    },
    sendRequest: async (by) =>
      (await call<SendRequestProgress>('GET', `${SEND_REQUEST_PATH}${q(by as Record<string, string>)}`)).body,
    message: async (messageId) =>
      (await call<MessageSummary & Record<string, unknown>>('GET', `${MESSAGE_PATH}${q({ messageId })}`)).body,
    timeline: async (messageId) =>
      (
        await call<{ MessageId: string; NotificationId: string; State: string; Events: TimelineEntry[] }>(
          'GET',
          `${MESSAGE_TIMELINE_PATH}${q({ messageId })}`,
        )
      ).body,
    receipt: async (callbackId, receipt) =>
      (
        await call<{ Applied: boolean; MessageId: string; State: string; Ignored?: string }>('POST', RECEIPT_PATH, {
          body: receipt,
          headers: { 'x-comm-callback-id': callbackId },
          auth: false,
        })
      ).body,
  };
}
