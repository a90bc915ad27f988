// How a section's process hands its rows to `npm run bench` (spec/bench/run.ts): one JSON line per row,
// appended as each row is printed, so the rows measured before a crash survive it; a failure adds a
// line `{"failed": message}`.
import { appendFileSync, existsSync, readFileSync } from 'node:fs';
import type { BenchRow } from './bench-row.ts';
import { parseRow } from './benchmarks-file.ts';

let file: string | undefined;

/** from now on, every printed row is also appended to `path` */
export const recordRowsTo = (path: string) => {
  file = path;
};

export function recordRow(row: BenchRow): void {
  if (file !== undefined) appendFileSync(file, `${JSON.stringify(row)}\n`);
}

export function recordFailure(error: unknown): void {
  const message = error instanceof Error ? error.message : String(error);
  if (file !== undefined)
    appendFileSync(file, `${JSON.stringify({ failed: message.split('\n')[0]!.slice(0, 300) })}\n`);
}

/** the rows a section's process recorded at `path`, and its failure if it recorded one (no file: nothing) */
export function readRecordedRows(path: string): { rows: BenchRow[]; failed?: string } {
  const rows: BenchRow[] = [];
  let failed: string | undefined;
  const text = existsSync(path) ? readFileSync(path, 'utf8') : '';
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      continue; // a line cut short by a crash
    }
    if (typeof value === 'object' && value !== null && 'failed' in value) failed = String(value.failed);
    else {
      const row = parseRow(value);
      if (row !== undefined) rows.push(row);
    }
  }
  return failed === undefined ? { rows } : { rows, failed };
}
