import type {
  AllStreamSubscription,
  AppendExpectedRevision,
  RecordedEvent as EsdbRecordedEvent,
  Filter,
  JSONType,
  Position,
  ReadPosition,
} from '@eventstore/db-client';
import {
  ANY,
  CancelledError,
  DeadlineExceededError,
  eventTypeFilter,
  excludeSystemEvents,
  jsonEvent,
  NO_STREAM,
  NotLeaderError,
  STREAM_EXISTS,
  streamNameFilter,
  TimeoutError,
  UnavailableError,
} from '@eventstore/db-client';
import type { EventEnvelope, EventMetadata, RecordedEvent } from '../../domain/core/event.ts';
import { matchesFilter } from '../core/event-filter.ts';
import type { AllFilter, ExpectedRevision } from '../core/event-store.port.ts';
import { POSITION_DIGITS, START } from '../core/position.ts';

/*
 * How the EventStoreDB adapter maps between the port and the driver: positions, expected revisions,
 * events, filters and connection errors. Pure functions, no client.
 */

/**
 * EventStoreDB positions are a (commit, prepare) pair of 64-bit numbers. They travel as 40 digits: the
 * commit zero-padded to 20, then the prepare zero-padded to 20, so text order is log order and
 * `positionValue()` (the leading 20 digits) is the commit position. START ('0' × 20) sorts before every
 * 40-digit position and means "the beginning of $all".
 */
export function encodeEsdbPosition(position: Position): string {
  return (
    position.commit.toString().padStart(POSITION_DIGITS, '0') +
    position.prepare.toString().padStart(POSITION_DIGITS, '0')
  );
}

export function decodeEsdbPosition(position: string): ReadPosition {
  if (position === START) return 'start';
  if (position.length === 2 * POSITION_DIGITS) {
    return { commit: BigInt(position.slice(0, POSITION_DIGITS)), prepare: BigInt(position.slice(POSITION_DIGITS)) };
  }
  // a bare 20-digit position: commit and prepare positions coincide for single-event writes
  const value = BigInt(position);
  return { commit: value, prepare: value };
}

export function toExpectedRevision(expected: ExpectedRevision): AppendExpectedRevision {
  switch (expected) {
    case 'any':
      return ANY;
    case 'no_stream':
      return NO_STREAM;
    case 'stream_exists':
      return STREAM_EXISTS;
    default:
      return expected < 0 ? NO_STREAM : BigInt(expected);
  }
}

export function toEventData(event: EventEnvelope) {
  // The client types data as a JSON object/array/string; any JSON value serialises the same way.
  return jsonEvent({ id: event.id, type: event.type, data: event.data as JSONType, metadata: event.metadata });
}

/** What servers before 22.6 put in the position of events read from a stream (they do not know it). */
export const UNKNOWN_POSITION = 18446744073709551615n;

export function toRecorded(event: EsdbRecordedEvent, commitPosition: bigint | undefined): RecordedEvent {
  // $all reads always carry the position; stream reads only on servers from 22.6 on. Without one the
  // event reads with position START: stream reads are for deciders, which go by revision.
  const known = event.position && event.position.commit !== UNKNOWN_POSITION ? event.position : undefined;
  const fallback =
    commitPosition !== undefined && commitPosition !== UNKNOWN_POSITION
      ? { commit: commitPosition, prepare: commitPosition }
      : undefined;
  const position = known ?? fallback;
  return {
    id: event.id,
    type: event.type,
    data: event.data as unknown,
    metadata: event.metadata as EventMetadata,
    stream: event.streamId,
    revision: Number(event.revision),
    position: position ? encodeEsdbPosition(position) : START,
  };
}

/** `$`-prefixed types and streams are the server's own (statistics, settings, projections' links). */
export const isSystemEvent = (event: { type: string; streamId: string }) =>
  event.type.startsWith('$') || event.streamId.startsWith('$');

/** The exact filter, applied again on the client after the server's coarse one. */
export const matches = (filter: AllFilter | undefined, stream: string, type: string): boolean =>
  matchesFilter(filter, { stream, type });

/** How a page subscription hears of the filter's progress through filtered-out events. */
export type CheckpointOptions = {
  /**
   * The driver's checkpoint interval multiplier: the server sends a checkpoint every `interval` × its
   * search window (32 events) scanned.
   */
  checkpointInterval: number;
  checkpointReached: (subscription: AllStreamSubscription, position: Position) => void;
};

/**
 * The server filters on one thing only (stream name or event type): categories when given (usually the
 * most selective, and the category is a stream-name prefix up to the first `-`), else event types, else
 * just "no system events". The exact filter is applied again on the client.
 */
export function serverFilter(filter: AllFilter | undefined, checkpoints?: CheckpointOptions): Filter {
  const categories = filter?.categories ?? [];
  const types = filter?.eventTypes ?? [];
  if (categories.length > 0) {
    return streamNameFilter({ regex: `^(?:${categories.map(escapeRegex).join('|')})(?:-|$)`, ...checkpoints });
  }
  if (types.length > 0) return eventTypeFilter({ regex: `^(?:${types.map(escapeRegex).join('|')})$`, ...checkpoints });
  return excludeSystemEvents(checkpoints);
}

/**
 * Servers before the fix of KurrentDB #4892 could send a checkpoint outside the log, (2^64-1, 2^64-1),
 * when a filtered subscription that matched nothing went live: such a checkpoint vouches for nothing.
 * Servers answer positions they do not know with the same value.
 */
export const isValidCheckpoint = (position: Position) =>
  position.commit !== UNKNOWN_POSITION && position.prepare !== UNKNOWN_POSITION;

const escapeRegex = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

export function isConnectionError(error: unknown): boolean {
  if (
    error instanceof UnavailableError ||
    error instanceof DeadlineExceededError ||
    error instanceof TimeoutError ||
    error instanceof NotLeaderError ||
    error instanceof CancelledError
  ) {
    return true;
  }
  const code = (error as { code?: unknown } | null)?.code;
  // raw gRPC statuses: 4 DEADLINE_EXCEEDED, 14 UNAVAILABLE
  if (code === 4 || code === 14) return true;
  return error instanceof Error && /failed to discover|ECONNREFUSED|ECONNRESET|ENOTFOUND/i.test(error.message);
}
