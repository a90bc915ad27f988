import type { Decider } from '../../domain/core/decider.ts';
import { DomainError } from '../../domain/core/domain-error.ts';
import type { DomainEvent, EventEnvelope, EventMetadata, RecordedEvent } from '../../domain/core/event.ts';
import type { EventStore, ExpectedRevision } from '../../infra/core/event-store.port.ts';
import { isWrongExpectedRevision, WrongExpectedRevisionError } from '../../infra/core/store-errors.ts';
import { eventIdFor } from './event-id.ts';

/** Who asks, and why: copied into every event's metadata. */
export type CommandContext = {
  tenant: string;
  actor?: string;
  correlationId?: string;
  causationId?: string;
};

export type CommandEnvelope<C> = {
  stream: string;
  command: C;
  /** Client-supplied or derived; the same id twice is the same command (appends nothing twice). */
  commandId: string;
  /** ISO instant from the clock: the only time the decider sees comes inside the command. */
  now: string;
  context: CommandContext;
};

export type CommandResult<E extends DomainEvent, S> = {
  /** the events this command appended (or had appended, when it is a retry of an earlier command) */
  events: Array<EventEnvelope<E['type'], E['data']> & { revision: number }>;
  state: S;
  /** revision of the stream's last event after the command (-1: no stream) */
  revision: number;
  /** true when the command id was already in the stream: nothing new was appended */
  replayed: boolean;
};

export type CommandHandlerOptions = { maxAttempts?: number; schemaVersion?: number };

/**
 * Load the stream, fold, decide, append with the expected revision. On a revision conflict the whole
 * cycle runs again (a bounded number of times), then the conflict becomes a 409 DomainError.
 */
export function commandHandler<C, E extends DomainEvent, S>(
  store: EventStore,
  decider: Decider<C, E, S>,
  options: CommandHandlerOptions = {},
) {
  const maxAttempts = options.maxAttempts ?? 4;
  const schemaVersion = options.schemaVersion ?? 1;

  return async function handle(envelope: CommandEnvelope<C>): Promise<CommandResult<E, S>> {
    let lastConflict: WrongExpectedRevisionError | undefined;
    for (let attempt = 1; attempt <= maxAttempts; attempt++) {
      const recorded = (await store.readStream(envelope.stream)) as unknown as RecordedEvent<E['type'], E['data']>[];
      let state = decider.initialState();
      const earlier: RecordedEvent<E['type'], E['data']>[] = [];
      for (const e of recorded) {
        state = decider.evolve(state, e as unknown as E);
        if (e.metadata.commandId === envelope.commandId) earlier.push(e);
      }
      const revision = recorded.length - 1;
      if (earlier.length > 0) return { events: earlier, state, revision, replayed: true };

      const decided = decider.decide(envelope.command, state);
      if (decided.length === 0) return { events: [], state, revision, replayed: false };

      const metadata: EventMetadata = {
        tenant: envelope.context.tenant,
        ...(envelope.context.actor !== undefined && { actor: envelope.context.actor }),
        ...(envelope.context.correlationId !== undefined && { correlationId: envelope.context.correlationId }),
        ...(envelope.context.causationId !== undefined && { causationId: envelope.context.causationId }),
        commandId: envelope.commandId,
        occurredAt: envelope.now,
        schemaVersion,
      };
      const toAppend: EventEnvelope[] = decided.map((e, i) => ({
        id: eventIdFor(envelope.commandId, i, envelope.stream),
        type: e.type,
        data: e.data,
        metadata,
      }));
      const expected: ExpectedRevision = revision < 0 ? 'no_stream' : revision;
      try {
        const result = await store.append(envelope.stream, toAppend, expected);
        for (const e of decided) state = decider.evolve(state, e);
        const first = result.revision - decided.length + 1;
        const events = toAppend.map((e, i) => ({ ...e, revision: first + i })) as CommandResult<E, S>['events'];
        return { events, state, revision: result.revision, replayed: false };
      } catch (err) {
        if (!isWrongExpectedRevision(err)) throw err;
        lastConflict = err;
      }
    }
    throw new DomainError(
      'CONCURRENCY.CONFLICT',
      409,
      `${envelope.stream} was changed concurrently ${maxAttempts} times; retry the command`,
      { stream: envelope.stream, expected: lastConflict?.expected, actual: lastConflict?.actual },
    );
  };
}
