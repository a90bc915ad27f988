import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { type CatalogEvent, catalogDecider } from '../../../domain/audit/catalog.decider.ts';
import { SHEET_COLUMNS, sheetRowsOf, validateSheet } from '../../../domain/audit/metadata-sheet.ts';
import { fold } from '../../../domain/core/decider.ts';

const test = suite('audit metadata spreadsheet rows');
const header = [...SHEET_COLUMNS];
const rows = (cells: string[][]) => cells.map((c, i) => ({ row: i + 2, cells: c }));

test('valid rows become import rows; empty cells are "not given", empty rows skipped', () => {
  const r = validateSheet(
    header,
    rows([
      ['policy', 'Policies', 'create', 'v1', 'new policy'],
      ['', '', '', '', ''],
      ['claim', '', '', '', ''],
    ]),
  );
  assert.equal(r, {
    rows: [
      {
        module_name: 'policy',
        module_description: 'Policies',
        transaction_name: 'create',
        transaction_vendor: 'v1',
        transaction_description: 'new policy',
      },
      { module_name: 'claim' },
    ],
  });
});

test('columns in any order; module_name required; unknown columns refused', () => {
  assert.equal(validateSheet(['transaction_name', 'module_name'], rows([['create', 'policy']])), {
    rows: [{ module_name: 'policy', transaction_name: 'create' }],
  });
  assert.equal(validateSheet(['module', 'transaction_name'], rows([['policy', 'x']])), {
    problems: [
      { row: 1, column: 'module', reason: `unknown column (expected: ${SHEET_COLUMNS.join(', ')})` },
      { row: 1, column: 'module_name', reason: 'the header row must name the module_name column' },
    ],
  });
});

test('every bad row is reported with its row number and column', () => {
  const r = validateSheet(
    header,
    rows([
      ['policy', 'a', 'create', '', ''],
      ['', '', 'create', '', ''],
      ['bad name', '', '', '', ''],
      ['policy', 'b', 'cancel', '', ''],
      ['policy', '', 'create', '', ''],
      ['claim', '', '', 'vendor without transaction', ''],
      ['claim', 'x'.repeat(501), '', '', ''],
    ]),
  );
  assert.ok('problems' in r);
  assert.equal(
    r.problems.map((p) => [p.row, p.column]),
    [
      [3, 'module_name'],
      [4, 'module_name'],
      [5, 'module_description'],
      [6, 'transaction_name'],
      [7, 'transaction_vendor'],
      [8, 'module_description'],
    ],
  );
});

test('export rows: one per transaction, a module without transactions on its own row; they validate again', () => {
  const at = '2026-01-01T00:00:00.000Z';
  const events: CatalogEvent[] = [
    { type: 'ModuleCreated', data: { module_name: 'policy', description: 'Policies', at } },
    { type: 'ModuleCreated', data: { module_name: 'claim', description: '', at } },
    {
      type: 'TransactionCreated',
      data: { module_name: 'policy', transaction_name: 'create', transaction_vendor: 'v1', description: 'd', at },
    },
    {
      type: 'TransactionCreated',
      data: { module_name: 'policy', transaction_name: 'cancel', transaction_vendor: '', description: '', at },
    },
  ];
  const out = sheetRowsOf(fold(catalogDecider, events));
  assert.equal(out, [
    ['claim', '', '', '', ''],
    ['policy', 'Policies', 'cancel', '', ''],
    ['policy', 'Policies', 'create', 'v1', 'd'],
  ]);
  assert.ok('rows' in validateSheet(header, rows(out)));
});

test.run();
