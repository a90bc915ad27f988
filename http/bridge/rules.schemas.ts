import {
  CONFIG_KEY,
  MAX_CONFIG_KEY_LENGTH,
  MAX_CONFIG_VALUE_LENGTH,
} from '../../domain/bridge/config-entry.decider.ts';
import { MAX_TARGETS_PER_RULE } from '../../domain/bridge/model.ts';
import { MAX_BUS_NAME, MAX_RULE_DESCRIPTION, MAX_RULE_NAME, RULE_ID } from '../../domain/bridge/rule.decider.ts';
import {
  ERROR_TOLERANCES,
  MAX_ENDPOINT_LENGTH,
  MAX_PARAM_VALUE_LENGTH,
  MAX_TARGET_PARAMS,
  PARAM_FORMS,
  PUSH_RETRY_STRATEGIES,
} from '../../domain/bridge/target.validate.ts';
import { PATTERN_LIMITS } from '../../domain/core/input-limits.ts';
import { pageOf, pagingProperties } from '../core/paging.ts';
import type { JsonSchema, RequestSchemas } from '../core/validate.ts';

/** ajv schemas of the rules and configuration-center admin API (also its OpenAPI document). */

const int = { type: 'integer', minimum: 0, maximum: 2 ** 31 - 1 };
const paramValue = { type: 'string', maxLength: MAX_PARAM_VALUE_LENGTH };
const retry = { type: 'string', enum: [...PUSH_RETRY_STRATEGIES] };
const tolerance = { type: 'string', enum: [...ERROR_TOLERANCES] };
const endpoint = { type: 'string', minLength: 1, maxLength: MAX_ENDPOINT_LENGTH };
const form = { type: 'string', enum: [...PARAM_FORMS] };
const resourceKey = { type: 'string', minLength: 1, maxLength: 64 };

const param: JsonSchema = {
  type: 'object',
  description: 'a target parameter; PascalCase (ResourceKey, Form, Value, Template) or camelCase',
  properties: {
    resourceKey,
    ResourceKey: resourceKey,
    form,
    Form: form,
    // a TEMPLATE's variable map may come as the object itself
    value: { anyOf: [paramValue, { type: 'object' }] },
    Value: { anyOf: [paramValue, { type: 'object' }] },
    template: paramValue,
    Template: paramValue,
  },
  additionalProperties: false,
};
const params = { type: 'array', maxItems: MAX_TARGET_PARAMS, items: param };

export const conversionSchema: JsonSchema = {
  type: 'object',
  description:
    'the payload handed to the target: {kind: complete} | {kind: partial, path} | {kind: constant, value} | ' +
    '{kind: template, variables, template} | {kind: env, key}',
  properties: {
    kind: { type: 'string', enum: ['complete', 'partial', 'constant', 'template', 'env'] },
    path: { type: 'string' },
    value: {},
    variables: { type: 'object' },
    template: { type: 'string' },
    key: { type: 'string' },
  },
  required: ['kind'],
  additionalProperties: false,
};

export const targetSchema: JsonSchema = {
  type: 'object',
  description: "the spec's target record, PascalCase (Id, TypeId, …; ErrorsTolerance too) or camelCase",
  properties: {
    id: int,
    Id: int,
    typeId: {
      ...int,
      description: '1 mail, 2 platform message queue, 3 preset HTTP client, 4 API destination, 5 user message box',
    },
    TypeId: int,
    endpoint,
    Endpoint: endpoint,
    pushRetryStrategy: retry,
    PushRetryStrategy: retry,
    errorTolerance: tolerance,
    ErrorTolerance: tolerance,
    ErrorsTolerance: tolerance,
    errorsTolerance: tolerance,
    deadLetterRecord: { type: 'boolean' },
    DeadLetterRecord: { type: 'boolean' },
    params,
    Params: params,
    conversion: conversionSchema,
    Conversion: conversionSchema,
  },
  additionalProperties: false,
};

const ruleId = { type: 'string', pattern: RULE_ID.source };
const name = { type: 'string', minLength: 1, maxLength: MAX_RULE_NAME };
const description = { type: 'string', maxLength: MAX_RULE_DESCRIPTION };
const bus = { type: 'string', minLength: 1, maxLength: MAX_BUS_NAME };
// validated by the pattern parser, which names the exact path of a problem
const pattern: JsonSchema = {
  description: `the filter pattern (a JSON object mirroring the event; every value an array of matchers); input limits: ${PATTERN_LIMITS.maxDepth} levels deep, ${PATTERN_LIMITS.maxKeys} keys per object, ${PATTERN_LIMITS.maxTotalKeys} in all, arrays of ${PATTERN_LIMITS.maxArrayLength}, strings of ${PATTERN_LIMITS.maxStringLength} characters`,
};
const targets = { type: 'array', minItems: 1, maxItems: MAX_TARGETS_PER_RULE, items: targetSchema };
const paging = pagingProperties();
const idPath: JsonSchema = { type: 'object', properties: { id: ruleId }, required: ['id'] };
const configKey = { type: 'string', pattern: CONFIG_KEY.source, maxLength: MAX_CONFIG_KEY_LENGTH };
const keyPath: JsonSchema = { type: 'object', properties: { key: configKey }, required: ['key'] };

const canonicalTarget: JsonSchema = {
  type: 'object',
  description: 'a target in canonical camelCase (see the request schema)',
};
export const ruleResponse: JsonSchema = {
  type: 'object',
  properties: {
    id: { type: 'string' },
    tenant: { type: 'string' },
    bus: { type: 'string' },
    busKind: { type: 'string', enum: ['platform', 'baseline', 'custom'] },
    name: { type: 'string' },
    description: { type: 'string', nullable: true },
    pattern: { type: 'object' },
    targets: { type: 'array', items: canonicalTarget },
    enabled: { type: 'boolean' },
    platform: { type: 'boolean' },
    createdAt: { type: 'string', format: 'date-time' },
    updatedAt: { type: 'string', format: 'date-time' },
    revision: { type: 'integer' },
  },
};
export const configResponse: JsonSchema = {
  type: 'object',
  properties: {
    key: { type: 'string' },
    value: { type: 'string', description: 'a secret shows as ******' },
    secret: { type: 'boolean' },
    updatedAt: { type: 'string', format: 'date-time' },
  },
};
const platformRuleResponse: JsonSchema = {
  type: 'object',
  properties: {
    id: { type: 'string' },
    bus: { type: 'string' },
    name: { type: 'string' },
    description: { type: 'string', nullable: true },
    pattern: { type: 'object' },
    enabled: { type: 'boolean' },
    targets: {
      type: 'array',
      items: { type: 'object', properties: { id: { type: 'integer' }, typeId: { type: 'integer' } } },
    },
    optedOut: { type: 'boolean' },
    optedOutSince: { type: 'string', nullable: true },
  },
};

export const schemas = {
  createRule: {
    body: {
      type: 'object',
      properties: {
        id: ruleId,
        bus,
        name,
        description,
        pattern,
        targets,
        enabled: { type: 'boolean' },
        platform: { type: 'boolean' },
      },
      required: ['bus', 'name', 'pattern', 'targets'],
      additionalProperties: false,
    },
    response: ruleResponse,
  },
  listRules: {
    query: {
      type: 'object',
      properties: { ...paging, bus, enabled: { type: 'boolean' } },
      additionalProperties: false,
    },
    response: pageOf(ruleResponse),
  },
  rulePath: { params: idPath, response: ruleResponse },
  deleteRule: { params: idPath },
  updateRule: {
    params: idPath,
    body: {
      type: 'object',
      properties: {
        // the bus cannot change; naming the current one is allowed
        bus,
        name,
        description: { anyOf: [description, { type: 'null' }] },
        pattern,
        targets,
        enabled: { type: 'boolean' },
      },
      minProperties: 1,
      additionalProperties: false,
    },
    response: ruleResponse,
  },
  listPlatformRules: {
    query: { type: 'object', properties: { ...paging, bus }, additionalProperties: false },
    response: pageOf(platformRuleResponse),
  },
  optOut: {
    params: idPath,
    response: { type: 'object', properties: { id: { type: 'string' }, optedOut: { type: 'boolean' } } },
  },
  testPattern: {
    body: {
      type: 'object',
      properties: {
        pattern,
        event: { type: 'object', description: 'the event to test (canonical or lower-case envelope names)' },
      },
      required: ['pattern', 'event'],
      additionalProperties: false,
    },
    response: { type: 'object', properties: { match: { type: 'boolean' } }, required: ['match'] },
  },
  putConfig: {
    params: keyPath,
    body: {
      type: 'object',
      properties: { value: { type: 'string', maxLength: MAX_CONFIG_VALUE_LENGTH }, secret: { type: 'boolean' } },
      required: ['value'],
      additionalProperties: false,
    },
    response: configResponse,
  },
  listConfig: {
    query: {
      type: 'object',
      properties: { ...paging, prefix: { type: 'string', maxLength: MAX_CONFIG_KEY_LENGTH } },
      additionalProperties: false,
    },
    response: pageOf(configResponse),
  },
  configPath: { params: keyPath, response: configResponse },
  deleteConfig: { params: keyPath },
} satisfies Record<string, RequestSchemas & { response?: JsonSchema }>;
