import { matchesFilter } from './event-filter.ts';
import type { AllFilter, LogPage } from './event-store.port.ts';

/** What the waker needs of a work engine (commands/core/work-engine.ts). */
export type WakeableEngine = {
  readonly fedBy?: readonly string[];
  /** shown each page its feeders took, before wantsPage: what the engine keeps of it for the claims that follow */
  sawPage?(page: LogPage): void;
  /** whether a page its feeders took can have left it work to look for now (default: yes) */
  wantsPage?(page: LogPage): boolean;
  wake(): void;
};

/**
 * After a page of the log: wakes the work engines whose items that page can have created, i.e. those fed by
 * a consumer (projection, reactor) with an event of the page in its filter. An engine that names no feeders
 * is woken after every page. A feeder that does not run in this process (another process projects) is
 * counted as fed: the page is the same there, and its items may be written by now. An engine that can tell
 * from the events that the page left it nothing to do now (wantsPage) is not woken by it; one that keeps
 * something of the page (sawPage: the hub's dispatch keeps the acceptances its claims will need) sees it first.
 */
export function createEngineWaker(
  engines: readonly WakeableEngine[],
  consumers: ReadonlyArray<{ name: string; filter: AllFilter }>,
): (page: LogPage) => void {
  const filters = new Map(consumers.map((c) => [c.name, c.filter]));
  return (page) => {
    const fed = new Map<string, boolean>();
    const isFed = (name: string) => {
      let yes = fed.get(name);
      if (yes === undefined) {
        const filter = filters.get(name);
        yes = filter === undefined || page.events.some((e) => matchesFilter(filter, e));
        fed.set(name, yes);
      }
      return yes;
    };
    for (const engine of engines) {
      if (engine.fedBy !== undefined && !engine.fedBy.some(isFed)) continue;
      engine.sawPage?.(page);
      if (engine.wantsPage?.(page) ?? true) engine.wake();
    }
  };
}
