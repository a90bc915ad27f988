import { pageOf, pagingProperties } from '../core/paging.ts';
import type { JsonSchema } from '../core/validate.ts';

const str: JsonSchema = { type: 'string' };
const nullableStr: JsonSchema = { type: 'string', nullable: true };
const id = (description: string): JsonSchema => ({ type: 'string', minLength: 1, maxLength: 300, description });

/** one selection of `platform replay`: a correlation id, a stream, or a time window (with a category) */
export const timelineQuery: JsonSchema = {
  type: 'object',
  properties: {
    correlation: id('every event whose correlation or causation id is this'),
    stream: id('the events of one stream (`user-demo.<id>`)'),
    from: { type: 'string', format: 'date-time', description: 'with `to`: events that occurred from then' },
    to: { type: 'string', format: 'date-time', description: 'with `from`: events that occurred until then' },
    category: {
      type: 'string',
      pattern: '^[a-z][A-Za-z0-9]*$',
      maxLength: 100,
      description: 'with `from`/`to`: only streams of this category',
    },
    ...pagingProperties(),
  },
  additionalProperties: false,
};

export const timelineEvent: JsonSchema = {
  type: 'object',
  properties: {
    position: str,
    eventId: str,
    occurredAt: str,
    service: str,
    category: str,
    stream: str,
    revision: { type: 'integer' },
    type: str,
    tenant: str,
    actor: nullableStr,
    correlationId: nullableStr,
    causationId: nullableStr,
    data: { description: 'the event data, secrets shown as [sealed], [secret] or [redacted]' },
    hasState: { type: 'boolean' },
  },
  required: [
    'position',
    'eventId',
    'occurredAt',
    'service',
    'category',
    'stream',
    'revision',
    'type',
    'tenant',
    'actor',
    'correlationId',
    'causationId',
    'data',
    'hasState',
  ],
};

export const timelinePage: JsonSchema = pageOf(timelineEvent);

export const streamParams: JsonSchema = {
  type: 'object',
  properties: { stream: id('a stream name (`user-demo.<id>`)') },
  required: ['stream'],
};

export const stateQuery: JsonSchema = {
  type: 'object',
  properties: { revision: { type: 'integer', minimum: 0 } },
  required: ['revision'],
  additionalProperties: false,
};

export const streamState: JsonSchema = {
  type: 'object',
  properties: {
    stream: str,
    service: str,
    revision: { type: 'integer' },
    type: { ...str, description: 'the type of the event at that revision' },
    state: { description: "the decider's fold up to that revision, secrets shown as in `platform replay --state`" },
  },
  required: ['stream', 'service', 'revision', 'type', 'state'],
};
