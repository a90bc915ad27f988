import { type FieldType, type IndexField, MINIMUM_INDEX_FIELDS } from '../../domain/workflow/index-schema.decider.ts';
import { localDateTime, parseDateTime } from '../../domain/workflow/time/iso8601.ts';
import type { IndexSpec, Sort } from '../../infra/core/read-store.port.ts';
import type { TaskDoc } from './task-doc.ts';

/**
 * A task's document in a search index (the spec's esDoc): the minimum index fields, the index schema's
 * business fields (from the query variables, coerced to the field's type), and entity_id, entity_type,
 * id, index_time, index_timestamp, tenant_code. `_all` holds the lower-cased values of the INCLUDE_ALL
 * fields, which a fuzzy condition on `_all` searches. Dates are ISO 8601 local date-times (UTC).
 */
export type SearchDoc = { id: string; _all: string } & Record<string, unknown>;

const date = (v: string | null) => (v === null ? null : localDateTime(v));

function coerce(type: FieldType, v: unknown): unknown {
  if (v === undefined || v === null) return null;
  switch (type) {
    case 'string':
      return typeof v === 'string' ? v : typeof v === 'object' ? JSON.stringify(v) : String(v);
    case 'number': {
      const n = typeof v === 'number' ? v : Number(v);
      return Number.isFinite(n) && !(typeof v === 'string' && v.trim() === '') ? n : null;
    }
    case 'boolean':
      return typeof v === 'boolean' ? v : v === 'true' ? true : v === 'false' ? false : null;
    case 'date': {
      if (typeof v !== 'string') return null;
      const at = parseDateTime(v);
      return at === null ? null : localDateTime(at);
    }
  }
}

export function minimumFieldsOf(task: TaskDoc, savedAt: string): Record<string, unknown> {
  return {
    TaskId: task.id,
    TaskName: task.name,
    Status: task.status,
    Owner: task.owner,
    Assignee: task.assignee,
    Description: task.description,
    CreatedDate: date(task.createdAt),
    ClaimedDate: date(task.claimedAt),
    DueDate: date(task.dueDate),
    Priority: String(task.priority),
    ProcessDefinitionId: task.processDefinitionId,
    ProcessInstanceId: task.instanceId,
    ParentTaskId: null,
    FormKey: task.formKey,
    CompletedDate: date(task.completedAt),
    Duration: task.duration === null ? null : String(task.duration),
    ProcessDefinitionVersion: String(task.version),
    SaveTime: date(savedAt),
    TaskDefinitionKey: task.taskDefinitionKey,
    TaskType: coerce('string', task.queryVariables.TaskType),
    WorkflowBusinessKey: task.businessKey,
  };
}

/**
 * Number and boolean business fields also get a text twin (`<field>__k`) whose order is the value's: the
 * read store compares text exactly in SQL on an index (numbers it checks per document), so conditions,
 * ranges and sorts on such a field use the twin. Doubles are encoded by their IEEE 754 bits (sign bit
 * flipped for positives, all bits flipped for negatives), as 16 hex digits.
 */
export const twinOf = (field: string) => `${field}__k`;
export const hasTwin = (type: FieldType) => type === 'number' || type === 'boolean';

export function orderedText(v: unknown): string | null {
  if (typeof v === 'boolean') return String(v);
  if (typeof v !== 'number' || !Number.isFinite(v)) return null;
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, v === 0 ? 0 : v); // -0 and 0 alike
  const hi = view.getUint32(0);
  const lo = view.getUint32(4);
  const negative = (hi & 0x80000000) !== 0;
  const h = negative ? ~hi >>> 0 : (hi | 0x80000000) >>> 0;
  const l = negative ? ~lo >>> 0 : lo;
  return h.toString(16).padStart(8, '0') + l.toString(16).padStart(8, '0');
}

export function searchDocOf(task: TaskDoc, fields: IndexField[], tenant: string, at: string): SearchDoc {
  const doc: Record<string, unknown> = minimumFieldsOf(task, at);
  for (const f of fields) {
    doc[f.name] = coerce(f.type, task.queryVariables[f.name]);
    if (hasTwin(f.type)) doc[twinOf(f.name)] = orderedText(doc[f.name]);
  }
  const all = [...MINIMUM_INDEX_FIELDS, ...fields]
    .filter((f) => f.includeAll)
    .map((f) => doc[f.name])
    .filter((v) => v !== null && v !== undefined)
    .map((v) => String(v).toLowerCase())
    .join(' ');
  return {
    ...doc,
    entity_id: task.id,
    entity_type: 'task',
    id: task.id,
    index_time: localDateTime(at),
    index_timestamp: Date.parse(at),
    tenant_code: tenant,
    _all: all,
  };
}

/** the type of every field of an index: minimum and business */
export const fieldTypes = (fields: IndexField[]): Map<string, FieldType> =>
  new Map([...MINIMUM_INDEX_FIELDS, ...fields].map((f) => [f.name, f.type]));

/**
 * The read-store indexes of a search collection: one per field searches narrow by (the minimum fields
 * callers filter on, and every business field), each followed by CreatedDate, the default sort, so an
 * exact condition with that sort walks the index and stops at the page's end.
 */
export function searchIndexes(fields: IndexField[]): IndexSpec[] {
  const names = [
    'Status',
    'Assignee',
    'TaskType',
    'WorkflowBusinessKey',
    'TaskDefinitionKey',
    'ProcessInstanceId',
    ...fields.map((f) => (hasTwin(f.type) ? twinOf(f.name) : f.name)),
  ];
  return [
    { name: 'f_CreatedDate', fields: { CreatedDate: 1 } },
    ...names.map((name): IndexSpec => ({ name: `f_${name}`, fields: { [name]: 1, CreatedDate: 1 } as Sort })),
  ];
}
