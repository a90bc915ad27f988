/**
 * The audit service's documented limits (docs/audit.md#what-the-platform-chose-where-the-spec-is-silent); the
 * spec shows none ("Maximum return_size and other audit limits: not shown"). The request schemas (http/audit)
 * and the validators here share them.
 */

/** module and transaction names: 1-128 letters, digits and `_ . : @ -`, starting with a letter or digit */
export const NAME_PATTERN = '^[A-Za-z0-9][A-Za-z0-9_.:@-]{0,127}$';
export const NAME = new RegExp(NAME_PATTERN);
/** warning levels: upper case letters, digits and `_`, 1-32, starting with a letter (INFO, WARN, ERROR …) */
export const LEVEL_PATTERN = '^[A-Z][A-Z0-9_]{0,31}$';
export const LEVEL = new RegExp(LEVEL_PATTERN);

export const MAX_DESCRIPTION = 500;
export const MAX_VENDOR = 128;
export const MAX_BUSINESS_CODE = 512;
export const MAX_TRACE_ID = 128;
export const MAX_TAGS = 32;
export const MAX_TAG = 64;
/** an address in text form: the longest IPv6 form (with an embedded IPv4) is 45 characters */
export const MAX_CLIENT_IP = 45;
/** new_data and old_data, each: UTF-8 bytes of JSON text once decompressed (1 MiB) */
export const MAX_DATA_BYTES = 1_048_576;

/** return_size: default and maximum */
export const DEFAULT_RETURN_SIZE = 20;
export const MAX_RETURN_SIZE = 1000;
/** page mode reaches at most this many records (page_num × return_size); further is scroll mode */
export const MAX_PAGE_WINDOW = 10_000;

/** metadata import: rows (the header row excluded), file size, uncompressed size of an XLSX's parts */
export const MAX_IMPORT_ROWS = 10_000;
export const MAX_IMPORT_BYTES = 5 * 1024 * 1024;
export const MAX_XLSX_UNCOMPRESSED_BYTES = 64 * 1024 * 1024;

/** retention in days: 1 day to 100 years; null keeps records forever (the default) */
export const MAX_RETENTION_DAYS = 36_500;
