import type { Decider } from '../core/decider.ts';
import type { DomainEvent } from '../core/event.ts';
import { workflowError } from './workflow.errors.ts';

/**
 * A task index schema (`wfIndexSchema-<tenant>.<name>`): configuration, not code (the spec's "index
 * definitions managed by configuration"). An index holds the minimum fields (MINIMUM_INDEX_FIELDS, filled by
 * the workflow) plus business fields taken from the query variables, each with a type and the INCLUDE_ALL
 * flag (the field is searched by a fuzzy condition on `_all`). A changed field list is a new revision; the
 * task projection rebuilds that index beside the live one and switches searches to it when it is complete
 * (IndexSchemaRebuilt records the switch).
 */
export const INDEX_SCHEMA_CATEGORY = 'wfIndexSchema';

export type FieldType = 'string' | 'number' | 'date' | 'boolean';
export type IndexField = { name: string; type: FieldType; includeAll: boolean };

/** the spec's minimum index fields (INCLUDE_ALL in the flag); all but TaskType and WorkflowBusinessKey are filled by the workflow */
export const MINIMUM_INDEX_FIELDS: IndexField[] = [
  { name: 'TaskId', type: 'string', includeAll: true },
  { name: 'TaskName', type: 'string', includeAll: false },
  { name: 'Status', type: 'string', includeAll: true },
  { name: 'Owner', type: 'string', includeAll: true },
  { name: 'Assignee', type: 'string', includeAll: true },
  { name: 'Description', type: 'string', includeAll: false },
  { name: 'CreatedDate', type: 'date', includeAll: false },
  { name: 'ClaimedDate', type: 'date', includeAll: false },
  { name: 'DueDate', type: 'date', includeAll: false },
  { name: 'Priority', type: 'string', includeAll: true },
  { name: 'ProcessDefinitionId', type: 'string', includeAll: true },
  { name: 'ProcessInstanceId', type: 'string', includeAll: true },
  { name: 'ParentTaskId', type: 'string', includeAll: true },
  { name: 'FormKey', type: 'string', includeAll: true },
  { name: 'CompletedDate', type: 'date', includeAll: false },
  { name: 'Duration', type: 'string', includeAll: false },
  { name: 'ProcessDefinitionVersion', type: 'string', includeAll: true },
  { name: 'SaveTime', type: 'date', includeAll: false },
  { name: 'TaskDefinitionKey', type: 'string', includeAll: true },
  { name: 'TaskType', type: 'string', includeAll: true },
  { name: 'WorkflowBusinessKey', type: 'string', includeAll: true },
];
export const MINIMUM_FIELD_NAMES = new Set(MINIMUM_INDEX_FIELDS.map((f) => f.name));

/** index names: a read-store partition part */
export const INDEX_NAME = /^[A-Za-z0-9][A-Za-z0-9-]{0,62}$/;
/** business field names: letters, digits, `_` (they become document paths) */
export const FIELD_NAME = /^[A-Za-z][A-Za-z0-9_]{0,63}$/;
export const DEFAULT_INDEX = 'default';
export const MAX_BUSINESS_FIELDS = 50;

export type IndexSchemaEvent =
  | DomainEvent<'IndexSchemaDefined', { name: string; fields: IndexField[]; revision: number; at: string }>
  | DomainEvent<'IndexSchemaRebuilt', { name: string; revision: number; generation: number; at: string }>;
export type IndexSchemaCommand =
  | { type: 'DefineIndexSchema'; name: string; fields: IndexField[]; now: string }
  | { type: 'RecordIndexRebuilt'; name: string; revision: number; generation: number; now: string };
export type IndexSchemaState = {
  name: string | null;
  fields: IndexField[];
  revision: number;
  rebuilt?: { revision: number; generation: number };
};

const sameFields = (a: IndexField[], b: IndexField[]) => JSON.stringify(a) === JSON.stringify(b);

export function checkFields(fields: IndexField[]): void {
  const seen = new Set<string>();
  fields.forEach((f, i) => {
    if (!FIELD_NAME.test(f.name))
      throw workflowError(
        'INDEX_SCHEMA.INVALID',
        `field ${i}: the name ${JSON.stringify(f.name)} is not a field name (${FIELD_NAME.source})`,
        { field: f.name },
      );
    if (MINIMUM_FIELD_NAMES.has(f.name))
      throw workflowError('INDEX_SCHEMA.INVALID', `field ${f.name} is a minimum index field: it is always there`, {
        field: f.name,
      });
    if (seen.has(f.name))
      throw workflowError('INDEX_SCHEMA.INVALID', `field ${f.name} is named twice`, { field: f.name });
    seen.add(f.name);
  });
  if (fields.length > MAX_BUSINESS_FIELDS)
    throw workflowError('INDEX_SCHEMA.INVALID', `at most ${MAX_BUSINESS_FIELDS} business fields`, {
      count: fields.length,
    });
}

export const indexSchemaDecider: Decider<IndexSchemaCommand, IndexSchemaEvent, IndexSchemaState> = {
  initialState: () => ({ name: null, fields: [], revision: 0 }),
  evolve(s, e) {
    if (e.type === 'IndexSchemaDefined')
      return { ...s, name: e.data.name, fields: e.data.fields, revision: e.data.revision };
    return { ...s, rebuilt: { revision: e.data.revision, generation: e.data.generation } };
  },
  decide(c, s) {
    if (c.type === 'DefineIndexSchema') {
      checkFields(c.fields);
      if (s.name !== null && sameFields(s.fields, c.fields)) return [];
      return [
        { type: 'IndexSchemaDefined', data: { name: c.name, fields: c.fields, revision: s.revision + 1, at: c.now } },
      ];
    }
    if (s.rebuilt !== undefined && s.rebuilt.generation >= c.generation) return [];
    return [
      { type: 'IndexSchemaRebuilt', data: { name: c.name, revision: c.revision, generation: c.generation, at: c.now } },
    ];
  },
};
