import Database from 'better-sqlite3';

/**
 * Times every better-sqlite3 statement run in this process (run, get, all, iterate), by SQL text, for the
 * cost counts of spec/bench (a statement's own time: better-sqlite3 is synchronous). Patches the Statement
 * prototype: for benchmarks' diagnostics only.
 */
export function timeSqlStatements() {
  const stats = new Map<string, { count: number; micros: number }>();
  const probe = new Database(':memory:');
  const proto = Object.getPrototypeOf(probe.prepare('select 1')) as Record<string, unknown>;
  probe.close();
  for (const m of ['run', 'get', 'all', 'iterate'] as const) {
    const original = proto[m] as (...a: unknown[]) => unknown;
    proto[m] = function (this: { source: string }, ...a: unknown[]) {
      const t0 = process.hrtime.bigint();
      try {
        return original.apply(this, a);
      } finally {
        const key = this.source.replace(/\s+/g, ' ').slice(0, 110);
        const s = stats.get(key) ?? { count: 0, micros: 0 };
        s.count++;
        s.micros += Number(process.hrtime.bigint() - t0) / 1000;
        stats.set(key, s);
      }
    };
  }
  return {
    reset: () => stats.clear(),
    rows: () => [...stats].map(([sql, s]) => ({ sql, ...s })).sort((a, b) => b.micros - a.micros),
  };
}
