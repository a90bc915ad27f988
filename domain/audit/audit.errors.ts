import { type ErrorCatalog, errorFactory } from '../core/core.errors.ts';

/**
 * The audit service's error codes with the HTTP status each is answered with (DESIGN "Services as modules":
 * per service, its error codes live once). Every audit error is thrown through `auditError(code, …)`.
 * Codes every service shares (REQUEST.INVALID, REQUEST.IDEMPOTENCY_KEY_REUSED, CONCURRENCY.CONFLICT …) are in
 * domain/core/core.errors.ts. spec/domain/audit/audit.errors.spec.ts scans the audit sources against this table.
 */
export const AUDIT_ERRORS = {
  // metadata: modules, transactions, warning levels
  'MODULE.NOT_FOUND': 404,
  'MODULE.EXISTS': 409,
  /** a module is deleted only when it has no transactions left */
  'MODULE.HAS_TRANSACTIONS': 409,
  'TRANSACTION.NOT_FOUND': 404,
  'TRANSACTION.EXISTS': 409,
  'WARNING_LEVEL.EXISTS': 409,
  /** warning levels are created by the platform's operators only (the `platform` tenant) */
  'WARNING_LEVEL.FORBIDDEN': 403,
  /** a metadata spreadsheet with bad rows: details list every one (row, column, reason); nothing imported */
  'METADATA.IMPORT_INVALID': 400,
  /** not a readable XLSX or CSV file, or no `file` part */
  'METADATA.FILE_INVALID': 400,
  'METADATA.FILE_TOO_LARGE': 413,

  // log records (log/sync)
  /** transaction_name is not in the tenant's metadata */
  'AUDIT_RECORD.TRANSACTION_UNKNOWN': 400,
  /** transaction_name exists in several modules and transaction_vendor does not tell them apart */
  'AUDIT_RECORD.TRANSACTION_AMBIGUOUS': 400,
  'AUDIT_RECORD.WARNING_LEVEL_UNKNOWN': 400,
  /** new_data / old_data: not JSON text, bad base64, a bad compressed stream, not UTF-8 */
  'AUDIT_RECORD.DATA_INVALID': 400,
  /** new_data / old_data above the size limit once decompressed */
  'AUDIT_RECORD.DATA_TOO_LARGE': 400,
  /** no record of that id or sequence in the tenant's query store (never written, another tenant's, or retired) */
  'AUDIT_RECORD.NOT_FOUND': 404,

  // queries (log/query-many, log/export)
  /** a bad time range, both or neither of page_num and scroll_id */
  'AUDIT_QUERY.INVALID': 400,
  /** page_num × return_size above 10,000: scroll mode is the way to read further */
  'AUDIT_QUERY.PAGE_TOO_DEEP': 400,
  'SCROLL.NOT_FOUND': 404,
  'SCROLL.EXPIRED': 410,

  // tamper check and retention
  'VERIFY.RANGE_INVALID': 400,
  'RETENTION.INVALID': 400,
} as const satisfies ErrorCatalog;

export type AuditErrorCode = keyof typeof AUDIT_ERRORS;

/** `auditError('MODULE.NOT_FOUND', 'no module m1', details)`: a DomainError with the catalog's status. */
export const auditError = errorFactory(AUDIT_ERRORS);
