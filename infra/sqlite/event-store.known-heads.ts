import { setBounded } from '../core/bounded.ts';

/**
 * How far this connection knows each stream to end, so that "the events of stream S after revision r" can be
 * answered without a query when it already knows there are none: a stream cache (commands/core/stream-cache.ts)
 * asks exactly that on every load (a bus per putEvent, a notification and the dispatch gate's preferences,
 * quiet hours and caps per hub send, a delivery per attempt), and the answer is nearly always "none".
 *
 * What it knows comes from this connection's own commits (the revision an append reached) and from its
 * forward reads that ran to the end of a stream. It holds only while no other connection has committed since
 * it was learned: each entry carries the count of other connections' commits seen (`PRAGMA data_version`, the
 * change signal's `foreign()`) taken before the read or the append, and is used only while that count is
 * unchanged; the log is append-only, so nothing else can make it wrong. Bounded: the least recently learned
 * streams are forgotten first.
 */
export type KnownHeads = {
  /** the revision after which `stream` has no event, if known at `foreign` (the current count), else undefined */
  noneAfter(stream: string, foreign: number): number | undefined;
  /** `stream` has no event after `revision` (-1: none at all), as of `foreign` taken before finding it out */
  learn(stream: string, revision: number, foreign: number): void;
};

export function createKnownHeads(maxEntries = 10_000): KnownHeads {
  const heads = new Map<string, { revision: number; foreign: number }>();
  return {
    noneAfter(stream, foreign) {
      const known = heads.get(stream);
      return known !== undefined && known.foreign === foreign ? known.revision : undefined;
    },
    learn(stream, revision, foreign) {
      heads.delete(stream); // re-insert: most recently learned last
      setBounded(heads, stream, { revision, foreign }, maxEntries);
    },
  };
}
