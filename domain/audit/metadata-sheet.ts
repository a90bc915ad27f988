import { MAX_DESCRIPTION, MAX_IMPORT_ROWS, MAX_VENDOR, NAME } from './audit.limits.ts';
import type { CatalogState, ImportRow } from './catalog.decider.ts';

/**
 * The metadata spreadsheet (XLSX or CSV), one layout for export and import: a header row naming the
 * columns, then one row per transaction (a module without transactions: one row with the transaction
 * columns empty). Columns, in this order on export (any order on import; module_name required):
 *
 *   module_name | module_description | transaction_name | transaction_vendor | transaction_description
 *
 * Import creates what is missing and updates descriptions and vendors that differ; it never deletes. Every
 * bad row is reported (row number as the spreadsheet shows it: the header is row 1), and nothing is
 * imported while any row is bad. Empty cells are "not given" (an existing description stays); cells are
 * trimmed; fully empty rows are skipped.
 */
export const SHEET_COLUMNS = [
  'module_name',
  'module_description',
  'transaction_name',
  'transaction_vendor',
  'transaction_description',
] as const;
export type SheetColumn = (typeof SHEET_COLUMNS)[number];

export type SheetRow = { row: number; cells: string[] };
export type SheetProblem = { row: number; column: string; reason: string };

const isColumn = (s: string): s is SheetColumn => (SHEET_COLUMNS as readonly string[]).includes(s);

/** rows of `state` in the export layout, modules and transactions by name */
export function sheetRowsOf(state: CatalogState): string[][] {
  const out: string[][] = [];
  const byName = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
  for (const name of Object.keys(state.modules).sort(byName)) {
    const m = state.modules[name]!;
    const txs = Object.keys(m.transactions).sort(byName);
    if (txs.length === 0) out.push([m.module_name, m.description, '', '', '']);
    for (const t of txs) {
      const tx = m.transactions[t]!;
      out.push([m.module_name, m.description, tx.transaction_name, tx.transaction_vendor, tx.description]);
    }
  }
  return out;
}

/** validates a parsed sheet: every problem, or the rows to import */
export function validateSheet(
  header: string[],
  rows: SheetRow[],
): { rows: ImportRow[] } | { problems: SheetProblem[] } {
  const problems: SheetProblem[] = [];
  const columns = header.map((h) => h.trim());
  const seenColumns = new Set<string>();
  columns.forEach((c, i) => {
    if (c === '' && rows.every((r) => (r.cells[i] ?? '').trim() === '')) return; // a trailing empty column
    if (!isColumn(c))
      problems.push({
        row: 1,
        column: c === '' ? `#${i + 1}` : c,
        reason: `unknown column (expected: ${SHEET_COLUMNS.join(', ')})`,
      });
    else if (seenColumns.has(c)) problems.push({ row: 1, column: c, reason: 'column given twice' });
    seenColumns.add(c);
  });
  if (!seenColumns.has('module_name'))
    problems.push({ row: 1, column: 'module_name', reason: 'the header row must name the module_name column' });
  if (problems.length > 0) return { problems };

  const content = rows.filter((r) => r.cells.some((c) => (c ?? '').trim() !== ''));
  if (content.length > MAX_IMPORT_ROWS) {
    return {
      problems: [
        { row: content[MAX_IMPORT_ROWS]!.row, column: '', reason: `at most ${MAX_IMPORT_ROWS} rows per import` },
      ],
    };
  }
  const moduleRows = new Map<string, { row: number; description?: string }>();
  const txRows = new Map<string, number>();
  const out: ImportRow[] = [];
  for (const { row, cells } of content) {
    const cell = (c: SheetColumn): string | undefined => {
      const i = columns.indexOf(c);
      const v = i < 0 ? '' : (cells[i] ?? '').trim();
      return v === '' ? undefined : v;
    };
    const bad = (column: string, reason: string) => problems.push({ row, column, reason });
    const before = problems.length;
    const module_name = cell('module_name');
    const module_description = cell('module_description');
    const transaction_name = cell('transaction_name');
    const transaction_vendor = cell('transaction_vendor');
    const transaction_description = cell('transaction_description');
    if (module_name === undefined) bad('module_name', 'is required');
    else if (!NAME.test(module_name))
      bad('module_name', 'must be 1-128 letters, digits or _ . : @ -, starting with a letter or digit');
    if (module_description !== undefined && module_description.length > MAX_DESCRIPTION)
      bad('module_description', `must be at most ${MAX_DESCRIPTION} characters`);
    if (transaction_name !== undefined && !NAME.test(transaction_name))
      bad('transaction_name', 'must be 1-128 letters, digits or _ . : @ -, starting with a letter or digit');
    if (transaction_name === undefined && transaction_vendor !== undefined)
      bad('transaction_vendor', 'needs a transaction_name');
    if (transaction_name === undefined && transaction_description !== undefined)
      bad('transaction_description', 'needs a transaction_name');
    if (transaction_vendor !== undefined && transaction_vendor.length > MAX_VENDOR)
      bad('transaction_vendor', `must be at most ${MAX_VENDOR} characters`);
    if (transaction_description !== undefined && transaction_description.length > MAX_DESCRIPTION)
      bad('transaction_description', `must be at most ${MAX_DESCRIPTION} characters`);
    if (module_name !== undefined) {
      const first = moduleRows.get(module_name);
      if (first === undefined)
        moduleRows.set(module_name, {
          row,
          ...(module_description !== undefined && { description: module_description }),
        });
      else if (
        module_description !== undefined &&
        first.description !== undefined &&
        first.description !== module_description
      ) {
        bad('module_description', `differs from the description of module ${module_name} in row ${first.row}`);
      } else if (module_description !== undefined) first.description = module_description;
      if (transaction_name !== undefined) {
        const key = `${module_name}\u0000${transaction_name}`;
        const dup = txRows.get(key);
        if (dup !== undefined)
          bad('transaction_name', `transaction ${transaction_name} of module ${module_name} is already in row ${dup}`);
        else txRows.set(key, row);
      }
    }
    if (problems.length > before) continue;
    out.push({
      module_name: module_name!,
      ...(module_description !== undefined && { module_description }),
      ...(transaction_name !== undefined && { transaction_name }),
      ...(transaction_vendor !== undefined && { transaction_vendor }),
      ...(transaction_description !== undefined && { transaction_description }),
    });
  }
  return problems.length > 0 ? { problems } : { rows: out };
}
