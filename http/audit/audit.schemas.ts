import {
  LEVEL_PATTERN,
  MAX_BUSINESS_CODE,
  MAX_CLIENT_IP,
  MAX_DESCRIPTION,
  MAX_RETENTION_DAYS,
  MAX_RETURN_SIZE,
  MAX_TAG,
  MAX_TAGS,
  MAX_TRACE_ID,
  MAX_VENDOR,
  NAME_PATTERN,
} from '../../domain/audit/audit.limits.ts';
import { COMPRESS_TYPES } from '../../domain/audit/record.ts';
import { pageSizeSchema } from '../core/paging.ts';
import type { JsonSchema } from '../core/validate.ts';

/** Request and answer schemas of the audit service (snake_case fields, as the spec's). */

export const name: JsonSchema = { type: 'string', pattern: NAME_PATTERN, maxLength: 128 };
const description: JsonSchema = { type: 'string', maxLength: MAX_DESCRIPTION };
const vendor: JsonSchema = { type: 'string', maxLength: MAX_VENDOR };
const tags: JsonSchema = {
  type: 'array',
  maxItems: MAX_TAGS,
  items: { type: 'string', minLength: 1, maxLength: MAX_TAG },
};
/** reads only: the tenancy rule (tenant:cross with allowed_access_tenants), or a token of the platform tenant */
const targetTenantParam: JsonSchema = {
  type: 'string',
  minLength: 1,
  maxLength: 63,
  description:
    "another tenant (tenant:cross and the client's allowed_access_tenants, or a token of the platform tenant)",
};
const instant: JsonSchema = { type: 'string', format: 'date-time', maxLength: 40, example: '2026-03-01T10:00:00.000Z' };

export const logRecordBody: JsonSchema = {
  type: 'object',
  properties: {
    transaction_name: name,
    transaction_vendor: vendor,
    business_code: { type: 'string', maxLength: MAX_BUSINESS_CODE, example: 'PolicyNo:P-1001' },
    client_ip: { type: 'string', maxLength: MAX_CLIENT_IP, example: '10.1.2.3' },
    new_data: {
      type: 'string',
      description: 'JSON text (or empty); with compress_type gzip or deflate: base64 of the compressed JSON text',
    },
    old_data: { type: 'string', description: 'as new_data' },
    warning_type: { type: 'string', pattern: LEVEL_PATTERN, default: 'INFO' },
    trace_id: { type: 'string', maxLength: MAX_TRACE_ID },
    tags,
    compress_type: { type: 'string', enum: [...COMPRESS_TYPES], default: 'none' },
  },
  required: ['transaction_name', 'transaction_vendor', 'business_code', 'client_ip', 'new_data', 'old_data'],
  additionalProperties: false,
};

export const writeAnswer: JsonSchema = {
  type: 'object',
  properties: {
    id: { type: 'string' },
    sequence: { type: 'integer' },
    hash: { type: 'string' },
    time: { type: 'string' },
  },
};

const selection = {
  module_name: name,
  transaction_name: name,
  start_time: instant,
  end_time: instant,
  business_code: { type: 'string', maxLength: MAX_BUSINESS_CODE },
  warning_type: { type: 'string', pattern: LEVEL_PATTERN },
  tags,
  trace_id: { type: 'string', maxLength: MAX_TRACE_ID },
  client_ip: { type: 'string', maxLength: MAX_CLIENT_IP },
  target_tenant: targetTenantParam,
} satisfies Record<string, JsonSchema>;

export const queryBody: JsonSchema = {
  type: 'object',
  properties: {
    ...selection,
    return_size: pageSizeSchema({ max: MAX_RETURN_SIZE, default: 20 }),
    page_num: { type: 'integer', minimum: 1 },
    scroll_id: { type: 'string', maxLength: 64 },
  },
  required: ['module_name', 'transaction_name', 'start_time', 'end_time'],
  additionalProperties: false,
};

export const exportBody: JsonSchema = {
  type: 'object',
  properties: selection,
  required: ['module_name', 'transaction_name', 'start_time', 'end_time'],
  additionalProperties: false,
};

export const recordView: JsonSchema = {
  type: 'object',
  properties: {
    id: { type: 'string' },
    tenant: { type: 'string' },
    sequence: { type: 'integer' },
    time: { type: 'string' },
    module_name: { type: 'string' },
    transaction_name: { type: 'string' },
    transaction_vendor: { type: 'string' },
    business_code: { type: 'string' },
    client_ip: { type: 'string' },
    new_data: { type: 'string' },
    old_data: { type: 'string' },
    warning_type: { type: 'string' },
    trace_id: { type: 'string' },
    tags: { type: 'array', items: { type: 'string' } },
    compress_type: { type: 'string' },
    hash: { type: 'string' },
  },
};

export const queryAnswer: JsonSchema = {
  type: 'object',
  properties: {
    total: { type: 'integer' },
    return_size: { type: 'integer' },
    page_num: { type: 'integer' },
    scroll_id: { type: 'string' },
    records: { type: 'array', items: recordView },
  },
};

export const moduleBody: JsonSchema = {
  type: 'object',
  properties: { module_name: name, description },
  required: ['module_name'],
  additionalProperties: false,
};
export const moduleChange: JsonSchema = {
  type: 'object',
  properties: { module_name: name, description },
  additionalProperties: false,
};
export const transactionBody: JsonSchema = {
  type: 'object',
  properties: { transaction_name: name, transaction_vendor: vendor, description },
  required: ['transaction_name'],
  additionalProperties: false,
};
export const transactionChange: JsonSchema = {
  type: 'object',
  properties: { transaction_name: name, transaction_vendor: vendor, description },
  additionalProperties: false,
};
export const moduleParams: JsonSchema = {
  type: 'object',
  properties: { module_name: name },
  required: ['module_name'],
};
export const transactionParams: JsonSchema = {
  type: 'object',
  properties: { module_name: name, transaction_name: name },
  required: ['module_name', 'transaction_name'],
};

export const transactionView: JsonSchema = {
  type: 'object',
  properties: {
    module_name: { type: 'string' },
    transaction_name: { type: 'string' },
    transaction_vendor: { type: 'string' },
    description: { type: 'string' },
    created_at: { type: 'string' },
    updated_at: { type: 'string' },
  },
};
export const moduleView: JsonSchema = {
  type: 'object',
  properties: {
    module_name: { type: 'string' },
    description: { type: 'string' },
    transaction_count: { type: 'integer' },
    created_at: { type: 'string' },
    updated_at: { type: 'string' },
    transactions: { type: 'array', items: transactionView },
  },
};
export const list = (items: JsonSchema): JsonSchema => ({
  type: 'object',
  properties: { items: { type: 'array', items } },
});

export const levelBody: JsonSchema = {
  type: 'object',
  properties: { name: { type: 'string', pattern: LEVEL_PATTERN }, description },
  required: ['name'],
  additionalProperties: false,
};
export const levelView: JsonSchema = {
  type: 'object',
  properties: {
    name: { type: 'string' },
    description: { type: 'string' },
    built_in: { type: 'boolean' },
    created_at: { type: 'string' },
  },
};

export const formatQuery = (formats: string[], fallback: string): JsonSchema => ({
  type: 'object',
  properties: { format: { type: 'string', enum: formats, default: fallback } },
  additionalProperties: false,
});

export const verifyQuery: JsonSchema = {
  type: 'object',
  properties: {
    from_sequence: { type: 'integer', minimum: 1 },
    to_sequence: { type: 'integer', minimum: 1 },
    target_tenant: targetTenantParam,
  },
  additionalProperties: false,
};

export const recordParams: JsonSchema = {
  type: 'object',
  properties: { id: { type: 'string', minLength: 1, maxLength: 64 } },
  required: ['id'],
};
export const sequenceParams: JsonSchema = {
  type: 'object',
  properties: { sequence: { type: 'integer', minimum: 1 } },
  required: ['sequence'],
};
export const targetTenantQuery: JsonSchema = {
  type: 'object',
  properties: { target_tenant: targetTenantParam },
  additionalProperties: false,
};

export const retentionBody: JsonSchema = {
  type: 'object',
  properties: {
    days: {
      anyOf: [{ type: 'integer', minimum: 1, maximum: MAX_RETENTION_DAYS }, { type: 'null' }],
      description: 'null: keep every record (the default)',
    },
  },
  required: ['days'],
  additionalProperties: false,
};
export const retentionView: JsonSchema = {
  type: 'object',
  properties: {
    days: { type: 'integer', nullable: true },
    retired_through_sequence: { type: 'integer' },
    retired_before: { type: 'string', nullable: true },
    last_run_at: { type: 'string', nullable: true },
  },
};
