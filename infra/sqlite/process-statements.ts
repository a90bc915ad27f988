/**
 * How many statements this process has run on SQLite files, the log's and the read models' together. Any of
 * them can show another process's commit made after the event store's last `PRAGMA data_version` probe, so a
 * probe answers for the reads that follow it only until the next statement (event-store.changes.ts,
 * localStatements): a read answered from memory after a query that saw a newer commit would be older than
 * what the same code has already seen.
 */
let count = 0;

export const processStatements = {
  /** a statement has run (the event store: after it, so that a probe taken before it does not cover it) */
  ran(): void {
    count += 1;
  },
  count: (): number => count,
};
