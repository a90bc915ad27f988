import { assertNever } from '../../core/decider.ts';
import type { BridgeEvent, TargetParam } from '../model.ts';
import type { EnvLookup } from './convert.ts';
import { queryPath } from './json-path.ts';
import { parseVariableMap, renderTemplate } from './template.ts';

/**
 * The value of one target parameter (the spec's Params entries: ResourceKey, Form, Value, Template):
 * - CONSTANT: Value as written (a string)
 * - ENV_PARAM: the configuration-center value of the key in Value
 * - JSONPATH: the value the path in Value finds in the event (several matches: an array)
 * - TEMPLATE: Value is the variable map (a JSON object string), Template the text (see template.ts)
 * - ORIGINAL: the complete event
 * - TENANT_PROFILE: looked up in the tenant's profile (tenant management) by the delivery: resolved
 *   here only when a `tenantProfile` lookup is passed, else answered as `unresolved`.
 */
export type ParamValue =
  | { status: 'ok'; value: unknown; missing: string[] }
  | { status: 'error'; error: string }
  | { status: 'unresolved'; form: 'TENANT_PROFILE'; key: string };

/** A tenant-profile attribute of the event's tenant (e.g. its support mail group), undefined when unset. */
export type TenantProfileLookup = (key: string) => Promise<string | undefined>;

const ok = (value: unknown, missing: string[] = []): ParamValue => ({ status: 'ok', value, missing });
const fail = (resourceKey: string, error: string): ParamValue => ({
  status: 'error',
  error: `${resourceKey}: ${error}`,
});

export async function renderParam(
  event: BridgeEvent,
  param: TargetParam,
  env: EnvLookup,
  tenantProfile?: TenantProfileLookup,
): Promise<ParamValue> {
  const form = param.form;
  switch (form) {
    case 'CONSTANT':
      return ok(param.value);
    case 'ENV_PARAM': {
      const value = await env(param.value);
      return value === undefined ? fail(param.resourceKey, `configuration key ${param.value} is not set`) : ok(value);
    }
    case 'JSONPATH': {
      const q = queryPath(event, param.value);
      if (q.status === 'invalid') return fail(param.resourceKey, q.error);
      if (q.status === 'none') return fail(param.resourceKey, `JSONPath ${param.value}: path matched nothing`);
      return ok(q.value);
    }
    case 'TEMPLATE': {
      const map = parseVariableMap(param.value);
      if ('error' in map) return fail(param.resourceKey, `Value ${map.error}`);
      const r = renderTemplate(event, map.variables, param.template ?? '');
      return r.ok ? ok(r.payload, r.missing) : fail(param.resourceKey, r.error);
    }
    case 'ORIGINAL':
      return ok(event);
    case 'TENANT_PROFILE': {
      if (tenantProfile === undefined) return { status: 'unresolved', form, key: param.value };
      const value = await tenantProfile(param.value);
      return value === undefined ? fail(param.resourceKey, `the tenant profile has no ${param.value}`) : ok(value);
    }
    default:
      return assertNever(form);
  }
}
