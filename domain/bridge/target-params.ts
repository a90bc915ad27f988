import type { ParamForm, Target } from './model.ts';
import { at, type Violation } from './violation.ts';

/**
 * The spec's five target-parameter tables: which ResourceKeys each target type takes, which are required
 * for transfer and which Forms each allows. The TypeId numbering is ours (the spec does not show it):
 * 1 mail, 2 platform message queue, 3 preset HTTP client, 4 API destination, 5 user message box.
 * The delivery reads the same tables.
 */
export type TargetTypeName = 'mail' | 'platformMessageQueue' | 'presetHttpClient' | 'apiDestination' | 'userMessageBox';

export type ParamRule = {
  /** required for transfer; `when` makes it conditional on another parameter's CONSTANT value */
  required: boolean | { when: { resourceKey: string; value: string } };
  forms: readonly ParamForm[];
  /** allowed CONSTANT values, when the spec lists them */
  values?: readonly string[];
};

export type TargetTypeTable = { name: TargetTypeName; label: string; params: Readonly<Record<string, ParamRule>> };

export const TARGET_TYPE_IDS = {
  mail: 1,
  platformMessageQueue: 2,
  presetHttpClient: 3,
  apiDestination: 4,
  userMessageBox: 5,
} as const;

const BODY_FORMS = ['TEMPLATE', 'JSONPATH', 'ORIGINAL', 'CONSTANT'] as const;

export const TARGET_PARAM_TABLES: Readonly<Record<number, TargetTypeTable>> = {
  1: {
    name: 'mail',
    label: 'mail service target',
    params: {
      SUBJECT: { required: true, forms: ['CONSTANT'] },
      ACCOUNT: { required: true, forms: ['CONSTANT', 'ENV_PARAM'] },
      TO: { required: true, forms: ['CONSTANT', 'JSONPATH', 'TENANT_PROFILE'] },
      CC: { required: false, forms: ['CONSTANT', 'JSONPATH'] },
      PRIORITY: { required: false, forms: ['CONSTANT'] },
      CONTENT: { required: true, forms: ['TEMPLATE'] },
    },
  },
  2: {
    name: 'platformMessageQueue',
    label: 'platform message-queue target',
    params: {
      SEND_TYPE: { required: true, forms: ['CONSTANT'], values: ['APP', 'BROADCAST'] },
      APP_NAME: { required: { when: { resourceKey: 'SEND_TYPE', value: 'APP' } }, forms: ['CONSTANT'] },
      BODY: { required: true, forms: ['TEMPLATE', 'ORIGINAL'] },
      TOPIC: { required: true, forms: ['CONSTANT', 'TEMPLATE', 'JSONPATH'] },
    },
  },
  3: {
    name: 'presetHttpClient',
    label: 'preset HTTP client target',
    params: {
      SERVICE_NAME: { required: true, forms: ['CONSTANT', 'ENV_PARAM'] },
      BODY: { required: true, forms: BODY_FORMS },
    },
  },
  4: {
    name: 'apiDestination',
    label: 'API destination target',
    params: {
      NAME: { required: true, forms: ['CONSTANT'] },
      HEADER_PARAMS: { required: false, forms: ['TEMPLATE'] },
      BODY_PARAMS: { required: false, forms: ['TEMPLATE'] },
      QUERY_STRING_PARAMS: { required: false, forms: ['TEMPLATE'] },
    },
  },
  5: {
    name: 'userMessageBox',
    label: 'user message box target',
    params: {
      MESSAGE_TYPE: { required: false, forms: ['CONSTANT'] },
      MESSAGE_LEVEL: { required: false, forms: ['CONSTANT'] },
      PRODUCT_LINE: { required: false, forms: ['CONSTANT'] },
      MESSAGE_CATEGORY: { required: false, forms: ['CONSTANT'] },
      BODY: { required: true, forms: BODY_FORMS },
      // Ours (the spec's table names no recipient): the user whose inbox receives the message, a user id
      // or a JSONPath into the event (`$.data.userId`); absent: the subject of the publishing caller's token.
      USER_ID: { required: false, forms: ['CONSTANT', 'JSONPATH'] },
    },
  },
};

const typeList = Object.entries(TARGET_PARAM_TABLES)
  .map(([id, t]) => `${id} (${t.name})`)
  .join(', ');

/**
 * The per-type checks of a target's params (fields named from the target: `params.2.form`). The shape of
 * each entry (Form among the six, Value a string, TEMPLATE's variable map) is checked by target.validate.ts.
 */
export function validateTargetParams(target: Pick<Target, 'typeId' | 'params'>): Violation[] {
  const table = TARGET_PARAM_TABLES[target.typeId];
  if (table === undefined) return [{ field: 'typeId', message: `must be a known target type: ${typeList}` }];
  const violations: Violation[] = [];
  const params = Array.isArray(target.params) ? target.params : [];
  const seen = new Map<string, number>();
  params.forEach((p, i) => {
    const base = at('params', i);
    const key = p?.resourceKey;
    if (typeof key !== 'string') return;
    const rule = table.params[key];
    if (rule === undefined) {
      violations.push({
        field: at(base, 'resourceKey'),
        message: `${key} is not a parameter of the ${table.label} (allowed: ${Object.keys(table.params).join(', ')})`,
      });
      return;
    }
    const first = seen.get(key);
    if (first !== undefined) {
      violations.push({ field: at(base, 'resourceKey'), message: `${key} is given twice (also params.${first})` });
      return;
    }
    seen.set(key, i);
    if (!rule.forms.includes(p.form)) {
      violations.push({
        field: at(base, 'form'),
        message: `${key} of the ${table.label} takes ${rule.forms.join(' or ')} (not ${String(p.form)})`,
      });
      return;
    }
    if (rule.values !== undefined && p.form === 'CONSTANT' && !rule.values.includes(p.value)) {
      violations.push({ field: at(base, 'value'), message: `${key} must be ${rule.values.join(' or ')}` });
    }
  });
  const constantOf = (key: string): string | undefined => {
    const p = params.find((x) => x?.resourceKey === key);
    return p?.form === 'CONSTANT' ? p.value : undefined;
  };
  for (const [key, rule] of Object.entries(table.params)) {
    if (seen.has(key)) continue;
    if (rule.required === true) {
      violations.push({ field: 'params', message: `the ${table.label} needs ${key} (${rule.forms.join(' or ')})` });
    } else if (rule.required !== false && constantOf(rule.required.when.resourceKey) === rule.required.when.value) {
      const w = rule.required.when;
      violations.push({
        field: 'params',
        message: `the ${table.label} needs ${key} when ${w.resourceKey} is ${w.value}`,
      });
    }
  }
  return violations;
}
