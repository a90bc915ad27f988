import type { Conversion, ParamForm, Target, TargetParam } from '../../domain/bridge/model.ts';
import { coreError } from '../../domain/core/core.errors.ts';
import type { ValidationIssue } from '../core/validate.ts';

/**
 * Target records as clients send them: the spec's PascalCase keys (Id, TypeId, Endpoint,
 * PushRetryStrategy, ErrorTolerance or ErrorsTolerance, DeadLetterRecord, Params with ResourceKey, Form,
 * Value, Template) or the canonical camelCase, to the canonical Target (domain/bridge/model.ts). The same
 * field under two spellings with different values is a 400 naming it; with the same value it is accepted.
 * Defaults: pushRetryStrategy BACKOFF_RETRY (the spec's default strategy), errorTolerance ALL (the spec's
 * recommendation), deadLetterRecord false, params [], conversion complete event. A TEMPLATE parameter's
 * Value may also be sent as the variable-map object itself; it is stored as its JSON text.
 */
type Raw = Record<string, unknown>;

const TARGET_SPELLINGS: Record<keyof Omit<Target, never>, string[]> = {
  id: ['id', 'Id'],
  typeId: ['typeId', 'TypeId'],
  endpoint: ['endpoint', 'Endpoint'],
  pushRetryStrategy: ['pushRetryStrategy', 'PushRetryStrategy'],
  errorTolerance: ['errorTolerance', 'ErrorTolerance', 'ErrorsTolerance', 'errorsTolerance'],
  deadLetterRecord: ['deadLetterRecord', 'DeadLetterRecord'],
  params: ['params', 'Params'],
  conversion: ['conversion', 'Conversion'],
};
const PARAM_SPELLINGS: Record<keyof TargetParam, string[]> = {
  resourceKey: ['resourceKey', 'ResourceKey'],
  form: ['form', 'Form'],
  value: ['value', 'Value'],
  template: ['template', 'Template'],
};

/** every spelling a target or parameter accepts (for the ajv schema) */
export const TARGET_KEYS = Object.values(TARGET_SPELLINGS).flat();
export const PARAM_KEYS = Object.values(PARAM_SPELLINGS).flat();

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** The one value given under any of `names`; a conflict is an issue, absence is undefined. */
function pick(raw: Raw, names: string[], base: string, canonical: string, issues: ValidationIssue[]): unknown {
  const given = names.filter((n) => raw[n] !== undefined);
  if (given.length === 0) return undefined;
  const first = raw[given[0]!];
  const clash = given.find((n) => !same(raw[n], first));
  if (clash !== undefined) {
    issues.push({
      in: 'body',
      field: `${base}.${canonical}`,
      message: `is given as ${given.join(' and ')} with different values`,
      keyword: 'conflict',
    });
  }
  return first;
}

function toParam(raw: Raw, base: string, issues: ValidationIssue[]): TargetParam {
  const resourceKey = pick(raw, PARAM_SPELLINGS.resourceKey, base, 'resourceKey', issues);
  const form = pick(raw, PARAM_SPELLINGS.form, base, 'form', issues);
  let value = pick(raw, PARAM_SPELLINGS.value, base, 'value', issues);
  const template = pick(raw, PARAM_SPELLINGS.template, base, 'template', issues);
  if (resourceKey === undefined)
    issues.push({ in: 'body', field: `${base}.resourceKey`, message: 'is required', keyword: 'required' });
  if (form === undefined)
    issues.push({ in: 'body', field: `${base}.form`, message: 'is required', keyword: 'required' });
  if (typeof value === 'object' && value !== null) value = JSON.stringify(value);
  // ORIGINAL needs no value; every other form checks its value in the decider
  if (value === undefined && form !== 'ORIGINAL')
    issues.push({ in: 'body', field: `${base}.value`, message: 'is required', keyword: 'required' });
  return {
    resourceKey: resourceKey as string,
    form: form as ParamForm,
    value: (value as string | undefined) ?? '',
    ...(template !== undefined && { template: template as string }),
  };
}

export function toTarget(raw: Raw, base: string, issues: ValidationIssue[]): Target {
  const get = (k: keyof Target) => pick(raw, TARGET_SPELLINGS[k], base, k, issues);
  const id = get('id');
  const typeId = get('typeId');
  if (id === undefined) issues.push({ in: 'body', field: `${base}.id`, message: 'is required', keyword: 'required' });
  if (typeId === undefined)
    issues.push({ in: 'body', field: `${base}.typeId`, message: 'is required', keyword: 'required' });
  const endpoint = get('endpoint');
  const params = (get('params') as Raw[] | undefined) ?? [];
  return {
    id: id as number,
    typeId: typeId as number,
    ...(endpoint !== undefined && { endpoint: endpoint as string }),
    pushRetryStrategy: (get('pushRetryStrategy') as Target['pushRetryStrategy'] | undefined) ?? 'BACKOFF_RETRY',
    errorTolerance: (get('errorTolerance') as Target['errorTolerance'] | undefined) ?? 'ALL',
    deadLetterRecord: (get('deadLetterRecord') as boolean | undefined) ?? false,
    params: params.map((p, i) => toParam(p, `${base}.params.${i}`, issues)),
    conversion: (get('conversion') as Conversion | undefined) ?? { kind: 'complete' },
  };
}

/** All targets of a request body, or a 400 REQUEST.INVALID naming every bad field. */
export function targetsFromBody(raw: unknown, field = 'targets'): Target[] {
  const issues: ValidationIssue[] = [];
  const targets = (raw as Raw[]).map((t, i) => toTarget(t, `${field}.${i}`, issues));
  if (issues.length > 0) {
    throw coreError(
      'REQUEST.INVALID',
      `request validation failed: ${issues.map((i) => `body.${i.field} ${i.message}`).join('; ')}`,
      issues,
    );
  }
  return targets;
}
