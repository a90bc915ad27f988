import { isConfigKey } from './config-entry.decider.ts';
import { checkConversion } from './conversion/conversion.validate.ts';
import { checkJsonPath } from './conversion/json-path.ts';
import { checkTemplate, parseVariableMap } from './conversion/template.ts';
import type { ParamForm, Target } from './model.ts';
import { validateTargetParams } from './target-params.ts';
import { at, type Violation } from './violation.ts';

/**
 * The shape of a target record (the spec's table, canonical camelCase) and of each parameter entry, then
 * the per-type tables (target-params.ts). Fields are named under `base` (`targets.0`).
 */
export const PARAM_FORMS: readonly ParamForm[] = [
  'CONSTANT',
  'ENV_PARAM',
  'JSONPATH',
  'TEMPLATE',
  'ORIGINAL',
  'TENANT_PROFILE',
];
export const PUSH_RETRY_STRATEGIES = ['BACKOFF_RETRY', 'EXPONENTIAL_DECAY_RETRY'] as const;
export const ERROR_TOLERANCES = ['ALL', 'NONE'] as const;
export const MAX_TARGET_PARAMS = 30;
export const MAX_PARAM_VALUE_LENGTH = 64 * 1024;
export const MAX_ENDPOINT_LENGTH = 2048;
export const RESOURCE_KEY = /^[A-Za-z][A-Za-z0-9_]{0,63}$/;
const PROFILE_KEY = /^[A-Za-z][A-Za-z0-9_.-]{0,63}$/;
const TARGET_FIELDS = [
  'id',
  'typeId',
  'endpoint',
  'pushRetryStrategy',
  'errorTolerance',
  'deadLetterRecord',
  'params',
  'conversion',
];
const PARAM_FIELDS = ['resourceKey', 'form', 'value', 'template'];

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isInt = (v: unknown, min: number, max: number) =>
  typeof v === 'number' && Number.isInteger(v) && v >= min && v <= max;

function checkParam(p: unknown, base: string): Violation[] {
  if (!isObject(p)) return [{ field: base, message: 'must be an object with resourceKey, form, value' }];
  const v: Violation[] = Object.keys(p)
    .filter((k) => !PARAM_FIELDS.includes(k))
    .map((k) => ({ field: at(base, k), message: 'is not a parameter field' }));
  if (typeof p.resourceKey !== 'string' || !RESOURCE_KEY.test(p.resourceKey)) {
    v.push({ field: at(base, 'resourceKey'), message: 'must be a parameter name (letters, digits, _)' });
  }
  const form = p.form;
  if (typeof form !== 'string' || !(PARAM_FORMS as readonly string[]).includes(form)) {
    v.push({ field: at(base, 'form'), message: `must be one of ${PARAM_FORMS.join(', ')}` });
    return v;
  }
  if (typeof p.value !== 'string' || p.value.length > MAX_PARAM_VALUE_LENGTH) {
    v.push({ field: at(base, 'value'), message: `must be a string of at most ${MAX_PARAM_VALUE_LENGTH} characters` });
    return v;
  }
  if (p.template !== undefined && form !== 'TEMPLATE')
    v.push({ field: at(base, 'template'), message: 'is only for the TEMPLATE form' });
  switch (form as ParamForm) {
    case 'CONSTANT':
    case 'ORIGINAL':
      break;
    case 'ENV_PARAM':
      if (!isConfigKey(p.value))
        v.push({ field: at(base, 'value'), message: 'must be a configuration-center key (e.g. alert.token)' });
      break;
    case 'JSONPATH': {
      const problem = checkJsonPath(p.value);
      if (problem !== null) v.push({ field: at(base, 'value'), message: problem });
      break;
    }
    case 'TENANT_PROFILE':
      if (!PROFILE_KEY.test(p.value))
        v.push({ field: at(base, 'value'), message: 'must name a tenant profile attribute (e.g. supportMailGroup)' });
      break;
    case 'TEMPLATE': {
      const map = parseVariableMap(p.value);
      if ('error' in map) {
        v.push({ field: at(base, 'value'), message: map.error });
        break;
      }
      if (typeof p.template !== 'string') {
        v.push({ field: at(base, 'template'), message: 'is required for the TEMPLATE form' });
        break;
      }
      for (const problem of checkTemplate(map.variables, p.template)) {
        const field = problem.where === 'template' ? at(base, 'template') : at(base, 'value');
        v.push({
          field,
          message: problem.key === undefined ? problem.message : `variable ${problem.key}: ${problem.message}`,
        });
      }
      break;
    }
  }
  return v;
}

/** All problems of one target record; empty when it may be stored. */
export function validateTarget(target: unknown, base: string): Violation[] {
  if (!isObject(target)) return [{ field: base, message: 'must be a target object' }];
  const v: Violation[] = Object.keys(target)
    .filter((k) => !TARGET_FIELDS.includes(k))
    .map((k) => ({ field: at(base, k), message: 'is not a target field' }));
  if (!isInt(target.id, 0, 2 ** 31 - 1)) v.push({ field: at(base, 'id'), message: 'must be a non-negative integer' });
  if (!isInt(target.typeId, 0, 2 ** 31 - 1))
    v.push({ field: at(base, 'typeId'), message: 'must be a non-negative integer' });
  if (
    target.endpoint !== undefined &&
    (typeof target.endpoint !== 'string' ||
      target.endpoint.length === 0 ||
      target.endpoint.length > MAX_ENDPOINT_LENGTH)
  ) {
    v.push({ field: at(base, 'endpoint'), message: `must be a string of 1-${MAX_ENDPOINT_LENGTH} characters` });
  }
  if (!(PUSH_RETRY_STRATEGIES as readonly unknown[]).includes(target.pushRetryStrategy)) {
    v.push({ field: at(base, 'pushRetryStrategy'), message: `must be ${PUSH_RETRY_STRATEGIES.join(' or ')}` });
  }
  if (!(ERROR_TOLERANCES as readonly unknown[]).includes(target.errorTolerance)) {
    v.push({ field: at(base, 'errorTolerance'), message: `must be ${ERROR_TOLERANCES.join(' or ')}` });
  }
  if (typeof target.deadLetterRecord !== 'boolean')
    v.push({ field: at(base, 'deadLetterRecord'), message: 'must be a boolean' });
  v.push(...checkConversion(target.conversion, at(base, 'conversion')));
  if (!Array.isArray(target.params) || target.params.length > MAX_TARGET_PARAMS) {
    v.push({ field: at(base, 'params'), message: `must be an array of at most ${MAX_TARGET_PARAMS} parameters` });
    return v;
  }
  const paramViolations = target.params.flatMap((p, i) => checkParam(p, at(at(base, 'params'), i)));
  v.push(...paramViolations);
  // the per-type tables only make sense over well-formed entries
  if (paramViolations.length === 0 && isInt(target.typeId, 0, 2 ** 31 - 1)) {
    for (const t of validateTargetParams(target as Pick<Target, 'typeId' | 'params'>))
      v.push({ field: at(base, t.field), message: t.message });
  }
  return v;
}
