import { isJsonMediaType, JSON_MEDIA_TYPE } from './media-type.ts';
import type { RouteRegistry } from './route-registry.ts';
import type { JsonSchema } from './validate.ts';

// Kept loose on purpose: the document is data for clients and tools, not something we read back.
export type OpenApiDocument = {
  openapi: '3.0.3';
  info: { title: string; version: string; description?: string };
  paths: Record<string, Record<string, unknown>>;
  components: { schemas: Record<string, JsonSchema>; securitySchemes?: Record<string, unknown> };
  security?: Array<Record<string, string[]>>;
};

/** What a document may add: a description, and the bearer scheme every operation needs (with its scopes). */
export type OpenApiExtras = { description?: string; bearerScopes?: string[] };

const PROBLEM_SCHEMA: JsonSchema = {
  type: 'object',
  required: ['code', 'message', 'details'],
  properties: {
    code: { type: 'string', example: 'REQUEST.INVALID' },
    message: { type: 'string' },
    details: {},
    moreDetails: { type: 'integer', description: 'how many details were left out (an answer lists at most 20)' },
  },
};

/** `/rules/:id` and `/files/*rest` (express 5 syntax) to `/rules/{id}` and `/files/{rest}`. */
export const toOpenApiPath = (path: string): { path: string; params: string[] } => {
  const params: string[] = [];
  // OpenAPI has no optional segments: `{/:version}` is documented as if present.
  const withoutGroups = path.replace(/[{}]/g, '');
  const converted = withoutGroups.replace(/[:*]([A-Za-z_$][A-Za-z0-9_$]*)/g, (_m, name: string) => {
    params.push(name);
    return `{${name}}`;
  });
  return { path: converted, params };
};

// `$schema` and `$id` are ajv's business, not valid inside an OpenAPI 3.0 document.
const clean = (schema: JsonSchema): JsonSchema => {
  const { $schema: _s, $id: _i, ...rest } = schema;
  return rest;
};

const propertiesOf = (schema: JsonSchema | undefined): Array<[string, JsonSchema]> =>
  Object.entries((schema?.properties ?? {}) as Record<string, JsonSchema>);

const requiredOf = (schema: JsonSchema | undefined): string[] =>
  Array.isArray(schema?.required) ? (schema.required as string[]) : [];

/** An OpenAPI 3.0 document of the described routes: parameters, request body, 2xx and 400 answers. */
export function openApiDocument(
  title: string,
  registry: Pick<RouteRegistry, 'routes'>,
  version = '1.0.0',
  extras: OpenApiExtras = {},
): OpenApiDocument {
  const paths: OpenApiDocument['paths'] = {};
  for (const route of registry.routes) {
    const { path, params } = toOpenApiPath(route.path);
    const { body, query, headers, params: paramSchema, response } = route.schemas;
    const parameters = [
      ...params.map((name) => ({
        name,
        in: 'path',
        required: true,
        schema: clean(
          (paramSchema?.properties as Record<string, JsonSchema> | undefined)?.[name] ?? { type: 'string' },
        ),
      })),
      ...propertiesOf(query).map(([name, schema]) => ({
        name,
        in: 'query',
        required: requiredOf(query).includes(name),
        schema: clean(schema),
      })),
      ...propertiesOf(headers).map(([name, schema]) => ({
        name,
        in: 'header',
        required: requiredOf(headers).includes(name),
        schema: clean(schema),
      })),
    ];
    const success = String(route.successStatus ?? 200);
    const operation: Record<string, unknown> = {
      ...(route.summary !== undefined ? { summary: route.summary } : {}),
      ...(route.tags !== undefined ? { tags: route.tags } : {}),
      ...(parameters.length > 0 ? { parameters } : {}),
      ...(body !== undefined
        ? {
            requestBody: {
              required: true,
              content: { [route.requestContentType ?? 'application/json']: { schema: clean(body) } },
            },
          }
        : {}),
      responses: {
        [success]: {
          description: 'success',
          ...(response !== undefined ? { content: { 'application/json': { schema: clean(response) } } } : {}),
        },
        '400': {
          description: 'request validation failed',
          content: { 'application/json': { schema: { $ref: '#/components/schemas/Problem' } } },
        },
        ...(body !== undefined && isJsonMediaType(route.requestContentType)
          ? {
              '415': {
                description: `the body is not ${JSON_MEDIA_TYPE} (REQUEST.UNSUPPORTED_MEDIA_TYPE)`,
                content: { 'application/json': { schema: { $ref: '#/components/schemas/Problem' } } },
              },
            }
          : {}),
      },
    };
    paths[path] = { ...paths[path], [route.method]: operation };
  }
  const bearer = extras.bearerScopes !== undefined;
  return {
    openapi: '3.0.3',
    info: { title, version, ...(extras.description !== undefined && { description: extras.description }) },
    paths,
    components: {
      schemas: { Problem: PROBLEM_SCHEMA },
      ...(bearer && { securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } } }),
    },
    ...(bearer && { security: [{ bearer: extras.bearerScopes! }] }),
  };
}
