import { coreError } from '../../domain/core/core.errors.ts';
import type { Decider } from '../../domain/core/decider.ts';
import type { DomainEvent, EventEnvelope, RecordedEvent } from '../../domain/core/event.ts';
import type { AppendRequest, AppendResult, EventStore, ExpectedRevision } from '../../infra/core/event-store.port.ts';
import { isWrongExpectedRevision, type WrongExpectedRevisionError } from '../../infra/core/store-errors.ts';
import { type CommandContext, envelopesFor } from './envelopes.ts';

export type { CommandContext } from './envelopes.ts';
export { forTenant } from './envelopes.ts';

export type CommandEnvelope<C, S = never> = {
  stream: string;
  /** one command, or several decided in turn (each on the state the previous one left) and appended together */
  command: C | C[];
  /** Client-supplied or derived; the same id twice is the same command (appends nothing twice). */
  commandId: string;
  /** ISO instant from the clock: the only time the decider sees comes inside the command. */
  now: string;
  context: CommandContext;
  /**
   * How the stream's state is known (default: read and folded, retried on a conflict):
   * - `new`: the command only makes sense on a stream that does not exist yet; it is decided on the
   *   initial state without reading and appended with `no_stream` (putEvent's atomic acceptance);
   * - `append`: decided on the initial state without reading, appended with `any` (a topic log);
   * - a state the caller has just folded itself, with its revision: appended with that revision, and a
   *   conflict is thrown to the caller (a worker racing others for the same stream).
   */
  from?: 'new' | 'append' | { state: S; revision: number };
  /** what a conflict means when the stream is read (default `retry`); `duplicate`: done already */
  onConflict?: 'retry' | 'duplicate';
};

export type CommandResult<E extends DomainEvent, S> = {
  /** the events this command appended (or had appended, when it is a retry of an earlier command) */
  events: Array<EventEnvelope<E['type'], E['data']> & { revision: number }>;
  state: S;
  /** revision of the stream's last event after the command (-1: no stream) */
  revision: number;
  /** global position of the last event appended (an idempotent retry: the stored one's); absent when nothing was appended */
  position?: string;
  /** true when the command id was already in the stream: nothing new was appended */
  replayed: boolean;
  /** true when the conflict rule said "done already" (`from: 'new'`, `onConflict: 'duplicate'`): nothing appended */
  duplicate?: boolean;
};

export type CommandHandlerOptions = { maxAttempts?: number; schemaVersion?: number };

/**
 * The one way to append: load the stream, fold, decide, append with the expected
 * revision. On a revision conflict the whole cycle runs again (a bounded number of times), then the
 * conflict becomes a 409 DomainError. Metadata and event ids come from envelopesFor, nowhere else.
 */
export function commandHandler<C, E extends DomainEvent, S>(
  store: EventStore,
  decider: Decider<C, E, S>,
  options: CommandHandlerOptions = {},
) {
  const maxAttempts = options.maxAttempts ?? 4;
  const schemaVersion = options.schemaVersion ?? 1;

  const decideAll = (commands: C | C[], state: S): { decided: E[]; state: S } => {
    const decided: E[] = [];
    for (const command of Array.isArray(commands) ? commands : [commands]) {
      for (const e of decider.decide(command, state)) {
        decided.push(e);
        state = decider.evolve(state, e);
      }
    }
    return { decided, state };
  };

  /** decides on `state`: what to append with `expected`, and the result its answer makes */
  function decideOnly(envelope: CommandEnvelope<C, S>, state: S, expected: ExpectedRevision) {
    const { decided, state: after } = decideAll(envelope.command, state);
    const toAppend = envelopesFor(decided, { ...envelope, schemaVersion });
    const request: AppendRequest = { stream: envelope.stream, events: toAppend, expected };
    const result = (appended: AppendResult): CommandResult<E, S> => {
      const first = appended.revision - decided.length + 1;
      const events = toAppend.map((e, i) => ({ ...e, revision: first + i })) as CommandResult<E, S>['events'];
      return { events, state: after, revision: appended.revision, position: appended.position, replayed: false };
    };
    return { decided, state: after, request, result };
  }

  /** decides on `state` (at `revision`) and appends with `expected`; a conflict is thrown */
  async function decideAndAppend(
    envelope: CommandEnvelope<C, S>,
    state: S,
    revision: number,
    expected: ExpectedRevision,
  ): Promise<CommandResult<E, S>> {
    const prepared = decideOnly(envelope, state, expected);
    if (prepared.decided.length === 0) return { events: [], state, revision, replayed: false };
    return prepared.result(await store.append(envelope.stream, prepared.request.events, expected));
  }

  async function load(stream: string, commandId: string) {
    const recorded = (await store.readStream(stream)) as unknown as RecordedEvent<E['type'], E['data']>[];
    let state = decider.initialState();
    const earlier: RecordedEvent<E['type'], E['data']>[] = [];
    for (const e of recorded) {
      state = decider.evolve(state, e as unknown as E);
      if (e.metadata.commandId === commandId) earlier.push(e);
    }
    return { state, earlier, revision: recorded.length - 1 };
  }

  /** `from: 'new'` met a stream: the command is done already, nothing appended */
  async function duplicateOf(envelope: CommandEnvelope<C, S>): Promise<CommandResult<E, S>> {
    const { state, revision } = await load(envelope.stream, envelope.commandId);
    return { events: [], state, revision, replayed: false, duplicate: true };
  }

  /**
   * Decided without appending, for a caller that appends it with others in one appendMany (putEvent's
   * acceptance and the first attempts it starts). Only for a state known without reading (`from`): the
   * request to append, the events it holds, and the result its answer makes (`conflicted`: `new` met a
   * stream, a duplicate; a known state met a newer revision, thrown).
   */
  function prepare(
    envelope: CommandEnvelope<C, S> & { from: 'new' | { state: S; revision: number } },
  ): PreparedCommand<E, S> {
    const from = envelope.from;
    const known = from === 'new' ? { state: decider.initialState(), revision: -1 } : from;
    const expected: ExpectedRevision = from === 'new' || known.revision < 0 ? 'no_stream' : known.revision;
    const prepared = decideOnly(envelope, known.state, expected);
    // an empty entry would count as gone ahead (and let what depends on it be appended): a caller's mistake
    if (prepared.decided.length === 0) throw new Error(`${envelope.stream}: a prepared command decided no events`);
    return {
      request: prepared.request,
      events: prepared.request.events as Array<EventEnvelope<E['type'], E['data']>>,
      state: prepared.state,
      async settle(answer: AppendResult | WrongExpectedRevisionError): Promise<CommandResult<E, S>> {
        if (!isWrongExpectedRevision(answer)) return prepared.result(answer);
        if (from === 'new') return duplicateOf(envelope);
        throw answer;
      },
    };
  }

  async function handle(envelope: CommandEnvelope<C, S>): Promise<CommandResult<E, S>> {
    const from = envelope.from;
    if (from === 'new' || from === 'append') {
      try {
        return await decideAndAppend(envelope, decider.initialState(), -1, from === 'new' ? 'no_stream' : 'any');
      } catch (err) {
        if (from === 'new' && isWrongExpectedRevision(err)) return duplicateOf(envelope);
        throw err;
      }
    }
    if (from !== undefined)
      return decideAndAppend(envelope, from.state, from.revision, from.revision < 0 ? 'no_stream' : from.revision);

    let lastConflict: WrongExpectedRevisionError | undefined;
    for (let attempt = 1; attempt <= maxAttempts; attempt++) {
      const { state, earlier, revision } = await load(envelope.stream, envelope.commandId);
      if (earlier.length > 0) return { events: earlier, state, revision, replayed: true };
      try {
        return await decideAndAppend(envelope, state, revision, revision < 0 ? 'no_stream' : revision);
      } catch (err) {
        if (!isWrongExpectedRevision(err)) throw err;
        if (envelope.onConflict === 'duplicate') {
          const now = await load(envelope.stream, envelope.commandId);
          return { events: [], state: now.state, revision: now.revision, replayed: false, duplicate: true };
        }
        lastConflict = err;
      }
    }
    throw coreError(
      'CONCURRENCY.CONFLICT',
      `${envelope.stream} was changed concurrently ${maxAttempts} times; retry the command`,
      { stream: envelope.stream, expected: lastConflict?.expected, actual: lastConflict?.actual },
    );
  }

  return Object.assign(handle, { prepare });
}

/** A command decided and not yet appended (commandHandler's prepare). */
export type PreparedCommand<E extends DomainEvent, S> = {
  request: AppendRequest;
  events: Array<EventEnvelope<E['type'], E['data']>>;
  state: S;
  settle(answer: AppendResult | WrongExpectedRevisionError): Promise<CommandResult<E, S>>;
};
