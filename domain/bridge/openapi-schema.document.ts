import { checkJsonLimits, dottedPath, LIMIT_LABELS, SCHEMA_DOCUMENT_LIMITS } from '../core/input-limits.ts';
import {
  at,
  COMPONENT_NAME,
  COMPONENT_REF_PREFIX,
  dedupe,
  isObject,
  type JsonSchemaObject,
  openApiToJsonSchema,
  type SchemaProblem,
} from './openapi-schema.convert.ts';

/**
 * A registry document (spec "Schema"): an OpenAPI 3.0 document whose components.schemas hold a Cloudevents
 * schema and the business-data schema its `data` references. Pure checks, no ajv: whether the converted
 * business-data schema compiles is checked by the command layer (commands/bridge/schema.compiler.ts),
 * once the decider has accepted everything else.
 */

/** The Cloudevents schema's properties the spec requires, and its optional string properties. */
export const CLOUDEVENTS_REQUIRED = ['id', 'source', 'subject', 'time', 'type', 'data'] as const;
export const CLOUDEVENTS_OPTIONAL_STRINGS = ['publishtime', 'eventbusname', 'publishaddr'] as const;
const CLOUDEVENTS_STRINGS = ['id', 'source', 'subject', 'time', 'type'] as const;
/** `Cloudevents` (the spec's spelling); `CloudEvents`, `cloudevents`, `CloudEvent` are accepted too */
const CLOUDEVENTS_KEY = /^cloud_?events?$/i;
const OPENAPI_VERSION = /^3\.0\.\d+$/;

export type RegistryDocument = {
  openapi: string;
  info: { title: string; version: string; [k: string]: unknown };
  paths: Record<string, unknown>;
  components: { schemas: Record<string, unknown>; [k: string]: unknown };
  [k: string]: unknown;
};

/**
 * The parts of the document the spec describes: openapi 3.0.x, info.title and info.version (non-empty
 * strings), info.description (a string), paths and components.schemas (objects), component names. Every
 * problem is listed, in the order (and with the messages) a JSON Schema validator gives: the value's type,
 * then its missing properties, then each property's own problems.
 */
function shapeProblems(doc: unknown, prefix: string): SchemaProblem[] {
  const problems: SchemaProblem[] = [];
  const problem = (path: string, message: string) => problems.push({ path, message });
  /** the object at `path`, or undefined after reporting what it is not; its missing properties reported */
  const object = (v: unknown, path: string, required: readonly string[]): Record<string, unknown> | undefined => {
    if (!isObject(v)) {
      problem(path, 'must be object');
      return undefined;
    }
    for (const name of required) if (v[name] === undefined) problem(at(path, name), 'is required');
    return v;
  };
  const string = (v: unknown, path: string, minLength = 0): v is string => {
    if (typeof v !== 'string') problem(path, 'must be string');
    else if (v.length < minLength) problem(path, `must NOT have fewer than ${minLength} characters`);
    return typeof v === 'string';
  };

  const root = object(doc, prefix, ['openapi', 'info', 'paths', 'components']);
  if (root === undefined) return problems;
  if (
    root.openapi !== undefined &&
    string(root.openapi, at(prefix, 'openapi')) &&
    !OPENAPI_VERSION.test(root.openapi)
  ) {
    problem(at(prefix, 'openapi'), 'must be an OpenAPI 3.0 version (3.0.x)');
  }
  if (root.info !== undefined) {
    const infoPath = at(prefix, 'info');
    const info = object(root.info, infoPath, ['title', 'version']);
    if (info !== undefined) {
      if (info.title !== undefined) string(info.title, at(infoPath, 'title'), 1);
      if (info.version !== undefined) string(info.version, at(infoPath, 'version'), 1);
      if (info.description !== undefined) string(info.description, at(infoPath, 'description'));
    }
  }
  if (root.paths !== undefined) object(root.paths, at(prefix, 'paths'), []);
  if (root.components !== undefined) {
    const componentsPath = at(prefix, 'components');
    const components = object(root.components, componentsPath, ['schemas']);
    if (components !== undefined && components.schemas !== undefined) {
      const schemasPath = at(componentsPath, 'schemas');
      const schemas = object(components.schemas, schemasPath, []);
      for (const name of Object.keys(schemas ?? {})) {
        if (!COMPONENT_NAME.test(name))
          problem(at(schemasPath, name), 'component names are letters, digits, . _ and - only');
      }
    }
  }
  return problems;
}

/** The name of the business-data schema: the component the Cloudevents schema's `data` references. */
export function businessDataSchemaName(document: unknown): string | undefined {
  const schemas =
    isObject(document) && isObject(document.components) && isObject(document.components.schemas)
      ? document.components.schemas
      : undefined;
  if (schemas === undefined) return undefined;
  const key = Object.keys(schemas).find((k) => CLOUDEVENTS_KEY.test(k));
  const cloud = key === undefined ? undefined : schemas[key];
  const data = isObject(cloud) && isObject(cloud.properties) ? cloud.properties.data : undefined;
  const ref = isObject(data) ? data.$ref : undefined;
  return typeof ref === 'string' && ref.startsWith(COMPONENT_REF_PREFIX)
    ? ref.slice(COMPONENT_REF_PREFIX.length)
    : undefined;
}

/**
 * Every problem of a registry document, each with its path (`prefix` first, e.g. `content`):
 * the input limits for schema documents first (SCHEMA_DOCUMENT_LIMITS, domain/core/input-limits.ts: a
 * document past them gets that one problem and no other check, since the checks below recurse into it);
 * the spec's shape (openapi 3.0.x, info.title, info.version, paths, components.schemas), the Cloudevents
 * schema (an object requiring id, source, subject, time, type and data; id/source/subject/time/type and the
 * optional publishtime/eventbusname/publishaddr strings; data a $ref to the business-data schema), every
 * component a valid OpenAPI 3.0 Schema Object, and the business-data schema an object.
 */
export function registryDocumentProblems(document: unknown, prefix = ''): SchemaProblem[] {
  const excess = checkJsonLimits(document, SCHEMA_DOCUMENT_LIMITS);
  if (excess !== null) {
    return [
      {
        path: dottedPath(excess.path, prefix),
        message: `${excess.message} (input limit for schema documents: ${LIMIT_LABELS[excess.limit]} ${excess.max})`,
      },
    ];
  }
  const shape = shapeProblems(document, prefix);
  if (shape.length > 0) return shape;
  const doc = document as RegistryDocument;
  const schemasPath = at(at(prefix, 'components'), 'schemas');
  const schemas = doc.components.schemas;
  const problems: SchemaProblem[] = [];
  const problem = (path: string, message: string) => problems.push({ path, message });

  // every component is a Schema Object
  for (const [name, schema] of Object.entries(schemas)) {
    problems.push(
      ...openApiToJsonSchema(schema, { components: schemas, path: at(schemasPath, name), componentsPath: schemasPath })
        .problems,
    );
  }

  const cloudKey = Object.keys(schemas).find((k) => CLOUDEVENTS_KEY.test(k));
  if (cloudKey === undefined) {
    problem(schemasPath, 'must hold the Cloudevents schema (components.schemas.Cloudevents)');
    return dedupe(problems);
  }
  const cloudPath = at(schemasPath, cloudKey);
  const cloud = schemas[cloudKey];
  if (!isObject(cloud)) return dedupe(problems); // reported above
  if (cloud.type !== 'object') problem(at(cloudPath, 'type'), 'must be object');
  const required = Array.isArray(cloud.required) ? cloud.required : [];
  const missing = CLOUDEVENTS_REQUIRED.filter((r) => !required.includes(r));
  if (missing.length > 0)
    problem(at(cloudPath, 'required'), `must list ${CLOUDEVENTS_REQUIRED.join(', ')} (missing ${missing.join(', ')})`);
  const props = isObject(cloud.properties) ? cloud.properties : undefined;
  if (props === undefined) {
    problem(at(cloudPath, 'properties'), `must define ${CLOUDEVENTS_REQUIRED.join(', ')}`);
    return dedupe(problems);
  }
  const propsPath = at(cloudPath, 'properties');
  for (const name of [...CLOUDEVENTS_STRINGS, ...CLOUDEVENTS_OPTIONAL_STRINGS]) {
    const prop = props[name];
    if (prop === undefined) {
      if ((CLOUDEVENTS_STRINGS as readonly string[]).includes(name))
        problem(at(propsPath, name), 'is required (type: string)');
    } else if (!isObject(prop) || prop.type !== 'string') problem(at(at(propsPath, name), 'type'), 'must be string');
  }
  const data = props.data;
  const dataPath = at(propsPath, 'data');
  if (!isObject(data) || typeof data.$ref !== 'string') {
    problem(
      at(dataPath, '$ref'),
      `is required: data references the business-data schema (${COMPONENT_REF_PREFIX}<name>)`,
    );
    return dedupe(problems);
  }
  const name = businessDataSchemaName(doc);
  if (name === undefined || !Object.hasOwn(schemas, name)) return dedupe(problems); // the $ref problem is reported above
  if (name === cloudKey) {
    problem(at(dataPath, '$ref'), 'must reference the business-data schema, not the Cloudevents schema');
    return dedupe(problems);
  }
  const business = schemas[name];
  if (isObject(business) && !('$ref' in business) && 'type' in business && business.type !== 'object') {
    problem(at(at(schemasPath, name), 'type'), 'must be object: event data is a JSON object');
  }
  if (problems.length > 0) return dedupe(problems);

  // the business-data schema as putEvent will use it converts without problems
  const converted = businessDataJsonSchema(doc);
  return 'problems' in converted ? converted.problems : [];
}

/**
 * The JSON Schema that event data is validated with: the business-data component (the Cloudevents
 * schema's `data` $ref) with everything it references, as `{ $ref: '#/definitions/<name>', definitions }`.
 */
export function businessDataJsonSchema(
  document: unknown,
): { name: string; schema: JsonSchemaObject } | { problems: SchemaProblem[] } {
  const name = businessDataSchemaName(document);
  if (name === undefined)
    return {
      problems: [
        {
          path: 'components.schemas',
          message: 'has no Cloudevents schema whose data references the business-data schema',
        },
      ],
    };
  const schemas = (document as RegistryDocument).components.schemas;
  const { schema, problems } = openApiToJsonSchema({ $ref: `${COMPONENT_REF_PREFIX}${name}` }, { components: schemas });
  return problems.length > 0 ? { problems } : { name, schema };
}
