import { assertNever, type Decider } from '../core/decider.ts';
import type { DomainEvent } from '../core/event.ts';
import { streamName } from '../core/stream-name.ts';
import { bridgeError } from './bridge.errors.ts';
import { type Bus, type EventSource, PLATFORM_TENANT, type SourceKind } from './model.ts';

/**
 * An event source registered on a bus (spec "Event sources"): its kind and the event types it publishes.
 * Stream `eventSource-<bus owner>.<bus>~<source>` (`~` appears in neither a bus name nor a source name).
 *
 * - platform sources exist only on platform buses and name their schema (every platform event source has
 *   a schema in the registry); sdk and webhook sources go on any bus;
 * - sources on platform and baseline buses are registered by the platform, on a custom bus by its tenant;
 * - registering again replaces the registration (same content: nothing is appended).
 */
export const EVENT_SOURCE_CATEGORY = 'eventSource';
/** `<system>:<component>` in the spec's samples; no spaces and no `~` */
export const SOURCE_NAME = /^[A-Za-z0-9][A-Za-z0-9._:/@+-]{0,255}$/;
export const SOURCE_KINDS: readonly SourceKind[] = ['platform', 'sdk', 'webhook'];
const MAX_EVENT_TYPES = 100;
const MAX_EVENT_TYPE = 256;

export const eventSourceStream = (busTenant: string, bus: string, source: string): string =>
  streamName(EVENT_SOURCE_CATEGORY, busTenant, `${bus}~${source}`);

export type SourceCommand = {
  type: 'RegisterSource';
  /** the bus as it is now (the command handler reads it; it must exist) */
  bus: Bus;
  name: string;
  kind: SourceKind;
  eventTypes: string[];
  schemaId?: string;
  actorTenant: string;
  now: string;
};

export type SourceRegistered = DomainEvent<'SourceRegistered', EventSource & { registeredAt: string }>;
export type SourceEvent = SourceRegistered;
export const SOURCE_EVENT_TYPES: ReadonlyArray<SourceEvent['type']> = ['SourceRegistered'];

export type SourceState = { status: 'none' } | { status: 'registered'; source: EventSource; registeredAt: string };

const invalid = (field: string, message: string) =>
  bridgeError('SOURCE.INVALID', `invalid event source: ${field} ${message}`, [{ field, message }]);

const sameRegistration = (a: EventSource, b: EventSource) =>
  a.kind === b.kind &&
  a.schemaId === b.schemaId &&
  a.eventTypes.length === b.eventTypes.length &&
  a.eventTypes.every((t, i) => t === b.eventTypes[i]);

export const eventSourceDecider: Decider<SourceCommand, SourceEvent, SourceState> = {
  initialState: () => ({ status: 'none' }),

  evolve(_state, event) {
    switch (event.type) {
      case 'SourceRegistered': {
        const { registeredAt, ...source } = event.data;
        return { status: 'registered', source, registeredAt };
      }
      default:
        return assertNever(event.type);
    }
  },

  decide(command, state) {
    switch (command.type) {
      case 'RegisterSource': {
        const { bus, name, kind, schemaId, actorTenant, now } = command;
        if (!SOURCE_NAME.test(name))
          throw invalid(
            'name',
            'must be 1-256 characters of letters, digits and . _ : / @ + -, starting with a letter or digit',
          );
        if (!SOURCE_KINDS.includes(kind)) throw invalid('kind', `must be one of ${SOURCE_KINDS.join(', ')}`);
        if (command.eventTypes.length > MAX_EVENT_TYPES)
          throw invalid('eventTypes', `must have at most ${MAX_EVENT_TYPES} entries`);
        const bad = command.eventTypes.findIndex(
          (t) => typeof t !== 'string' || t.length === 0 || t.length > MAX_EVENT_TYPE,
        );
        if (bad >= 0) throw invalid(`eventTypes.${bad}`, `must be 1-${MAX_EVENT_TYPE} characters`);
        if (kind === 'platform' && bus.kind !== 'platform') {
          throw bridgeError(
            'SOURCE.PLATFORM_BUS_ONLY',
            'platform event sources can only be registered on a platform bus',
            [{ field: 'kind', message: `platform sources only on platform buses (${bus.name} is a ${bus.kind} bus)` }],
          );
        }
        if (kind === 'platform' && (schemaId === undefined || schemaId === '')) {
          throw invalid(
            'schemaId',
            'is required for a platform event source (every platform event source has a schema)',
          );
        }
        if (actorTenant !== PLATFORM_TENANT && (bus.kind !== 'custom' || bus.tenant !== actorTenant)) {
          throw bridgeError(
            'SOURCE.FORBIDDEN',
            `sources of bus ${bus.name} are registered by ${bus.kind === 'custom' ? 'its tenant' : 'the platform'}`,
            {
              bus: bus.name,
            },
          );
        }
        const eventTypes = [...new Set(command.eventTypes)];
        const source: EventSource = {
          bus: bus.name,
          name,
          kind,
          tenant: bus.tenant,
          eventTypes,
          ...(schemaId !== undefined && schemaId !== '' && { schemaId }),
        };
        if (state.status === 'registered' && sameRegistration(state.source, source)) return [];
        return [{ type: 'SourceRegistered', data: { ...source, registeredAt: now } }];
      }
      default:
        return assertNever(command.type);
    }
  },
};
