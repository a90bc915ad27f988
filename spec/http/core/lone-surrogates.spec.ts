// A string holding lone surrogates is bad input, never a crash: every operation of every service's OpenAPI
// document, against the whole platform in-process, gets `"\ud800\udc00\udfff\ud83d"` (a valid pair, then
// two lone surrogates, as JSON escapes) in each string field of its body (400 naming the field), as an
// object key, and in each path and query parameter (percent-encoded as the surrogates' WTF-8 bytes: those
// decode to U+FFFD or a 400, never to a lone surrogate); no answer is a 5xx.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { WORKFLOW_BASE } from '../../../http/workflow/workflow.paths.ts';
import {
  fillPath,
  isJsonType,
  type Operation,
  type SweepPlatform,
  sample,
  startSweepPlatform,
  stringFields,
  withLeaf,
} from './openapi-sweep.ts';

const BAD = '\ud800\udc00\udfff\ud83d';
/** the string as the body carries it: every code unit a JSON escape */
const BAD_JSON = '"\\ud800\\udc00\\udfff\\ud83d"';
/** its UTF-8 for the pair, and the lone surrogates' 3-byte forms (CESU/WTF-8), percent-encoded */
const BAD_URL = '%F0%90%80%80%ED%BF%BF%ED%A0%BD';
const MARK = 'lone-surrogates-go-here';

const test = suite('lone surrogates');
let p: SweepPlatform;
test.before(async () => {
  p = await startSweepPlatform();
});
test.after(() => p.stop());

type Sent = { status: number; text: string };

async function send(
  op: Operation,
  o: { path?: Record<string, string>; query?: Record<string, string>; body?: unknown },
): Promise<Sent> {
  const path = fillPath(op.path, (name) => o.path?.[name] ?? 'x');
  const query = Object.entries(o.query ?? {})
    .map(([k, v]) => `${encodeURIComponent(k)}=${v}`)
    .join('&');
  const json = op.body !== undefined && isJsonType(op.body.type);
  const body = json
    ? JSON.stringify(o.body ?? sample(op.body!.schema)).replaceAll(JSON.stringify(MARK), BAD_JSON)
    : undefined;
  const res = await fetch(`${p.base}${path}${query === '' ? '' : `?${query}`}`, {
    method: op.method,
    headers: { authorization: `Bearer ${p.token}`, ...(body !== undefined && { 'content-type': 'application/json' }) },
    ...(body !== undefined && { body }),
  });
  return { status: res.status, text: await res.text() };
}

/** the required query parameters, each with a value its schema takes (percent-encoded) */
const requiredQuery = (op: Operation): Record<string, string> =>
  Object.fromEntries(
    op.parameters
      .filter((q) => q.in === 'query' && q.required)
      .map((q) => [q.name, encodeURIComponent(String(sample(q.schema)))]),
  );

const isString = (schema: Operation['parameters'][number]['schema']) => {
  const s = (schema?.anyOf?.[0] ?? schema?.oneOf?.[0] ?? schema ?? { type: 'string' }) as { type?: unknown };
  return s.type === undefined || s.type === 'string' || (Array.isArray(s.type) && s.type.includes('string'));
};

/** the answer's details name this body field */
const names = (r: Sent, field: string): boolean => {
  const details = (JSON.parse(r.text) as { details?: unknown }).details;
  return (
    Array.isArray(details) && details.some((d: { in?: string; field?: string }) => d.in === 'body' && d.field === field)
  );
};

const describe = (op: Operation, where: string, r: Sent) =>
  `${op.method} ${op.path} (${where}): ${r.status} ${r.text.slice(0, 200)}`;

test('every operation answers bad strings in its path, query and body with a 4xx at most: a named 400 for body fields', async () => {
  assert.ok(p.operations.length > 100, `${p.operations.length} operations`);
  const crashes: string[] = [];
  const unnamed: string[] = [];
  let requests = 0;
  for (const op of p.operations) {
    const query = requiredQuery(op);
    const check = (where: string, r: Sent) => {
      requests++;
      if (r.status >= 500) crashes.push(describe(op, where, r));
    };
    for (const param of op.parameters.filter((x) => x.in === 'path')) {
      check(`path ${param.name}`, await send(op, { path: { [param.name]: BAD_URL }, query }));
    }
    for (const param of op.parameters.filter((x) => x.in === 'query' && isString(x.schema))) {
      check(`query ${param.name}`, await send(op, { query: { ...query, [param.name]: BAD_URL } }));
    }
    if (op.body === undefined || !isJsonType(op.body.type)) continue;
    const base = sample(op.body.schema);
    const fields = stringFields(op.body.schema);
    // a body without declared strings still gets one: an extra field
    for (const field of fields.length > 0 ? fields : [Array.isArray(base) ? [0, 'probe'] : ['probe']]) {
      const r = await send(op, { query, body: withLeaf(base, field, MARK) });
      check(`body ${field.join('.')}`, r);
      const named = r.status === 400 && names(r, field.join('.'));
      if (!named) unnamed.push(describe(op, `body ${field.join('.')}`, r));
    }
    // and an object key
    if (typeof base === 'object' && base !== null && !Array.isArray(base)) {
      const r = await send(op, { query, body: { ...base, [MARK]: 'x' } });
      check('body key', r);
      const named = r.status === 400 && names(r, BAD);
      if (!named) unnamed.push(describe(op, 'body key', r));
    }
  }
  assert.ok(requests > 500, `${requests} requests`);
  assert.equal(crashes, [], `${crashes.length} answers were 5xx:\n${crashes.join('\n')}`);
  assert.equal(unnamed, [], `${unnamed.length} answers did not name the body field:\n${unnamed.join('\n')}`);
});

test('the three operations first found to crash answer 400 naming the field', async () => {
  const cases = [
    ['POST', '/comm/v1/notifications/send', 'RequestId'],
    ['PUT', '/comm/v1/preferences', 'RecipientId'],
    ['POST', '/comm/v1/notifications/tcc/try', 'RequestId'],
  ] as const;
  for (const [method, path, field] of cases) {
    const op = p.operations.find((o) => o.method === method && o.path === path);
    assert.ok(op, `${method} ${path} is documented`);
    const r = await send(op, { body: withLeaf(sample(op.body!.schema), [field], MARK) });
    assert.is(r.status, 400, describe(op, field, r));
    const body = JSON.parse(r.text) as {
      code: string;
      message: string;
      details: Array<{ in: string; field: string; keyword: string }>;
    };
    assert.is(body.code, 'REQUEST.INVALID');
    assert.match(body.message, `body.${field}`);
    assert.equal(
      body.details.map((d) => [d.in, d.field, d.keyword]),
      [['body', field, 'wellFormed']],
    );
  }
});

test('a BPMN upload whose ids hold lone surrogates as character references is refused, not a crash', async () => {
  const xml = `<?xml version="1.0" encoding="UTF-8"?>
<bpmn:definitions xmlns:bpmn="http://www.omg.org/spec/BPMN/20100524/MODEL" id="d&#xD800;" targetNamespace="http://example.com/bpmn">
  <bpmn:process id="p&#xDFFF;&#xD83D;" name="n&#xD800;" isExecutable="true">
    <bpmn:startEvent id="start" />
  </bpmn:process>
</bpmn:definitions>`;
  const files = new FormData();
  files.append('files', new Blob([xml], { type: 'application/xml' }), 'lone.bpmn');
  const res = await fetch(`${p.base}${WORKFLOW_BASE}/deployment`, {
    method: 'POST',
    headers: { authorization: `Bearer ${p.token}` },
    body: files,
  });
  const text = await res.text();
  assert.ok(res.status >= 400 && res.status < 500, `${res.status} ${text}`);
});

test.run();
