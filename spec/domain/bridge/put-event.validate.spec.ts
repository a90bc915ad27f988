import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { type EventFieldError, isLocalDateTime, validatePutEvent } from '../../../domain/bridge/put-event.validate.ts';

const test = suite('putEvent validation');

const camel = {
  id: 'e-1',
  source: 'shop:checkout',
  type: 'shop:Order:Placed',
  subject: 'orders:eu',
  time: '2026-03-01T10:00:00',
  dataContentType: 'application/json',
  dataSchemaId: '100000000000003',
  eventBusName: 'orders',
  data: { orderId: 42 },
};
const lower = {
  id: 'e-1',
  source: 'shop:checkout',
  type: 'shop:Order:Placed',
  subject: 'orders:eu',
  time: '2026-03-01T10:00:00',
  datacontenttype: 'application/json',
  dataschemaid: '100000000000003',
  eventbusname: 'orders',
  data: { orderId: 42 },
};

const errorsOf = (input: unknown): EventFieldError[] => {
  const r = validatePutEvent(input);
  assert.is(r.ok, false, `expected errors for ${JSON.stringify(input)}`);
  return r.ok ? [] : r.errors;
};
const fieldsOf = (input: unknown) =>
  errorsOf(input)
    .map((e) => e.field)
    .sort();
const without = (o: Record<string, unknown>, ...keys: string[]) =>
  Object.fromEntries(Object.entries(o).filter(([k]) => !keys.includes(k)));

test('camelCase and lower-case spellings give the same canonical (camelCase) event', () => {
  const a = validatePutEvent(camel);
  const b = validatePutEvent(lower);
  assert.ok(a.ok && b.ok);
  assert.equal(a.ok && a.event, camel);
  assert.equal(b.ok && b.event, camel);
});

test('mixed spellings are fine; both spellings with equal values too', () => {
  const mixed = { ...without(camel, 'dataContentType'), datacontenttype: 'application/json' };
  assert.ok(validatePutEvent(mixed).ok);
  const both = { ...camel, eventbusname: 'orders', datacontenttype: 'application/json' };
  const r = validatePutEvent(both);
  assert.ok(r.ok);
  assert.equal(r.ok && Object.keys(r.event).sort(), Object.keys(camel).sort());
});

test('both spellings with different values: 400 naming both', () => {
  const errors = errorsOf({ ...camel, eventbusname: 'other' });
  assert.equal(errors.map((e) => e.field).sort(), ['eventBusName', 'eventbusname']);
  assert.match(errors[0]!.message, /conflicts with/);
  assert.equal(fieldsOf({ ...camel, dataschemaid: '9' }), ['dataSchemaId', 'dataschemaid']);
  assert.equal(fieldsOf({ ...camel, datacontenttype: 'application/json; charset=utf-8' }), [
    'dataContentType',
    'datacontenttype',
  ]);
});

test('required: id, source, type, dataContentType, time, data, eventBusName; subject and dataSchemaId optional', () => {
  for (const f of ['id', 'source', 'type', 'dataContentType', 'time', 'data', 'eventBusName']) {
    const errors = errorsOf(without(camel, f));
    assert.equal(errors, [{ field: f, message: 'is required' }], f);
  }
  const r = validatePutEvent(without(camel, 'subject', 'dataSchemaId'));
  assert.ok(r.ok);
  assert.not.ok(r.ok && 'subject' in r.event);
  assert.not.ok(r.ok && 'dataSchemaId' in r.event);
  // every missing field named at once
  assert.equal(fieldsOf({}), ['data', 'dataContentType', 'eventBusName', 'id', 'source', 'time', 'type']);
});

test('strings: id, source, type, subject, eventBusName', () => {
  for (const f of ['id', 'source', 'type', 'subject', 'eventBusName']) {
    assert.equal(fieldsOf({ ...camel, [f]: 12 }), [f], `${f} number`);
    assert.equal(fieldsOf({ ...camel, [f]: '' }), [f], `${f} empty`);
    assert.equal(fieldsOf({ ...camel, [f]: null }), [f], `${f} null`);
  }
  assert.equal(fieldsOf({ ...camel, id: 'x'.repeat(257) }), ['id']);
  assert.ok(validatePutEvent({ ...camel, id: 'x'.repeat(256) }).ok);
  assert.equal(fieldsOf({ ...camel, subject: 's'.repeat(1025) }), ['subject']);
  assert.equal(fieldsOf({ ...lower, eventbusname: 7 }), ['eventbusname']);
});

test('dataContentType: application/json only, optional charset=utf-8', () => {
  for (const ok of [
    'application/json',
    'application/json; charset=utf-8',
    'application/json;charset=UTF-8',
    'Application/JSON',
    'application/json; charset="utf-8"',
  ]) {
    assert.ok(validatePutEvent({ ...camel, dataContentType: ok }).ok, ok);
  }
  for (const bad of [
    'text/plain',
    'application/xml',
    'application/json; charset=latin1',
    'application/jsonx',
    'application/cloudevents+json',
  ]) {
    const errors = errorsOf({ ...camel, dataContentType: bad });
    assert.equal(
      errors.map((e) => e.field),
      ['dataContentType'],
      bad,
    );
    assert.match(errors[0]!.message, /application\/json/);
  }
  assert.equal(fieldsOf({ ...lower, datacontenttype: 'text/plain' }), ['datacontenttype']);
});

test('time: local date-time without offset', () => {
  for (const ok of [
    '2026-03-01T10:00:00',
    '2026-03-01T10:00:00.1',
    '2026-03-01T10:00:00.123456789',
    '2024-02-29T23:59:59',
    '2000-02-29T00:00:00',
  ]) {
    assert.ok(validatePutEvent({ ...camel, time: ok }).ok, ok);
  }
  for (const bad of ['2026-03-01T10:00:00Z', '2026-03-01T10:00:00+08:00', '2026-03-01T10:00:00.5-0500']) {
    const errors = errorsOf({ ...camel, time: bad });
    assert.equal(
      errors.map((e) => e.field),
      ['time'],
      bad,
    );
    assert.match(errors[0]!.message, /offset/);
  }
  for (const bad of [
    '2026-03-01',
    '2026-03-01 10:00:00',
    '2026-02-29T10:00:00',
    '1900-02-29T00:00:00',
    '2026-13-01T10:00:00',
    '2026-04-31T10:00:00',
    '2026-03-01T24:00:00',
    '2026-03-01T10:60:00',
    '2026-03-01T10:00:60',
    '2026-03-01T10:00',
    '2026-03-01T10:00:00.',
    'yesterday',
  ]) {
    assert.equal(fieldsOf({ ...camel, time: bad }), ['time'], bad);
  }
  assert.equal(fieldsOf({ ...camel, time: 1700000000 }), ['time']);
  assert.ok(isLocalDateTime('2026-12-31T23:59:59.999'));
});

test('data: a JSON object', () => {
  for (const bad of [[], [1], 'text', 3, null, true]) {
    assert.equal(fieldsOf({ ...camel, data: bad }), ['data'], JSON.stringify(bad));
  }
  assert.ok(validatePutEvent({ ...camel, data: {} }).ok);
  assert.ok(validatePutEvent({ ...camel, data: { nested: { a: [1, { b: null }] } } }).ok);
});

test('dataSchemaId: a non-negative integer (Long) or a registry id; stored as a string', () => {
  const r = validatePutEvent({ ...camel, dataSchemaId: 100000000000003 });
  assert.ok(r.ok);
  assert.is(r.ok && r.event.dataSchemaId, '100000000000003');
  assert.ok(validatePutEvent({ ...camel, dataSchemaId: 'orders-schema:1.0.0' }).ok);
  for (const bad of [-1, 1.5, '', 'has space', true, {}, null]) {
    assert.equal(fieldsOf({ ...camel, dataSchemaId: bad }), ['dataSchemaId'], JSON.stringify(bad));
  }
  assert.equal(fieldsOf({ ...lower, dataschemaid: -3 }), ['dataschemaid']);
});

test('unknown fields are refused, each named', () => {
  assert.equal(fieldsOf({ ...camel, dataContentype: 'application/json' }), ['dataContentype']);
  assert.equal(fieldsOf({ ...camel, extra: 1, DataContentType: 'x' }), ['DataContentType', 'extra']);
});

test('not an object', () => {
  for (const bad of [null, [], [camel], 'event', 1]) assert.equal(fieldsOf(bad), [''], JSON.stringify(bad));
});

test('every bad field is named in one answer', () => {
  assert.equal(fieldsOf({ ...camel, id: 1, time: 'x', data: [], dataContentType: 'text/xml', extra: true }), [
    'data',
    'dataContentType',
    'extra',
    'id',
    'time',
  ]);
});

/** `{"a":{"a":…{"leaf":1}}}`: `levels` objects deep, built without recursion */
const nested = (levels: number): Record<string, unknown> => {
  let v: Record<string, unknown> = { leaf: 1 };
  for (let i = 1; i < levels; i++) v = { a: v };
  return v;
};

test('data within the input limits: 32 levels deep is accepted, 33 is refused naming the path and the limit', () => {
  const ok = validatePutEvent({ ...camel, data: nested(32) });
  assert.ok(ok.ok, JSON.stringify(ok));
  const errors = errorsOf({ ...camel, data: nested(33) });
  assert.is(errors.length, 1);
  assert.is(errors[0]!.field, `data${'.a'.repeat(32)}`);
  assert.is(errors[0]!.limit, 'depth');
  assert.is(errors[0]!.max, 32);
  assert.match(errors[0]!.message, /nests deeper than 32 levels \(input limit for event data: nesting depth 32\)/);
});

test('data 100,000 levels deep is one error, not a stack overflow; so are deep values under both spellings', () => {
  const deep = nested(100_000);
  // (errorsOf would print the input: validated directly)
  const errors = (input: unknown) => {
    const r = validatePutEvent(input);
    return r.ok ? [] : r.errors;
  };
  assert.equal(
    errors({ ...camel, data: deep }).map((e) => [e.limit, e.max]),
    [['depth', 32]],
  );
  // two spellings holding deep objects: no JSON.stringify of them, the field is simply not a string
  const both = errors({ ...lower, datacontenttype: deep, dataContentType: nested(100_000) });
  assert.equal(
    both.map((e) => e.field),
    ['dataContentType'],
  ); // the camelCase spelling is read first
  assert.match(both[0]!.message, /must be a string/);
});

test('data: the other limits of event data too (a string past 256 KiB, a key past 1,024 characters)', () => {
  assert.equal(
    errorsOf({ ...camel, data: { blob: 'x'.repeat(256 * 1024 + 1) } }).map((e) => [e.field, e.limit]),
    [['data.blob', 'stringLength']],
  );
  const [longKey] = errorsOf({ ...camel, data: { list: [{ ['k'.repeat(1025)]: 1 }] } });
  assert.is(longKey!.limit, 'keyLength');
  assert.match(longKey!.field, /^data\.list\.0\.k+…k+$/); // a long path is shortened around an ellipsis
});

test.run();
