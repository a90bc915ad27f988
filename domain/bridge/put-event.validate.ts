import { checkJsonLimits, dottedPath, EVENT_DATA_LIMITS, LIMIT_LABELS, type LimitName } from '../core/input-limits.ts';
import type { BridgeEvent } from './model.ts';

/**
 * Validation of one event at putEvent, pure: the body as parsed JSON in, the canonical
 * BridgeEvent or every problem out.
 *
 * Required fields: id, source, type, dataContentType, time, data, eventBusName. The spec's endpoint
 * table lists subject and dataSchemaId as optional and every other field of the request as present, and
 * the spec's field table marks dataschemaid and subject optional. So subject and dataSchemaId are
 * optional, time and data are required (the endpoint's request lists them without "optional").
 *
 * Spellings: the field table's lower-case names (datacontenttype, dataschemaid, eventbusname) and the
 * samples' camelCase (dataContentType, dataSchemaId, eventBusName) are both accepted; the stored and
 * answered form is camelCase. Both spellings in one event: fine when the values are equal, else a 400
 * naming both. Any other field is refused (a misspelt field would otherwise be dropped silently).
 *
 * Values:
 * - id, source, type: non-empty strings of at most 256 characters; subject at most 1024;
 * - dataContentType: `application/json`, optionally `; charset=utf-8` (media types ignore case);
 * - time: ISO 8601 local date-time without offset, `YYYY-MM-DDThh:mm:ss` with an optional fraction
 *   (1-9 digits), a real calendar date; stored as sent;
 * - data: a JSON object (not an array, not null) within the input limits for event data
 *   (EVENT_DATA_LIMITS, domain/core/input-limits.ts: 32 levels deep, …); the first excess is one error
 *   naming its path (`data.a.b…`), the limit and its figure;
 * - dataSchemaId: the spec's type is Long: a non-negative integer or a registry id string
 *   (`<id>` or `<id>:<version>`); stored as a string;
 * - eventBusName: a non-empty string of at most 200 characters (which bus it names is resolved later).
 */
/** `limit`/`max`: set when the field exceeds an input limit (domain/core/input-limits.ts) */
export type EventFieldError = { field: string; message: string; limit?: LimitName; max?: number };
export type EventValidation = { ok: true; event: BridgeEvent } | { ok: false; errors: EventFieldError[] };

/** canonical name → accepted spellings (the canonical one first) */
const SPELLINGS: Record<keyof BridgeEvent, readonly string[]> = {
  id: ['id'],
  source: ['source'],
  type: ['type'],
  subject: ['subject'],
  time: ['time'],
  dataContentType: ['dataContentType', 'datacontenttype'],
  dataSchemaId: ['dataSchemaId', 'dataschemaid'],
  eventBusName: ['eventBusName', 'eventbusname'],
  data: ['data'],
};
const KNOWN = new Set(Object.values(SPELLINGS).flat());
const REQUIRED: ReadonlyArray<keyof BridgeEvent> = [
  'id',
  'source',
  'type',
  'dataContentType',
  'time',
  'data',
  'eventBusName',
];

export const MAX_ID = 256;
export const MAX_SUBJECT = 1024;
export const MAX_BUS_NAME = 200;
const CONTENT_TYPE = /^application\/json[ \t]*(;[ \t]*charset[ \t]*=[ \t]*("utf-8"|utf-8)[ \t]*)?$/i;
const LOCAL_DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(\.\d{1,9})?$/;
const SCHEMA_ID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}(:[A-Za-z0-9._-]{1,64})?$/;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

const isScalar = (v: unknown): boolean => typeof v !== 'object' || v === null;

/**
 * Two spellings' values agree. Every field with two spellings takes a string or a number, so an object or
 * array is wrong whatever the other spelling holds: two of them are not reported as a conflict here but by
 * the field's own check ("must be a string"). Not JSON.stringify: that recursion has no depth limit.
 */
const sameValue = (a: unknown, b: unknown): boolean =>
  isScalar(a) && isScalar(b) ? a === b : !isScalar(a) && !isScalar(b);

/** `2026-02-29T…` is no date; neither is hour 24 */
export function isLocalDateTime(s: string): boolean {
  const m = LOCAL_DATE_TIME.exec(s);
  if (!m) return false;
  const [year, month, day, hour, minute, second] = m.slice(1, 7).map(Number) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  if (month < 1 || month > 12 || day < 1 || hour > 23 || minute > 59 || second > 59) return false;
  const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
  const days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]!;
  return day <= days;
}

const describeTimeProblem = (s: string): string =>
  /(Z|[+-]\d{2}(:?\d{2})?)$/i.test(s) && /T/.test(s)
    ? 'must be a local date-time without offset (YYYY-MM-DDThh:mm:ss[.fraction]), got an offset'
    : 'must be a local date-time YYYY-MM-DDThh:mm:ss[.fraction] (ISO 8601, no offset)';

export function validatePutEvent(input: unknown): EventValidation {
  if (!isObject(input)) return { ok: false, errors: [{ field: '', message: 'must be a JSON object (one event)' }] };
  const errors: EventFieldError[] = [];
  for (const key of Object.keys(input)) {
    if (!KNOWN.has(key)) errors.push({ field: key, message: 'is not an event field' });
  }

  /** the value under any spelling; undefined when absent; reports conflicting spellings */
  const read = (name: keyof BridgeEvent): { value: unknown; field: string } | undefined => {
    const present = SPELLINGS[name].filter((s) => Object.hasOwn(input, s));
    if (present.length === 0) return undefined;
    const first = present[0]!;
    const value = input[first];
    const clash = present.slice(1).filter((s) => !sameValue(input[s], value));
    if (clash.length > 0) {
      const all = [first, ...clash];
      for (const f of all) {
        const others = all.filter((o) => o !== f).join(' and ');
        errors.push({ field: f, message: `conflicts with ${others}: both spellings are given with different values` });
      }
      conflicting.add(first);
    }
    return { value, field: first };
  };

  const conflicting = new Set<string>();
  const fields = Object.fromEntries(
    (Object.keys(SPELLINGS) as Array<keyof BridgeEvent>).map((name) => [name, read(name)]),
  ) as Record<keyof BridgeEvent, { value: unknown; field: string } | undefined>;

  for (const name of REQUIRED) {
    if (fields[name] === undefined) errors.push({ field: name, message: 'is required' });
  }

  const checkString = (name: keyof BridgeEvent, max: number): string | undefined => {
    const f = fields[name];
    if (f === undefined || conflicting.has(f.field)) return undefined;
    if (typeof f.value !== 'string') {
      errors.push({ field: f.field, message: 'must be a string' });
      return undefined;
    }
    if (f.value.length === 0 || f.value.length > max) {
      errors.push({ field: f.field, message: `must be 1-${max} characters` });
      return undefined;
    }
    return f.value;
  };

  const id = checkString('id', MAX_ID);
  const source = checkString('source', MAX_ID);
  const type = checkString('type', MAX_ID);
  const subject = checkString('subject', MAX_SUBJECT);
  const eventBusName = checkString('eventBusName', MAX_BUS_NAME);

  const dataContentType = checkString('dataContentType', 200);
  if (dataContentType !== undefined && !CONTENT_TYPE.test(dataContentType)) {
    errors.push({
      field: fields.dataContentType!.field,
      message: 'must be application/json (optionally with charset=utf-8): only JSON is supported',
    });
  }

  const time = checkString('time', 40);
  if (time !== undefined && !isLocalDateTime(time))
    errors.push({ field: fields.time!.field, message: describeTimeProblem(time) });

  let dataSchemaId: string | undefined;
  const schema = fields.dataSchemaId;
  if (schema !== undefined && !conflicting.has(schema.field)) {
    if (typeof schema.value === 'number' && Number.isSafeInteger(schema.value) && schema.value >= 0)
      dataSchemaId = String(schema.value);
    else if (typeof schema.value === 'string' && SCHEMA_ID.test(schema.value)) dataSchemaId = schema.value;
    else
      errors.push({
        field: schema.field,
        message: 'must be a schema id: a non-negative integer or a registry id (<id> or <id>:<version>)',
      });
  }

  const data = fields.data;
  if (data !== undefined && !conflicting.has(data.field)) {
    if (!isObject(data.value)) errors.push({ field: data.field, message: 'must be a JSON object' });
    else {
      const excess = checkJsonLimits(data.value, EVENT_DATA_LIMITS);
      if (excess !== null) {
        errors.push({
          field: dottedPath(excess.path, data.field),
          message: `${excess.message} (input limit for event data: ${LIMIT_LABELS[excess.limit]} ${excess.max})`,
          limit: excess.limit,
          max: excess.max,
        });
      }
    }
  }

  if (errors.length > 0) return { ok: false, errors };
  return {
    ok: true,
    event: {
      id: id!,
      source: source!,
      type: type!,
      ...(subject !== undefined && { subject }),
      time: time!,
      dataContentType: dataContentType!,
      ...(dataSchemaId !== undefined && { dataSchemaId }),
      eventBusName: eventBusName!,
      data: data!.value as Record<string, unknown>,
    },
  };
}
