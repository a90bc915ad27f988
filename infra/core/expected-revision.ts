/** What an append expects of its stream: any state, no stream yet, a stream, or this exact last revision. */
export type ExpectedRevision = 'any' | 'no_stream' | 'stream_exists' | number;
