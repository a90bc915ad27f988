import type { BridgeEvent } from '../../../domain/bridge/model.ts';
import { PUT_EVENT_PATH, PUT_EVENTS_PATH } from '../bridge.paths.ts';

/**
 * The event bridge's TypeScript SDK (spec "SDK use"): build an event, put it, put a batch.
 * Depends on nothing but `fetch` (Node 18+ or a browser) and the bridge's paths (../bridge.paths.ts), so an
 * application can import it alone.
 *
 *   const bridge = createEventBridgeClient({ baseUrl: 'https://platform.example', getToken });
 *   const event = bridge.event({ eventBusName: 'orders', source: 'shop:checkout', type: 'shop:Order:Placed', data: { orderId: 42 } });
 *   const { eventId, duplicate } = await bridge.putEvent(event);
 *
 * `event(...)` fills what the sender may leave out: a random id (keep it when resending: the bridge then
 * answers `duplicate: true`), the current local date-time, and `application/json`.
 * Errors: a non-2xx answer throws EventBridgeError with the status and the bridge's {code, message, details}.
 */
export type EventInput = {
  eventBusName: string;
  source: string;
  type: string;
  data: Record<string, unknown>;
  subject?: string;
  /** default: a random UUID */
  id?: string;
  /** local date-time without offset; default: now, in the local time zone of this process */
  time?: string | Date;
  dataSchemaId?: string;
};

export type PutEventResult = { eventId: string; duplicate: boolean };
export type PutEventsEntry = PutEventResult | { errorCode: string; errorMessage: string; details?: unknown };
export type PutEventsResult = { failedEntryCount: number; entries: PutEventsEntry[] };

export type EventBridgeClientOptions = {
  /** scheme, host and port of the platform (no path) */
  baseUrl: string;
  /** a fixed access token (scope bridge:publish) … */
  token?: string;
  /** … or a function answering a current one (called before each request; cache in it) */
  getToken?: () => Promise<string> | string;
  /** default: globalThis.fetch */
  fetch?: typeof fetch;
};

export type EventBridgeClient = {
  event(input: EventInput): BridgeEvent;
  putEvent(event: BridgeEvent, options?: { idempotencyKey?: string }): Promise<PutEventResult>;
  /** 1-10 events; one result per event, in order */
  putEvents(events: BridgeEvent[], options?: { idempotencyKey?: string }): Promise<PutEventsResult>;
};

export class EventBridgeError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details: unknown,
  ) {
    super(message);
    this.name = 'EventBridgeError';
  }
}

export { PUT_EVENT_PATH, PUT_EVENTS_PATH } from '../bridge.paths.ts';

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/** `YYYY-MM-DDThh:mm:ss.SSS` in the local time zone (the spec's LocalDateTime) */
export function localDateTime(d: Date): string {
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}.${pad(d.getMilliseconds(), 3)}`;
}

export function createEventBridgeClient(options: EventBridgeClientOptions): EventBridgeClient {
  const base = options.baseUrl.replace(/\/+$/, '');
  const doFetch = options.fetch ?? globalThis.fetch;
  if (options.token === undefined && options.getToken === undefined)
    throw new Error('createEventBridgeClient: give token or getToken');
  const token = async () => options.token ?? (await options.getToken!());

  async function post<T>(path: string, body: unknown, idempotencyKey: string | undefined): Promise<T> {
    const res = await doFetch(`${base}${path}`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${await token()}`,
        'content-type': 'application/json',
        ...(idempotencyKey !== undefined && { 'idempotency-key': idempotencyKey }),
      },
      body: JSON.stringify(body),
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
      throw new EventBridgeError(
        res.status,
        p.code ?? `HTTP_${res.status}`,
        p.message ?? (text.slice(0, 300) || res.statusText),
        p.details ?? null,
      );
    }
    return parsed as T;
  }

  return {
    event(input) {
      const time =
        input.time === undefined
          ? localDateTime(new Date())
          : typeof input.time === 'string'
            ? input.time
            : localDateTime(input.time);
      return {
        id: input.id ?? globalThis.crypto.randomUUID(),
        source: input.source,
        type: input.type,
        ...(input.subject !== undefined && { subject: input.subject }),
        time,
        dataContentType: 'application/json',
        ...(input.dataSchemaId !== undefined && { dataSchemaId: input.dataSchemaId }),
        eventBusName: input.eventBusName,
        data: input.data,
      };
    },
    putEvent: (event, o) => post<PutEventResult>(PUT_EVENT_PATH, event, o?.idempotencyKey),
    putEvents: (events, o) => post<PutEventsResult>(PUT_EVENTS_PATH, events, o?.idempotencyKey),
  };
}
