import { pageOf, pagingProperties } from '../core/paging.ts';
import type { JsonSchema } from '../core/validate.ts';

const str: JsonSchema = { type: 'string' };
const int: JsonSchema = { type: 'integer' };
const nullable = (s: JsonSchema): JsonSchema => ({ ...s, nullable: true });

/** a projection's name (`bridge.trace`): letters, digits, dots, dashes and underscores */
export const nameParams: JsonSchema = {
  type: 'object',
  properties: { name: { type: 'string', minLength: 1, maxLength: 100, pattern: '^[A-Za-z0-9._-]+$' } },
  required: ['name'],
};

export const rebuildParams: JsonSchema = {
  type: 'object',
  properties: { id: { type: 'string', minLength: 1, maxLength: 64, pattern: '^[A-Za-z0-9-]+$' } },
  required: ['id'],
};

export const parkedQuery: JsonSchema = {
  type: 'object',
  properties: pagingProperties(),
  additionalProperties: false,
};

const STATES = ['running', 'switched', 'failed'];

export const projectionView: JsonSchema = {
  type: 'object',
  properties: {
    name: str,
    version: int,
    generation: int,
    position: str,
    head: str,
    lag: { ...int, description: 'positions between the checkpoint and the log head (0: nothing pending)' },
    parked: int,
    state: { type: 'string', enum: ['stopped', 'running', 'rebuilding', 'retrying'] },
    lastError: nullable(str),
    rebuild: {
      type: 'object',
      nullable: true,
      properties: { id: str, state: { type: 'string', enum: STATES } },
      required: ['id', 'state'],
    },
  },
  required: ['name', 'version', 'generation', 'position', 'head', 'lag', 'parked', 'state', 'lastError', 'rebuild'],
};

export const projectionList: JsonSchema = {
  type: 'object',
  properties: { items: { type: 'array', items: projectionView } },
  required: ['items'],
};

export const parkedView: JsonSchema = {
  type: 'object',
  properties: {
    id: str,
    position: str,
    eventId: str,
    stream: str,
    revision: int,
    type: str,
    error: str,
    parkedAt: str,
    retries: int,
  },
  required: ['id', 'position', 'eventId', 'stream', 'revision', 'type', 'error', 'parkedAt', 'retries'],
};

export const parkedPage: JsonSchema = pageOf(parkedView);

export const retryView: JsonSchema = {
  type: 'object',
  properties: { applied: int, failed: int },
  required: ['applied', 'failed'],
};

export const rebuildView: JsonSchema = {
  type: 'object',
  properties: {
    id: str,
    projection: str,
    state: { type: 'string', enum: STATES },
    startedAt: str,
    finishedAt: nullable(str),
    generation: nullable(int),
    error: nullable(str),
    progress: {
      type: 'object',
      properties: {
        done: { ...int, description: 'log positions covered' },
        total: { ...int, description: "the log's head when the rebuild began" },
        percent: int,
        events: int,
        rate: { ...int, description: 'events per second' },
        etaSeconds: nullable(int),
      },
      required: ['done', 'total', 'percent', 'events', 'rate', 'etaSeconds'],
    },
  },
  required: ['id', 'projection', 'state', 'startedAt', 'finishedAt', 'generation', 'error', 'progress'],
};

const check: JsonSchema = {
  type: 'object',
  properties: {
    name: str,
    ok: { type: 'boolean' },
    detail: nullable(str),
    lag: nullable(int),
    parked: nullable(int),
    backlog: nullable(int),
  },
  required: ['name', 'ok', 'detail', 'lag', 'parked', 'backlog'],
};

const engine: JsonSchema = {
  type: 'object',
  properties: {
    name: str,
    state: { type: 'string', enum: ['stopped', 'running', 'retrying'] },
    due: { ...int, description: 'items due now and not leased' },
    leased: nullable({ ...int, description: 'items leased now, by any process' }),
    inFlight: { ...int, description: 'items this process runs now' },
    lastError: nullable(str),
  },
  required: ['name', 'state', 'due', 'leased', 'inFlight', 'lastError'],
};

export const readinessView: JsonSchema = {
  type: 'object',
  properties: {
    ok: { type: 'boolean' },
    workers: { type: 'boolean' },
    checks: { type: 'array', items: check },
    engines: { type: 'array', items: engine },
  },
  required: ['ok', 'workers', 'checks', 'engines'],
};
