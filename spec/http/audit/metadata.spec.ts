import ExcelJS from 'exceljs';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { type AuditPlatform, startAuditPlatform, V3 } from './audit-harness.ts';

// Modules, transactions, warning levels and the metadata spreadsheets end to end.
const test = suite('audit metadata over HTTP');
let p: AuditPlatform;
let acme: string;

test.before(async () => {
  p = await startAuditPlatform();
  acme = await p.token('acme');
});
test.after(async () => {
  await p.stop();
});

const upload = (file: Uint8Array, name: string, token = acme) => {
  const form = new FormData();
  form.append('file', new Blob([file]), name);
  return p.call('POST', `${V3}/metadata/import`, { token, raw: form });
};
const csv = (lines: string[]) => new TextEncoder().encode(lines.join('\r\n'));

test('modules: create, list, get, update; names unique per tenant; other tenants do not see them', async () => {
  const created = await p.call('POST', `${V3}/modules`, {
    token: acme,
    body: { module_name: 'policy', description: 'Policies' },
  });
  assert.is(created.status, 201, JSON.stringify(created.body));
  assert.equal(
    [created.body.module_name, created.body.description, created.body.transaction_count],
    ['policy', 'Policies', 0],
  );
  assert.is(
    (await p.call('POST', `${V3}/modules`, { token: acme, body: { module_name: 'policy' } })).body.code,
    'MODULE.EXISTS',
  );
  const updated = await p.call('PUT', `${V3}/modules/policy`, {
    token: acme,
    body: { module_name: 'policy', description: 'All policies' },
  });
  assert.is(updated.body.description, 'All policies');
  const renamed = await p.call('PUT', `${V3}/modules/policy`, { token: acme, body: { module_name: 'other' } });
  assert.is(renamed.status, 400);
  assert.is(renamed.body.details[0].field, 'module_name');
  const list = await p.call('GET', `${V3}/modules`, { token: acme });
  assert.equal(
    list.body.items.map((m: { module_name: string }) => m.module_name),
    ['policy'],
  );
  assert.equal((await p.call('GET', `${V3}/modules`, { token: await p.token('beta') })).body.items, []);
  assert.is((await p.call('GET', `${V3}/modules/nope`, { token: acme })).status, 404);
  const bad = await p.call('POST', `${V3}/modules`, { token: acme, body: { module_name: 'has space' } });
  assert.is(bad.status, 400);
  assert.is(bad.body.details[0].field, 'module_name');
});

test('transactions belong to a module; a module with transactions cannot be deleted (409)', async () => {
  const t = await p.call('POST', `${V3}/modules/policy/transactions`, {
    token: acme,
    body: { transaction_name: 'createPolicy', transaction_vendor: 'core', description: 'new' },
  });
  assert.is(t.status, 201, JSON.stringify(t.body));
  assert.equal(
    [t.body.module_name, t.body.transaction_name, t.body.transaction_vendor],
    ['policy', 'createPolicy', 'core'],
  );
  assert.is(
    (
      await p.call('POST', `${V3}/modules/policy/transactions`, {
        token: acme,
        body: { transaction_name: 'createPolicy' },
      })
    ).body.code,
    'TRANSACTION.EXISTS',
  );
  assert.is(
    (await p.call('POST', `${V3}/modules/nope/transactions`, { token: acme, body: { transaction_name: 'x' } })).body
      .code,
    'MODULE.NOT_FOUND',
  );
  const changed = await p.call('PUT', `${V3}/modules/policy/transactions/createPolicy`, {
    token: acme,
    body: { description: 'create a policy' },
  });
  assert.equal([changed.body.transaction_vendor, changed.body.description], ['core', 'create a policy']);
  const module = await p.call('GET', `${V3}/modules/policy`, { token: acme });
  assert.is(module.body.transaction_count, 1);
  assert.equal(
    module.body.transactions.map((x: { transaction_name: string }) => x.transaction_name),
    ['createPolicy'],
  );
  const refused = await p.call('DELETE', `${V3}/modules/policy`, { token: acme });
  assert.is(refused.status, 409);
  assert.is(refused.body.code, 'MODULE.HAS_TRANSACTIONS');
  assert.is((await p.call('DELETE', `${V3}/modules/policy/transactions/createPolicy`, { token: acme })).status, 204);
  assert.equal((await p.call('GET', `${V3}/modules/policy/transactions`, { token: acme })).body.items, []);
  assert.is((await p.call('DELETE', `${V3}/modules/policy`, { token: acme })).status, 204);
  assert.is((await p.call('GET', `${V3}/modules/policy`, { token: acme })).status, 404);
});

test('warning levels: INFO and WARN always exist; only the platform operators create more', async () => {
  const list = await p.call('GET', `${V3}/warning-levels`, { token: acme });
  assert.equal(
    list.body.items.map((l: { name: string }) => l.name),
    ['INFO', 'WARN'],
  );
  const refused = await p.call('POST', `${V3}/warning-levels`, { token: acme, body: { name: 'ERROR' } });
  assert.is(refused.status, 403);
  assert.is(refused.body.code, 'WARNING_LEVEL.FORBIDDEN');
  const platform = await p.token('platform');
  const created = await p.call('POST', `${V3}/warning-levels`, {
    token: platform,
    body: { name: 'ERROR', description: 'errors' },
  });
  assert.is(created.status, 201, JSON.stringify(created.body));
  assert.is(
    (await p.call('POST', `${V3}/warning-levels`, { token: platform, body: { name: 'WARN' } })).body.code,
    'WARNING_LEVEL.EXISTS',
  );
  assert.equal(
    (await p.call('GET', `${V3}/warning-levels`, { token: acme })).body.items.map((l: { name: string }) => l.name),
    ['INFO', 'WARN', 'ERROR'],
  );
  // a write may use it at once
  await p.metadata(acme, 'levels', ['levelTx']);
  const w = await p.call('POST', `${V3}/log/sync`, {
    token: acme,
    body: {
      transaction_name: 'levelTx',
      transaction_vendor: '',
      business_code: 'x',
      client_ip: '10.0.0.1',
      new_data: '',
      old_data: '',
      warning_type: 'ERROR',
    },
  });
  assert.is(w.status, 200, JSON.stringify(w.body));
});

test('import (CSV) creates and updates, never deletes; export → import round-trips in both formats', async () => {
  const imported = await upload(
    csv([
      'module_name,module_description,transaction_name,transaction_vendor,transaction_description',
      'claims,Claims,openClaim,claims-core,open a claim',
      'claims,,closeClaim,,',
      '"billing","Billing, invoices",,,',
    ]),
    'metadata.csv',
  );
  assert.is(imported.status, 200, JSON.stringify(imported.body));
  assert.equal(imported.body, {
    format: 'csv',
    rows: 3,
    modules_created: 2,
    modules_updated: 0,
    transactions_created: 2,
    transactions_updated: 0,
  });
  const claims = await p.call('GET', `${V3}/modules/claims`, { token: acme });
  assert.equal(
    claims.body.transactions.map((t: { transaction_name: string; transaction_vendor: string; description: string }) => [
      t.transaction_name,
      t.transaction_vendor,
      t.description,
    ]),
    [
      ['closeClaim', '', ''],
      ['openClaim', 'claims-core', 'open a claim'],
    ],
  );
  assert.is((await p.call('GET', `${V3}/modules/billing`, { token: acme })).body.description, 'Billing, invoices');

  for (const format of ['xlsx', 'csv'] as const) {
    const before = (await p.call('GET', `${V3}/modules`, { token: acme })).body;
    const res = await fetch(`${p.base}${V3}/metadata/export?format=${format}`, {
      headers: { authorization: `Bearer ${acme}` },
    });
    assert.is(res.status, 200);
    assert.match(res.headers.get('content-disposition') ?? '', new RegExp(`audit-metadata-acme\\.${format}`));
    const file = new Uint8Array(await res.arrayBuffer());
    const again = await upload(file, `export.${format}`);
    assert.is(again.status, 200, JSON.stringify(again.body));
    assert.equal(
      [
        again.body.format,
        again.body.modules_created,
        again.body.modules_updated,
        again.body.transactions_created,
        again.body.transactions_updated,
      ],
      [format, 0, 0, 0, 0],
    );
    assert.equal((await p.call('GET', `${V3}/modules`, { token: acme })).body, before);
  }
  // the exported workbook has the documented columns
  const res = await fetch(`${p.base}${V3}/metadata/export?format=xlsx`, {
    headers: { authorization: `Bearer ${acme}` },
  });
  const book = new ExcelJS.Workbook();
  await book.xlsx.load(await res.arrayBuffer());
  assert.equal((book.worksheets[0]!.getRow(1).values as unknown[]).slice(1), [
    'module_name',
    'module_description',
    'transaction_name',
    'transaction_vendor',
    'transaction_description',
  ]);
  // another tenant imports the export into its own metadata
  const beta = await p.token('beta');
  const csvExport = new Uint8Array(
    await (
      await fetch(`${p.base}${V3}/metadata/export?format=csv`, { headers: { authorization: `Bearer ${acme}` } })
    ).arrayBuffer(),
  );
  assert.is((await upload(csvExport, 'm.csv', beta)).body.modules_created, 3);
});

test('import (XLSX) with bad rows: every one reported (row, column, reason); nothing imported', async () => {
  const book = new ExcelJS.Workbook();
  const sheet = book.addWorksheet('metadata');
  sheet.addRow([
    'module_name',
    'module_description',
    'transaction_name',
    'transaction_vendor',
    'transaction_description',
  ]);
  sheet.addRow(['newModule', 'fine', 'fineTx', '', '']);
  sheet.addRow(['', '', 'orphan', '', '']);
  sheet.addRow(['bad name', '', '', '', '']);
  sheet.addRow(['newModule', 'other description', 'otherTx', '', '']);
  sheet.addRow(['newModule', '', 'fineTx', '', '']);
  const file = new Uint8Array(await book.xlsx.writeBuffer());
  const r = await upload(file, 'bad.xlsx');
  assert.is(r.status, 400, JSON.stringify(r.body));
  assert.is(r.body.code, 'METADATA.IMPORT_INVALID');
  assert.equal(
    r.body.details.map((d: { row: number; column: string }) => [d.row, d.column]),
    [
      [3, 'module_name'],
      [4, 'module_name'],
      [5, 'module_description'],
      [6, 'transaction_name'],
    ],
  );
  assert.ok(r.body.details.every((d: { reason: string }) => typeof d.reason === 'string' && d.reason.length > 0));
  assert.is((await p.call('GET', `${V3}/modules/newModule`, { token: acme })).status, 404, 'nothing imported');
});

test('import: not a spreadsheet, no file part, not multipart: 400; oversized: 413', async () => {
  const junk = await upload(new Uint8Array([0xff, 0xfe, 0xfd, 0x00]), 'junk.bin');
  assert.is(junk.status, 400);
  assert.is(junk.body.code, 'METADATA.FILE_INVALID');
  const brokenZip = await upload(new Uint8Array([0x50, 0x4b, 0x03, 0x04, 1, 2, 3]), 'broken.xlsx');
  assert.is(brokenZip.body.code, 'METADATA.FILE_INVALID');
  const form = new FormData();
  form.append('other', 'x');
  assert.is(
    (await p.call('POST', `${V3}/metadata/import`, { token: acme, raw: form })).body.code,
    'METADATA.FILE_INVALID',
  );
  const json = await p.call('POST', `${V3}/metadata/import`, { token: acme, body: { rows: [] } });
  assert.is(json.status, 400);
  assert.is(json.body.code, 'METADATA.FILE_INVALID');
  const big = await upload(new Uint8Array(6 * 1024 * 1024).fill(0x41), 'big.csv');
  assert.is(big.status, 413);
  assert.is(big.body.code, 'METADATA.FILE_TOO_LARGE');
  const header = await upload(csv(['module,description', 'x,y']), 'h.csv');
  assert.is(header.body.code, 'METADATA.IMPORT_INVALID');
  assert.equal(header.body.details[0].row, 1);
});

test('the OpenAPI document lists the audit paths', async () => {
  const doc = await p.call('GET', '/api/platform/audit/1.0/openapi.json');
  assert.is(doc.status, 200);
  for (const path of [
    '/audit/v3/log/sync',
    '/audit/v2/log/sync',
    '/audit/v3/log/query-many',
    '/audit/v3/modules/{module_name}/transactions',
    '/audit/v3/metadata/import',
    '/audit/v3/verify',
    '/audit/v3/retention',
    '/audit/v3/log/export',
  ]) {
    assert.ok(doc.body.paths[`/api/platform/audit/1.0${path}`] !== undefined, path);
  }
});

test.run();
