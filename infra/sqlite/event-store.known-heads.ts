import { setNewest } from '../core/bounded.ts';

/**
 * How far this connection knows each stream to end, so that "the events of stream S after revision r" can be
 * answered without a query when it already knows there are none: a stream cache (commands/core/stream-cache.ts)
 * asks exactly that on every load (a bus per putEvent, a notification and the dispatch gate's preferences,
 * quiet hours and caps per hub send, a delivery per attempt), and the answer is nearly always "none".
 *
 * What it knows comes from this connection's own commits (the revision an append reached) and from its
 * forward reads that ran to the end of a stream. It holds while no other connection has committed since it
 * was learned: each entry carries the count of other connections' commits seen (`PRAGMA data_version`, the
 * change signal's `foreign()`) taken before the read or the append; the log is append-only, so nothing else
 * can make it wrong. Where other processes commit all the time (a split deployment's API and workers), that
 * count moves between any two reads; an entry then also carries where the stream's category ended (its
 * highest position) before the read, or at the commit, and still holds while the category ends there: no
 * stream of it has grown (positions are handed out in commit order, so a later event anywhere in the category
 * ends it further). Recipients' preferences, a tenant's quiet hours and caps change seldom; notifications
 * do all the time, and their entries are read again. Bounded: the least recently learned streams are
 * forgotten first.
 */
export type KnownHeads = {
  /**
   * the revision after which `stream` has no event, if known at `foreign` (the current count), or, when
   * other connections committed since, if its category still ends where it did (`categoryEnd`: where it ends
   * now); else undefined
   */
  noneAfter(stream: string, foreign: number, categoryEnd?: () => number): number | undefined;
  /**
   * `stream` has no event after `revision` (-1: none at all), as of `foreign` and `categoryEnd` (where the
   * stream's category ended; undefined: not known), both taken before finding it out
   */
  learn(stream: string, revision: number, foreign: number, categoryEnd?: number): void;
};

type Known = { revision: number; foreign: number; categoryEnd: number | undefined };

export function createKnownHeads(maxEntries = 10_000): KnownHeads {
  const heads = new Map<string, Known>();
  return {
    noneAfter(stream, foreign, categoryEnd) {
      const known = heads.get(stream);
      if (known === undefined) return undefined;
      if (known.foreign === foreign) return known.revision;
      if (known.categoryEnd === undefined || categoryEnd === undefined || categoryEnd() !== known.categoryEnd)
        return undefined;
      // nothing of the category came since: the entry holds at this count too
      known.foreign = foreign;
      return known.revision;
    },
    learn(stream, revision, foreign, categoryEnd) {
      setNewest(heads, stream, { revision, foreign, categoryEnd }, maxEntries); // most recently learned last
    },
  };
}
