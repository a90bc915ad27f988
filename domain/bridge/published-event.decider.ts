import { assertNever, type Decider } from '../core/decider.ts';
import type { DomainEvent } from '../core/event.ts';
import { streamName } from '../core/stream-name.ts';
import { bridgeError } from './bridge.errors.ts';
import type { BridgeEvent, BusKind } from './model.ts';

/**
 * One published event: its acceptance, its routing and the repeats of its (source, id); its deliveries
 * have streams of their own (delivery.decider.ts).
 *
 * Stream `published-<tenant>.<key>`, `tenant` being the tenant the event belongs to (the publisher's) and
 * `key` the hex SHA-256 of `<tenant>\n<bus owner>/<bus>\n<source>\n<id>` (computed in commands/: no hashing
 * here). The key is the event's id in every answer (`eventId`) and in the trace.
 *
 * Acceptance is one append with `no_stream`: of two requests carrying the same (source, id) for the same
 * bus, exactly one creates the stream; the other fails on the expected revision and is answered
 * `duplicate: true`, and since only EventAccepted starts routing, a duplicate routes nothing again.
 */
export const PUBLISHED_CATEGORY = 'published';
export const publishedStream = (tenant: string, key: string): string => streamName(PUBLISHED_CATEGORY, tenant, key);

/** Who published it, from the access token. */
export type Publisher = { tenant: string; subject: string; clientId: string };

export type EventAcceptedData = {
  key: string;
  /** the canonical event (camelCase; see put-event.validate.ts) */
  event: BridgeEvent;
  /** bus name, as resolved */
  bus: string;
  busTenant: string;
  busKind: BusKind;
  /** the tenant the event belongs to: the publisher's */
  tenant: string;
  receivedAt: string;
  publisher: Publisher;
  /**
   * where the publishing caller's bearer token is kept (commands/bridge/caller-tokens.store.ts), for Bearer
   * `caller` connections: the token's id (`jti`), never the token; absent: kept under the event key
   */
  callerTokenRef?: string;
};

/** What a conversion produced for one target (ConversionResult of commands/bridge/bridge.contracts.ts, summarized). */
export type ConversionSummary = { ok: boolean; missing: string[]; error?: string };

export type RoutedTarget = {
  targetId: number;
  typeId: number;
  conversion: ConversionSummary;
  /** the rendered payload when the conversion succeeded: what the delivery sends */
  payload?: unknown;
  /**
   * the delivery's id (commands/bridge/delivery.scheduler.ts deliveryIdFor) when the conversion succeeded:
   * the deliveries read model keeps a due item for it from here on, so a delivery whose scheduling was lost
   * (a crash right after routing) is still scheduled. Absent in events routed before it was recorded.
   */
  deliveryId?: string;
};

export type MatchedRule = {
  ruleId: string;
  ruleTenant: string;
  /** a platform rule (applies to every tenant's events) or the event tenant's own rule */
  platform: boolean;
  targets: RoutedTarget[];
};

/**
 * Why an applicable rule was not evaluated: the tenant switched the platform rule off for itself, the rule
 * is disabled, or its stored pattern no longer parses (it never matches then; recorded, never a crash).
 */
export type SkipReason = 'opted-out' | 'disabled' | 'invalid-pattern';
export type SkippedRule = { ruleId: string; ruleTenant: string; platform: boolean; reason: SkipReason };

export type EventRoutedData = {
  key: string;
  /** rules whose pattern the event was matched against */
  evaluated: string[];
  matched: MatchedRule[];
  skipped: SkippedRule[];
  routedAt: string;
  /** the rules index version the matcher was compiled from */
  matcherVersion: string;
};

/**
 * A repeat of (source, id) whose content is not the first one's: the answer stays
 * `duplicate: true` and nothing is routed, but the producer that reuses ids by mistake finds it in the
 * answer (`contentDiffers: true`) and in the trace (a note naming the fields that differ). At most
 * MAX_DUPLICATE_NOTES are recorded per event: a producer stuck in a loop does not grow the stream.
 */
export type DuplicateReceivedData = { key: string; receivedAt: string; publisher: Publisher; differs: string[] };
export const MAX_DUPLICATE_NOTES = 20;

export type EventAccepted = DomainEvent<'EventAccepted', EventAcceptedData>;
export type EventRouted = DomainEvent<'EventRouted', EventRoutedData>;
export type DuplicateReceived = DomainEvent<'DuplicateReceived', DuplicateReceivedData>;
export type PublishedEvent = EventAccepted | EventRouted | DuplicateReceived;
export const PUBLISHED_EVENT_TYPES: ReadonlyArray<PublishedEvent['type']> = [
  'EventAccepted',
  'EventRouted',
  'DuplicateReceived',
];

export type PublishedCommand =
  | { type: 'AcceptEvent'; data: Omit<EventAcceptedData, 'receivedAt'>; now: string }
  | { type: 'RouteEvent'; data: Omit<EventRoutedData, 'routedAt' | 'key'>; now: string }
  | { type: 'NoteDuplicate'; data: Omit<DuplicateReceivedData, 'receivedAt' | 'key'>; now: string };

/** `duplicates`: how many DuplicateReceived notes the stream holds (absent: none) */
export type PublishedState =
  | { status: 'none' }
  | { status: 'accepted'; accepted: EventAcceptedData; duplicates?: number }
  | { status: 'routed'; accepted: EventAcceptedData; routed: EventRoutedData; duplicates?: number };

export const publishedEventDecider: Decider<PublishedCommand, PublishedEvent, PublishedState> = {
  initialState: () => ({ status: 'none' }),

  evolve(state, event) {
    switch (event.type) {
      case 'EventAccepted':
        return { status: 'accepted', accepted: event.data };
      case 'EventRouted':
        return state.status === 'none'
          ? state
          : {
              status: 'routed',
              accepted: state.accepted,
              routed: event.data,
              ...(state.duplicates !== undefined && { duplicates: state.duplicates }),
            };
      case 'DuplicateReceived':
        return state.status === 'none' ? state : { ...state, duplicates: (state.duplicates ?? 0) + 1 };
      default:
        return assertNever(event);
    }
  },

  decide(command, state) {
    switch (command.type) {
      case 'AcceptEvent':
        if (state.status !== 'none') {
          // the sender resent (source, id): the publisher answers 200 duplicate: true
          throw bridgeError('EVENT.DUPLICATE', 'an event with this source and id was accepted on this bus before', {
            eventId: state.accepted.key,
          });
        }
        return [{ type: 'EventAccepted', data: { ...command.data, receivedAt: command.now } }];
      case 'RouteEvent':
        if (state.status === 'none') throw bridgeError('EVENT.NOT_FOUND', 'no such published event');
        // routed once: a redelivered EventAccepted routes nothing again
        if (state.status === 'routed') return [];
        return [{ type: 'EventRouted', data: { key: state.accepted.key, ...command.data, routedAt: command.now } }];
      case 'NoteDuplicate':
        if (state.status === 'none') throw bridgeError('EVENT.NOT_FOUND', 'no such published event');
        if ((state.duplicates ?? 0) >= MAX_DUPLICATE_NOTES) return [];
        return [
          { type: 'DuplicateReceived', data: { key: state.accepted.key, ...command.data, receivedAt: command.now } },
        ];
      default:
        return assertNever(command);
    }
  },
};
