import type { ExpectedRevision } from './expected-revision.ts';

/** The stream's actual revision differs from what the writer expected. Mapped to 409 after retries. */
export class WrongExpectedRevisionError extends Error {
  readonly stream: string;
  readonly expected: ExpectedRevision;
  /** revision of the last event in the stream, or 'no_stream' */
  readonly actual: number | 'no_stream';

  constructor(stream: string, expected: ExpectedRevision, actual: number | 'no_stream') {
    super(`stream ${stream}: expected revision ${String(expected)}, actual ${String(actual)}`);
    this.name = 'WrongExpectedRevisionError';
    this.stream = stream;
    this.expected = expected;
    this.actual = actual;
  }
}

/** A store is down or unreachable. Mapped to 503; the process stays up and recovers. */
export class StoreUnavailableError extends Error {
  readonly store: string;
  constructor(store: string, message: string, options?: { cause?: unknown }) {
    super(`${store} unavailable: ${message}`, options);
    this.name = 'StoreUnavailableError';
    this.store = store;
  }
}

export const isWrongExpectedRevision = (e: unknown): e is WrongExpectedRevisionError =>
  e instanceof WrongExpectedRevisionError;
export const isStoreUnavailable = (e: unknown): e is StoreUnavailableError => e instanceof StoreUnavailableError;
