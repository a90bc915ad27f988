import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { ParamForm, Target, TargetParam } from '../../../domain/bridge/model.ts';
import { validateTarget } from '../../../domain/bridge/target.validate.ts';
import { TARGET_PARAM_TABLES, validateTargetParams } from '../../../domain/bridge/target-params.ts';

const ALL_FORMS: ParamForm[] = ['CONSTANT', 'ENV_PARAM', 'JSONPATH', 'TEMPLATE', 'ORIGINAL', 'TENANT_PROFILE'];

/** a well-formed value for each form */
const sample = (form: ParamForm): Pick<TargetParam, 'value' | 'template'> => {
  switch (form) {
    case 'CONSTANT':
      return { value: 'APP' };
    case 'ENV_PARAM':
      return { value: 'mail.account' };
    case 'JSONPATH':
      return { value: '$.data.to' };
    case 'TEMPLATE':
      return { value: '{"job":"$.data.job"}', template: 'Job ${job}' };
    case 'ORIGINAL':
      return { value: '' };
    case 'TENANT_PROFILE':
      return { value: 'supportMailGroup' };
  }
};
const param = (resourceKey: string, form: ParamForm): TargetParam => ({ resourceKey, form, ...sample(form) });

const target = (typeId: number, params: TargetParam[]): Target => ({
  id: 1,
  typeId,
  pushRetryStrategy: 'BACKOFF_RETRY',
  errorTolerance: 'ALL',
  deadLetterRecord: false,
  params,
  conversion: { kind: 'complete' },
});

/** every required key with its first allowed form (SEND_TYPE=APP needs APP_NAME too) */
const minimal = (typeId: number): TargetParam[] =>
  Object.entries(TARGET_PARAM_TABLES[typeId]!.params)
    .filter(([key, rule]) => rule.required === true || key === 'APP_NAME')
    .map(([key, rule]) => param(key, rule.forms[0]!));

const fields = (v: Array<{ field: string }>) => v.map((x) => x.field);

test('the five tables: TypeId 1 mail, 2 message queue, 3 preset HTTP client, 4 API destination, 5 user message box', () => {
  assert.equal(
    Object.entries(TARGET_PARAM_TABLES).map(([id, t]) => `${id}:${t.name}`),
    ['1:mail', '2:platformMessageQueue', '3:presetHttpClient', '4:apiDestination', '5:userMessageBox'],
  );
});

test('each type with its required keys in an allowed form is valid (and passes the full target check)', () => {
  for (const typeId of [1, 2, 3, 4, 5]) {
    assert.equal(validateTargetParams(target(typeId, minimal(typeId))), [], `type ${typeId}`);
    assert.equal(validateTarget(target(typeId, minimal(typeId)), 't'), [], `type ${typeId} full`);
  }
});

test('each required key, left out, is named', () => {
  const required: Record<number, string[]> = {
    1: ['SUBJECT', 'ACCOUNT', 'TO', 'CONTENT'],
    2: ['SEND_TYPE', 'BODY', 'TOPIC'],
    3: ['SERVICE_NAME', 'BODY'],
    4: ['NAME'],
    5: ['BODY'],
  };
  for (const [typeId, keys] of Object.entries(required)) {
    for (const key of keys) {
      const params = minimal(Number(typeId)).filter((p) => p.resourceKey !== key);
      const v = validateTargetParams(target(Number(typeId), params));
      assert.ok(
        v.some((x) => x.field === 'params' && x.message.includes(`needs ${key}`)),
        `type ${typeId} without ${key}: ${JSON.stringify(v)}`,
      );
    }
  }
});

test('optional keys may be left out', () => {
  const optional: Record<number, string[]> = {
    1: ['CC', 'PRIORITY'],
    4: ['HEADER_PARAMS', 'BODY_PARAMS', 'QUERY_STRING_PARAMS'],
    5: ['MESSAGE_TYPE', 'MESSAGE_LEVEL', 'PRODUCT_LINE', 'MESSAGE_CATEGORY'],
  };
  for (const [typeId, keys] of Object.entries(optional)) {
    const t = Number(typeId);
    for (const key of keys) assert.is(TARGET_PARAM_TABLES[t]!.params[key]!.required, false, `${typeId} ${key}`);
    assert.equal(validateTargetParams(target(t, minimal(t))), []);
  }
});

test('every key accepts exactly the forms of its table', () => {
  const allowed: Record<number, Record<string, ParamForm[]>> = {
    1: {
      SUBJECT: ['CONSTANT'],
      ACCOUNT: ['CONSTANT', 'ENV_PARAM'],
      TO: ['CONSTANT', 'JSONPATH', 'TENANT_PROFILE'],
      CC: ['CONSTANT', 'JSONPATH'],
      PRIORITY: ['CONSTANT'],
      CONTENT: ['TEMPLATE'],
    },
    2: {
      SEND_TYPE: ['CONSTANT'],
      APP_NAME: ['CONSTANT'],
      BODY: ['TEMPLATE', 'ORIGINAL'],
      TOPIC: ['CONSTANT', 'TEMPLATE', 'JSONPATH'],
    },
    3: { SERVICE_NAME: ['CONSTANT', 'ENV_PARAM'], BODY: ['TEMPLATE', 'JSONPATH', 'ORIGINAL', 'CONSTANT'] },
    4: {
      NAME: ['CONSTANT'],
      HEADER_PARAMS: ['TEMPLATE'],
      BODY_PARAMS: ['TEMPLATE'],
      QUERY_STRING_PARAMS: ['TEMPLATE'],
    },
    5: {
      MESSAGE_TYPE: ['CONSTANT'],
      MESSAGE_LEVEL: ['CONSTANT'],
      PRODUCT_LINE: ['CONSTANT'],
      MESSAGE_CATEGORY: ['CONSTANT'],
      BODY: ['TEMPLATE', 'JSONPATH', 'ORIGINAL', 'CONSTANT'],
    },
  };
  for (const [typeId, keys] of Object.entries(allowed)) {
    const t = Number(typeId);
    for (const [key, forms] of Object.entries(keys)) {
      for (const form of ALL_FORMS) {
        const params = [...minimal(t).filter((p) => p.resourceKey !== key), param(key, form)];
        // SEND_TYPE's CONSTANT must be APP or BROADCAST: the sample gives APP
        const v = validateTargetParams(target(t, params));
        const formProblem = v.find((x) => x.field.endsWith('.form'));
        if (forms.includes(form)) assert.is(formProblem, undefined, `${typeId} ${key} ${form}: ${JSON.stringify(v)}`);
        else {
          assert.ok(formProblem, `${typeId} ${key} ${form} should be refused`);
          assert.match(formProblem!.message, new RegExp(`^${key} of the`));
        }
      }
    }
  }
});

test('message queue: SEND_TYPE is APP or BROADCAST; APP_NAME required only for APP', () => {
  const body = param('BODY', 'ORIGINAL');
  const topic = param('TOPIC', 'CONSTANT');
  const send = (value: string): TargetParam => ({ resourceKey: 'SEND_TYPE', form: 'CONSTANT', value });
  assert.equal(validateTargetParams(target(2, [send('BROADCAST'), body, topic])), []);
  const app = validateTargetParams(target(2, [send('APP'), body, topic]));
  assert.equal(app, [
    { field: 'params', message: 'the platform message-queue target needs APP_NAME when SEND_TYPE is APP' },
  ]);
  assert.equal(
    validateTargetParams(
      target(2, [send('APP'), { resourceKey: 'APP_NAME', form: 'CONSTANT', value: 'claims,policy' }, body, topic]),
    ),
    [],
  );
  assert.equal(fields(validateTargetParams(target(2, [send('MULTICAST'), body, topic]))), ['params.0.value']);
});

test('unknown keys, duplicate keys and unknown type ids are named', () => {
  const mail = minimal(1);
  assert.equal(fields(validateTargetParams(target(1, [...mail, param('BCC', 'CONSTANT')]))), [
    `params.${mail.length}.resourceKey`,
  ]);
  const dup = validateTargetParams(target(1, [...mail, param('SUBJECT', 'CONSTANT')]));
  assert.equal(fields(dup), [`params.${mail.length}.resourceKey`]);
  assert.match(dup[0]!.message, /given twice/);
  assert.equal(fields(validateTargetParams(target(9, []))), ['typeId']);
});

test('the record: enums, the TEMPLATE form and param shapes', () => {
  const base = target(3, minimal(3));
  const bad = {
    ...base,
    pushRetryStrategy: 'LINEAR',
    errorTolerance: 'SOME',
    deadLetterRecord: 'yes',
    id: -1,
    extra: 1,
  } as unknown as Target;
  assert.equal(fields(validateTarget(bad, 't')).sort(), [
    't.deadLetterRecord',
    't.errorTolerance',
    't.extra',
    't.id',
    't.pushRetryStrategy',
  ]);
  const p = (x: Partial<TargetParam> & Record<string, unknown>) =>
    validateTarget({ ...base, params: [param('SERVICE_NAME', 'CONSTANT'), x] }, 't');
  assert.equal(fields(p({ resourceKey: 'BODY', form: 'TEMPLATE', value: '{"a":"$.data.a"}' })), [
    't.params.1.template',
  ]);
  assert.equal(fields(p({ resourceKey: 'BODY', form: 'TEMPLATE', value: '[1]', template: 'x' })), ['t.params.1.value']);
  assert.equal(fields(p({ resourceKey: 'BODY', form: 'TEMPLATE', value: '{"a":"$.data.a"}', template: '${b}' })), [
    't.params.1.template',
  ]);
  assert.equal(fields(p({ resourceKey: 'BODY', form: 'TEMPLATE', value: '{"a":"$.x[?(@)]"}', template: '${a}' })), [
    't.params.1.value',
  ]);
  assert.equal(fields(p({ resourceKey: 'BODY', form: 'JSONPATH', value: 'data.x' })), ['t.params.1.value']);
  assert.equal(fields(p({ resourceKey: 'BODY', form: 'CONSTANT', value: 'x', template: 't' })), [
    't.params.1.template',
  ]);
  assert.equal(fields(p({ resourceKey: 'BODY', form: 'FANCY' as ParamForm, value: 'x' })), ['t.params.1.form']);
  assert.equal(fields(p({ resourceKey: 'body key', form: 'CONSTANT', value: 'x' })), ['t.params.1.resourceKey']);
  assert.equal(
    fields(
      validateTarget(
        {
          ...base,
          params: [{ resourceKey: 'SERVICE_NAME', form: 'ENV_PARAM', value: 'not a key' }, param('BODY', 'ORIGINAL')],
        },
        't',
      ),
    ),
    ['t.params.0.value'],
  );
  assert.equal(fields(validateTarget({ ...base, conversion: { kind: 'partial', path: 'nope' } }, 't')), [
    't.conversion.path',
  ]);
});

test.run();
