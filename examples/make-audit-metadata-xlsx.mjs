#!/usr/bin/env node
// Writes examples/audit-metadata.xlsx from examples/audit-metadata.csv (the audit tour imports either):
// the same header row and rows, one sheet. Uses exceljs, a dependency of the platform.
// Usage: node examples/make-audit-metadata-xlsx.mjs
import { readFileSync } from 'node:fs';
import ExcelJS from 'exceljs';

const here = new URL('.', import.meta.url);
const rows = readFileSync(new URL('audit-metadata.csv', here), 'utf8')
  .split(/\r?\n/)
  .filter((line) => line.trim() !== '')
  .map((line) => line.split(','));
const workbook = new ExcelJS.Workbook();
const sheet = workbook.addWorksheet('metadata');
for (const row of rows) sheet.addRow(row);
const out = new URL('audit-metadata.xlsx', here);
await workbook.xlsx.writeFile(out.pathname);
console.log(`wrote ${out.pathname} (${rows.length - 1} rows)`);
