/**
 * When each request first reached a benchmark's receiver (performance.now(), the load generator's clock),
 * by the id the receiver finds in it, and a wait for a set of ids.
 */
export function createArrivals() {
  const at = new Map<string, number>();
  /** ids that arrived more than once, with how many times */
  const repeated = new Map<string, number>();
  const waiters = new Set<() => void>();
  return {
    /** the request `id` arrived now (a repeat keeps the first time) */
    note(id: string): void {
      if (!at.has(id)) at.set(id, performance.now());
      else repeated.set(id, (repeated.get(id) ?? 1) + 1);
      for (const wake of waiters) wake();
    },
    /** how many of `ids` arrived more than once */
    repeats: (ids: Iterable<string>): number => [...ids].filter((id) => repeated.has(id)).length,
    /** resolves once every id has arrived, with the arrival time of every id so far */
    arrived(ids: string[]): Promise<Map<string, number>> {
      return new Promise((resolve) => {
        const check = () => {
          if (!ids.every((id) => at.has(id))) return;
          waiters.delete(check);
          resolve(at);
        };
        waiters.add(check);
        check();
      });
    },
  };
}
