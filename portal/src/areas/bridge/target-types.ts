/**
 * The spec's five target types and their parameter tables, as the editor offers them. The platform's own
 * tables are domain/bridge/target-params.ts, which the portal may not import (only the scope constants):
 * this mirror only decides what is offered; the API checks every rule against its tables all the same.
 */
export type ParamForm = 'CONSTANT' | 'ENV_PARAM' | 'JSONPATH' | 'TEMPLATE' | 'ORIGINAL' | 'TENANT_PROFILE';
export type TypeId = 1 | 2 | 3 | 4 | 5;

export type ParamSpec = {
  key: string;
  required: boolean | { key: string; value: string };
  forms: readonly ParamForm[];
  values?: readonly string[];
  hint?: string;
};

const BODY_FORMS = ['TEMPLATE', 'JSONPATH', 'ORIGINAL', 'CONSTANT'] as const;

export const TARGET_TYPES: ReadonlyArray<{ id: TypeId; label: string; params: readonly ParamSpec[] }> = [
  {
    id: 1,
    label: 'Mail',
    params: [
      { key: 'SUBJECT', required: true, forms: ['CONSTANT'] },
      { key: 'ACCOUNT', required: true, forms: ['CONSTANT', 'ENV_PARAM'], hint: 'the sending account' },
      { key: 'TO', required: true, forms: ['CONSTANT', 'JSONPATH', 'TENANT_PROFILE'] },
      { key: 'CC', required: false, forms: ['CONSTANT', 'JSONPATH'] },
      { key: 'PRIORITY', required: false, forms: ['CONSTANT'] },
      { key: 'CONTENT', required: true, forms: ['TEMPLATE'] },
    ],
  },
  {
    id: 2,
    label: 'Message queue',
    params: [
      { key: 'SEND_TYPE', required: true, forms: ['CONSTANT'], values: ['APP', 'BROADCAST'] },
      { key: 'APP_NAME', required: { key: 'SEND_TYPE', value: 'APP' }, forms: ['CONSTANT'] },
      { key: 'TOPIC', required: true, forms: ['CONSTANT', 'TEMPLATE', 'JSONPATH'] },
      { key: 'BODY', required: true, forms: ['TEMPLATE', 'ORIGINAL'] },
    ],
  },
  {
    id: 3,
    label: 'Preset HTTP client',
    params: [
      {
        key: 'SERVICE_NAME',
        required: true,
        forms: ['CONSTANT', 'ENV_PARAM'],
        hint: 'a service of the service registry',
      },
      { key: 'BODY', required: true, forms: BODY_FORMS },
    ],
  },
  {
    id: 4,
    label: 'API destination',
    params: [
      { key: 'NAME', required: true, forms: ['CONSTANT'], hint: 'the API destination' },
      { key: 'HEADER_PARAMS', required: false, forms: ['TEMPLATE'] },
      { key: 'BODY_PARAMS', required: false, forms: ['TEMPLATE'] },
      { key: 'QUERY_STRING_PARAMS', required: false, forms: ['TEMPLATE'] },
    ],
  },
  {
    id: 5,
    label: 'Message box',
    params: [
      { key: 'MESSAGE_TYPE', required: false, forms: ['CONSTANT'] },
      { key: 'MESSAGE_LEVEL', required: false, forms: ['CONSTANT'] },
      { key: 'PRODUCT_LINE', required: false, forms: ['CONSTANT'] },
      { key: 'MESSAGE_CATEGORY', required: false, forms: ['CONSTANT'] },
      { key: 'BODY', required: true, forms: BODY_FORMS },
      { key: 'USER_ID', required: false, forms: ['CONSTANT', 'JSONPATH'], hint: 'else the publisher' },
    ],
  },
];

export const typeOf = (id: number) => TARGET_TYPES.find((t) => t.id === id) ?? TARGET_TYPES[3]!;

export const FORM_LABELS: Record<ParamForm, string> = {
  CONSTANT: 'Constant',
  ENV_PARAM: 'Configuration key',
  JSONPATH: 'JSONPath',
  TEMPLATE: 'Template',
  ORIGINAL: 'Original event',
  TENANT_PROFILE: 'Tenant profile',
};
