import type { IncomingMessage } from 'node:http';
import busboy from 'busboy';
import { Router } from 'express';
import type { CatalogCommands } from '../../commands/audit/catalog.commands.ts';
import type { AuditMetadata } from '../../commands/audit/metadata.cache.ts';
import { auditError } from '../../domain/audit/audit.errors.ts';
import { MAX_IMPORT_BYTES } from '../../domain/audit/audit.limits.ts';
import type { MetadataImported } from '../../domain/audit/catalog.decider.ts';
import { SHEET_COLUMNS, sheetRowsOf, validateSheet } from '../../domain/audit/metadata-sheet.ts';
import type { BearerAuth } from '../core/bearer-auth.ts';
import { commandIdFrom } from '../core/command-id.ts';
import type { RouteRegistry } from '../core/route-registry.ts';
import { commandContext, tenantOf } from '../core/tenancy.ts';
import { AUDIT_ADMIN_SCOPE, METADATA_EXPORT, METADATA_IMPORT } from './audit.paths.ts';
import { formatQuery } from './audit.schemas.ts';
import { attachment, readSheet, type SheetFormat, writeCsv, writeXlsx } from './spreadsheet.ts';

/**
 * The metadata spreadsheet (scope audit:admin; layout: domain/audit/metadata-sheet.ts):
 *
 *   GET  …/metadata/export?format=xlsx|csv   the tenant's modules and transactions (default xlsx)
 *   POST …/metadata/import                   multipart/form-data, part `file`: an XLSX or CSV file (at most
 *                                            5 MiB, 10,000 rows); 200 with what it created and changed, or
 *                                            400 METADATA.IMPORT_INVALID listing every bad row (nothing imported)
 */
export type MetadataSheetRouterDeps = {
  commands: CatalogCommands;
  metadata: Pick<AuditMetadata, 'catalog'>;
  bearer: Pick<BearerAuth, 'authenticate' | 'requireScope'>;
  registry: RouteRegistry;
};

const fileInvalid = (message: string) =>
  auditError('METADATA.FILE_INVALID', message, [{ in: 'body', field: 'file', message }]);

/** the `file` part of a multipart upload, at most MAX_IMPORT_BYTES */
export function readUpload(req: IncomingMessage): Promise<Buffer> {
  if (!/^multipart\/form-data\b/i.test(req.headers['content-type'] ?? '')) {
    return Promise.reject(fileInvalid('send multipart/form-data with the spreadsheet in a part named file'));
  }
  let parser: busboy.Busboy;
  try {
    parser = busboy({ headers: req.headers, limits: { files: 1, fileSize: MAX_IMPORT_BYTES, fields: 20, parts: 30 } });
  } catch (err) {
    return Promise.reject(
      fileInvalid(`malformed multipart request: ${err instanceof Error ? err.message : String(err)}`),
    );
  }
  return new Promise<Buffer>((resolve, reject) => {
    let file: Buffer | undefined;
    let tooLarge = false;
    parser.on('file', (name, stream) => {
      if (name !== 'file') return void stream.resume();
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('limit', () => (tooLarge = true));
      stream.on('end', () => (file = Buffer.concat(chunks)));
    });
    parser.on('error', (err: unknown) =>
      reject(fileInvalid(`malformed multipart request: ${err instanceof Error ? err.message : String(err)}`)),
    );
    parser.on('close', () => {
      if (tooLarge)
        reject(
          auditError('METADATA.FILE_TOO_LARGE', `the file is larger than ${MAX_IMPORT_BYTES} bytes`, {
            limit: MAX_IMPORT_BYTES,
          }),
        );
      else if (file === undefined) reject(fileInvalid('no part named file in the upload'));
      else resolve(file);
    });
    req.pipe(parser);
  });
}

export function createMetadataSheetRouter(deps: MetadataSheetRouterDeps): Router {
  const { commands, metadata, bearer, registry } = deps;
  const router = Router();
  router.use([METADATA_EXPORT, METADATA_IMPORT], bearer.authenticate, bearer.requireScope(AUDIT_ADMIN_SCOPE));

  registry.route(
    router,
    {
      method: 'get',
      path: METADATA_EXPORT,
      summary: 'the metadata as a spreadsheet',
      schemas: { query: formatQuery(['xlsx', 'csv'], 'xlsx') },
      tags: ['metadata'],
    },
    async (req, res) => {
      const format = (req.query as { format: SheetFormat }).format;
      const tenant = tenantOf(res);
      const rows = sheetRowsOf((await metadata.catalog(tenant, 'verified')).state);
      attachment(res, `audit-metadata-${tenant}.${format}`, format);
      const pages = (async function* () {
        yield rows;
      })();
      if (format === 'csv') await writeCsv(res, SHEET_COLUMNS, pages);
      else await writeXlsx(res, 'metadata', SHEET_COLUMNS, pages);
    },
  );

  registry.route(
    router,
    {
      method: 'post',
      path: METADATA_IMPORT,
      summary: 'import modules and transactions from a spreadsheet (multipart, part file)',
      schemas: {},
      requestContentType: 'multipart/form-data',
      tags: ['metadata'],
    },
    async (req, res) => {
      const sheet = await readSheet(await readUpload(req));
      const checked = validateSheet(sheet.header, sheet.rows);
      if ('problems' in checked) {
        const rows = new Set(checked.problems.map((p) => p.row)).size;
        throw auditError('METADATA.IMPORT_INVALID', `${rows} bad row(s); nothing was imported`, checked.problems);
      }
      const result = await commands.import(checked.rows, commandContext(res), commandIdFrom(req));
      const imported = result.events.find((e): e is MetadataImported => e.type === 'MetadataImported')?.data;
      const count = (list: Array<{ created: boolean }> | undefined, created: boolean) =>
        (list ?? []).filter((x) => x.created === created).length;
      res.json({
        format: sheet.format,
        rows: checked.rows.length,
        modules_created: count(imported?.modules, true),
        modules_updated: count(imported?.modules, false),
        transactions_created: count(imported?.transactions, true),
        transactions_updated: count(imported?.transactions, false),
      });
    },
  );
  return router;
}
