import { once } from 'node:events';
import type { Writable } from 'node:stream';
import { parse } from 'csv-parse';
import { stringify } from 'csv-stringify';
import yauzl from 'yauzl';
import { auditError } from '../../domain/audit/audit.errors.ts';
import { MAX_IMPORT_ROWS, MAX_XLSX_UNCOMPRESSED_BYTES } from '../../domain/audit/audit.limits.ts';
import type { SheetRow } from '../../domain/audit/metadata-sheet.ts';

type ExcelJs = typeof import('exceljs');
/** exceljs is loaded on first use: it costs about 30 MB of resident memory in a process that never needs it */
let excel: Promise<ExcelJs> | undefined;
// a CommonJS module: its namespace's `default` is the module.exports the static default import gave
const loadExcel = () => (excel ??= import('exceljs').then((m) => (m as unknown as { default: ExcelJs }).default));

/**
 * Spreadsheets in and out, streamed: CSV with csv-stringify / csv-parse, XLSX with exceljs (its streaming
 * WorkbookWriter out). Writers take rows page by page and wait for the destination to drain, so an export
 * holds one page in memory whatever its size.
 */
export type SheetFormat = 'csv' | 'xlsx';

export const CONTENT_TYPES: Record<SheetFormat, string> = {
  csv: 'text/csv; charset=utf-8',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
};

/** Excel's limits: a cell holds at most 32,767 characters, a sheet 1,048,576 rows (the header included) */
export const XLSX_CELL_MAX = 32_767;
export const XLSX_SHEET_ROWS = 1_048_576;
/** rows between two waits for the zip entry to drain (the fewer in flight, the flatter the memory) */
const XLSX_DRAIN_EVERY = 100;

const drained = async (out: Writable) => {
  if (out.writableNeedDrain) await once(out, 'drain');
};

/**
 * exceljs' worksheet stream hands its bytes to the zip entry without waiting (its write never says "wait"):
 * without this, a fast producer piles the whole sheet up inside the zip (100,000 records: +150 MB). Waits
 * for that entry to drain, then for `out`. (`stream.pipes` is exceljs' StreamBuf's list of destinations:
 * the zip entry being written.)
 */
async function sheetDrained(ws: unknown, out: Writable): Promise<void> {
  type Entry = Writable & { _writableState?: { needDrain?: boolean } };
  const entry = (ws as { stream?: { pipes?: Entry[] } }).stream?.pipes?.[0];
  // the entry is a readable-stream PassThrough: no `writableNeedDrain` getter, its state says it
  if (entry !== undefined && (entry.writableNeedDrain ?? entry._writableState?.needDrain) === true)
    await once(entry, 'drain');
  await drained(out);
}

/** Writes `header` and then every page of rows to `out` as CSV (RFC 4180, UTF-8); ends `out`. */
export async function writeCsv(
  out: Writable,
  header: readonly string[],
  pages: AsyncIterable<string[][]>,
): Promise<number> {
  const csv = stringify({ header: true, columns: [...header] });
  csv.pipe(out);
  let rows = 0;
  for await (const page of pages) {
    for (const row of page) {
      rows += 1;
      if (!csv.write(row)) await once(csv, 'drain');
    }
    await drained(out);
  }
  csv.end();
  await once(csv, 'end');
  return rows;
}

/**
 * Writes `header` and every page of rows to `out` as an XLSX workbook (streamed: rows are committed as they
 * come, nothing kept); a sheet that is full goes on in the next one (`<sheet> 2` …). A cell longer than
 * Excel's limit is cut there (CSV carries everything). Ends `out`.
 */
export async function writeXlsx(
  out: Writable,
  sheet: string,
  header: readonly string[],
  pages: AsyncIterable<string[][]>,
): Promise<number> {
  const ExcelJS = await loadExcel();
  const book = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useStyles: false, useSharedStrings: false });
  let sheets = 1;
  let ws = book.addWorksheet(sheet);
  ws.addRow([...header]).commit();
  let inSheet = 1;
  let rows = 0;
  for await (const page of pages) {
    for (const row of page) {
      if (inSheet >= XLSX_SHEET_ROWS) {
        ws.commit();
        ws = book.addWorksheet(`${sheet} ${++sheets}`);
        ws.addRow([...header]).commit();
        inSheet = 1;
      }
      ws.addRow(row.map((c) => (c.length > XLSX_CELL_MAX ? c.slice(0, XLSX_CELL_MAX) : c))).commit();
      inSheet += 1;
      rows += 1;
      if (rows % XLSX_DRAIN_EVERY === 0) await sheetDrained(ws, out);
    }
    await sheetDrained(ws, out);
  }
  ws.commit();
  await book.commit();
  return rows;
}

const fileInvalid = (message: string) =>
  auditError('METADATA.FILE_INVALID', message, [{ in: 'body', field: 'file', message }]);

/** the text of a cell as exceljs reads it: rich text, hyperlinks, formula results, dates and numbers to text */
function cellText(v: unknown): string {
  if (v === null || v === undefined) return '';
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  if (v instanceof Date) return v.toISOString();
  if (typeof v === 'object') {
    const o = v as { richText?: Array<{ text: string }>; text?: unknown; result?: unknown; error?: unknown };
    if (Array.isArray(o.richText)) return o.richText.map((r) => r.text).join('');
    if (o.text !== undefined) return cellText(o.text);
    if (o.result !== undefined) return cellText(o.result);
  }
  return String(v);
}

/** the uncompressed size an XLSX (a zip) declares for its parts: refuses a decompression bomb before exceljs opens it */
function declaredSize(buffer: Buffer): Promise<number> {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(buffer, { lazyEntries: true }, (err, zip) => {
      if (err || !zip) return reject(fileInvalid('the file is not a readable XLSX workbook'));
      let total = 0;
      zip.on('entry', (entry: yauzl.Entry) => {
        total += entry.uncompressedSize;
        if (total > MAX_XLSX_UNCOMPRESSED_BYTES) {
          zip.close();
          resolve(total);
        } else zip.readEntry();
      });
      zip.on('end', () => resolve(total));
      zip.on('error', () => reject(fileInvalid('the file is not a readable XLSX workbook')));
      zip.readEntry();
    });
  });
}

async function readXlsx(buffer: Buffer): Promise<{ header: string[]; rows: SheetRow[] }> {
  if ((await declaredSize(buffer)) > MAX_XLSX_UNCOMPRESSED_BYTES)
    throw fileInvalid(`the workbook unpacks to more than ${MAX_XLSX_UNCOMPRESSED_BYTES} bytes`);
  const ExcelJS = await loadExcel();
  const book = new ExcelJS.Workbook();
  try {
    await book.xlsx.load(buffer as unknown as ArrayBuffer);
  } catch {
    throw fileInvalid('the file is not a readable XLSX workbook');
  }
  const sheet = book.worksheets[0];
  if (sheet === undefined) throw fileInvalid('the workbook has no worksheet');
  let header: string[] | undefined;
  const rows: SheetRow[] = [];
  let tooMany = false;
  sheet.eachRow({ includeEmpty: false }, (row, number) => {
    const values = (row.values as unknown[]).slice(1).map(cellText);
    if (header === undefined) header = values;
    else if (rows.length <= MAX_IMPORT_ROWS) rows.push({ row: number, cells: values });
    else tooMany = true;
  });
  if (header === undefined) throw fileInvalid('the worksheet is empty: a header row is needed');
  if (tooMany) throw fileInvalid(`at most ${MAX_IMPORT_ROWS} rows per import`);
  return { header, rows };
}

const parseCsv = (text: string) =>
  new Promise<string[][]>((resolve, reject) => {
    parse(
      text,
      { bom: true, relax_column_count: true, skip_empty_lines: false, to: MAX_IMPORT_ROWS + 2 },
      (err, records: string[][]) => (err ? reject(err) : resolve(records)),
    );
  });

async function readCsv(buffer: Buffer): Promise<{ header: string[]; rows: SheetRow[] }> {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(buffer);
  } catch {
    throw fileInvalid('the file is neither an XLSX workbook nor UTF-8 CSV text');
  }
  let records: string[][];
  try {
    records = await parseCsv(text);
  } catch (err) {
    throw fileInvalid(`the CSV cannot be read: ${err instanceof Error ? err.message.split('\n', 1)[0] : String(err)}`);
  }
  const [header, ...rest] = records;
  if (header === undefined) throw fileInvalid('the file is empty: a header row is needed');
  return { header, rows: rest.map((cells, i) => ({ row: i + 2, cells })) };
}

/** A spreadsheet upload: XLSX when it is a zip (its magic bytes), else CSV. */
export async function readSheet(buffer: Buffer): Promise<{ format: SheetFormat; header: string[]; rows: SheetRow[] }> {
  const isZip = buffer.length >= 4 && buffer.readUInt32LE(0) === 0x04034b50;
  return isZip ? { format: 'xlsx', ...(await readXlsx(buffer)) } : { format: 'csv', ...(await readCsv(buffer)) };
}

/** an attachment's headers */
export function attachment(
  res: { setHeader(name: string, value: string): unknown },
  filename: string,
  format: SheetFormat,
): void {
  res.setHeader('content-type', CONTENT_TYPES[format]);
  res.setHeader('content-disposition', `attachment; filename="${filename}"`);
}
