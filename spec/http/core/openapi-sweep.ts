// Shared set-up for the specs that walk every operation of every service (not a spec itself): the whole
// platform in-process on a temp DATA_DIR (the identity harness), a token with every scope of the seeded demo
// client, and every service's OpenAPI document read from the platform itself.
import { SERVICE_SCOPES } from '../../../domain/core/service.scopes.ts';
import { AUDIT_OPENAPI_PATH } from '../../../http/audit/audit.paths.ts';
import { BRIDGE_OPENAPI_PATH } from '../../../http/bridge/bridge.paths.ts';
import type { JsonSchema } from '../../../http/core/validate.ts';
import { HUB_OPENAPI_PATH } from '../../../http/hub/hub.paths.ts';
import { ADMIN_OPENAPI_PATH } from '../../../http/identity/identity.paths.ts';
import { WORKFLOW_BASE, WORKFLOW_OPENAPI } from '../../../http/workflow/workflow.paths.ts';
import { type IdentityPlatform, SEED, startIdentityPlatform } from '../identity/identity-harness.ts';

export const ALL_SCOPES = SERVICE_SCOPES;

/** each service's document; the workflow's under its in-cluster base (the external base repeats every route) */
export const OPENAPI_DOCUMENTS = {
  bridge: BRIDGE_OPENAPI_PATH,
  identity: ADMIN_OPENAPI_PATH,
  audit: AUDIT_OPENAPI_PATH,
  workflow: `${WORKFLOW_BASE}${WORKFLOW_OPENAPI}`,
  hub: HUB_OPENAPI_PATH,
} as const;

export type Parameter = { name: string; in: 'path' | 'query' | 'header'; required?: boolean; schema?: JsonSchema };

export type Operation = {
  service: keyof typeof OPENAPI_DOCUMENTS;
  method: string;
  /** the OpenAPI path, `{name}` for each path parameter */
  path: string;
  parameters: Parameter[];
  /** the request body's media type and schema, when it has one */
  body?: { type: string; schema: JsonSchema };
};

export type SweepPlatform = IdentityPlatform & { token: string; operations: Operation[] };

export async function startSweepPlatform(): Promise<SweepPlatform> {
  const ctx = await startIdentityPlatform({ redirectUri: 'https://rp.example/callback' });
  const basic = `Basic ${Buffer.from(`${encodeURIComponent(SEED.clientId)}:${encodeURIComponent(SEED.clientSecret)}`).toString('base64')}`;
  const res = await fetch(`${ctx.base}/cas/oidc/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: basic },
    body: new URLSearchParams({ grant_type: 'client_credentials', scope: ALL_SCOPES.join(' ') }),
  });
  const issued = (await res.json()) as { access_token?: string; scope?: string };
  if (res.status !== 200 || issued.access_token === undefined)
    throw new Error(`no token: ${res.status} ${JSON.stringify(issued)}`);
  const operations: Operation[] = [];
  for (const [service, path] of Object.entries(OPENAPI_DOCUMENTS) as Array<[Operation['service'], string]>) {
    const doc = await fetch(`${ctx.base}${path}`, { headers: { authorization: `Bearer ${issued.access_token}` } });
    if (doc.status !== 200) throw new Error(`${service}: ${path} answered ${doc.status}`);
    operations.push(
      ...operationsOf(service, (await doc.json()) as { paths: Record<string, Record<string, RawOperation>> }),
    );
  }
  return { ...ctx, token: issued.access_token, operations };
}

type RawOperation = { parameters?: Parameter[]; requestBody?: { content?: Record<string, { schema?: JsonSchema }> } };

function operationsOf(
  service: Operation['service'],
  doc: { paths: Record<string, Record<string, RawOperation>> },
): Operation[] {
  return Object.entries(doc.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, op]) => {
      const [type, media] = Object.entries(op.requestBody?.content ?? {})[0] ?? [];
      return {
        service,
        method: method.toUpperCase(),
        path,
        parameters: op.parameters ?? [],
        ...(type !== undefined && { body: { type, schema: media?.schema ?? {} } }),
      };
    }),
  );
}

export const isJsonType = (type: string) => type === 'application/json' || /^application\/[^;]*\+json$/.test(type);

/** the first branch of a union: the shape a sample follows */
const branch = (s: JsonSchema): JsonSchema => {
  const alternatives = (s.anyOf ?? s.oneOf) as JsonSchema[] | undefined;
  return alternatives !== undefined && alternatives.length > 0
    ? { ...alternatives[0], ...(s.properties !== undefined && { properties: s.properties }) }
    : s;
};

const typeOf = (s: JsonSchema): string | undefined => {
  const t = branch(s).type;
  return Array.isArray(t) ? (t.find((x) => x !== 'null') as string | undefined) : (t as string | undefined);
};

const FORMATS: Record<string, string> = {
  'date-time': '2026-01-01T00:00:00Z',
  date: '2026-01-01',
  email: 'a@example.com',
  uri: 'https://example.com/x',
  url: 'https://example.com/x',
  uuid: '00000000-0000-4000-8000-000000000000',
};
const CANDIDATES = ['x', 'X', 'demo', 'EMAIL', 'a1', 'A1', 'x.y', 'a-b', '1', 'ab12cd34', 'x/y'];

/** a string the schema takes: its format's, or the first candidate its pattern and lengths allow */
function sampleString(s: JsonSchema): string {
  if (typeof s.format === 'string' && FORMATS[s.format] !== undefined) return FORMATS[s.format]!;
  const min = Number(s.minLength ?? 1);
  const max = Number(s.maxLength ?? Infinity);
  const pattern = typeof s.pattern === 'string' ? new RegExp(s.pattern, 'u') : undefined;
  const fits = (c: string) => c.length >= min && c.length <= max && (pattern === undefined || pattern.test(c));
  return (
    CANDIDATES.find(fits) ?? [...CANDIDATES.map((c) => c.repeat(min)), 'x'.repeat(min)].find(fits) ?? 'x'.repeat(min)
  );
}

/** a value the schema would take, as near as a sample gets (required properties only) */
export function sample(schema: JsonSchema | undefined, depth = 0): unknown {
  if (schema === undefined || depth > 6) return {};
  const s = branch(schema);
  if (s.example !== undefined && depth > 0) return structuredClone(s.example);
  if (s.default !== undefined) return structuredClone(s.default);
  if (Array.isArray(s.enum)) return s.enum[0];
  switch (typeOf(s)) {
    case 'string':
      return sampleString(s);
    case 'integer':
    case 'number':
      return Number(s.minimum ?? 1);
    case 'boolean':
      return true;
    case 'array':
      return Number(s.minItems ?? 0) > 0 ? [sample(s.items as JsonSchema, depth + 1)] : [];
    default: {
      const props = (s.properties ?? {}) as Record<string, JsonSchema>;
      const required = (s.required ?? []) as string[];
      return Object.fromEntries(
        required.filter((k) => props[k] !== undefined).map((k) => [k, sample(props[k], depth + 1)]),
      );
    }
  }
}

/** The dotted path of every string the schema declares (object properties, array items), to a few levels. */
export function stringFields(
  schema: JsonSchema | undefined,
  prefix: Array<string | number> = [],
  depth = 0,
): Array<Array<string | number>> {
  if (schema === undefined || depth > 4) return [];
  const s = branch(schema);
  switch (typeOf(s)) {
    case 'string':
      return [prefix];
    case 'array':
      return stringFields(s.items as JsonSchema | undefined, [...prefix, 0], depth + 1);
    default:
      return Object.entries((s.properties ?? {}) as Record<string, JsonSchema>).flatMap(([k, v]) =>
        stringFields(v, [...prefix, k], depth + 1),
      );
  }
}

/** `value` with the leaf at `path` set to `leaf` (containers on the way made as needed) */
export function withLeaf(value: unknown, path: Array<string | number>, leaf: unknown): unknown {
  if (path.length === 0) return leaf;
  const [head, ...rest] = path;
  if (typeof head === 'number') {
    const arr = Array.isArray(value) ? [...value] : [];
    arr[head] = withLeaf(arr[head], rest, leaf);
    return arr;
  }
  const obj =
    typeof value === 'object' && value !== null && !Array.isArray(value)
      ? { ...(value as Record<string, unknown>) }
      : {};
  obj[head!] = withLeaf(obj[head!], rest, leaf);
  return obj;
}

/** the path with each `{name}` replaced by `value(name)` (already encoded) */
export const fillPath = (path: string, value: (name: string) => string): string =>
  path.replace(/\{([^}]+)\}/g, (_m, name: string) => value(name));
