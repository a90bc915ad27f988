import type { ErrorObject, SchemaObject, ValidateFunction } from 'ajv';
import AjvModule from 'ajv';
import addFormatsModule from 'ajv-formats';
import type { Request, RequestHandler } from 'express';
import { dottedPath } from '../../domain/core/input-limits.ts';
import { firstIllFormedText } from '../../domain/core/well-formed.ts';
import { capProblem, MAX_ERROR_DETAILS } from './errors.ts';
import { isJsonMediaType, nonJsonBody } from './media-type.ts';

/** A JSON Schema (draft-07, as ajv 8 reads it by default). */
export type JsonSchema = SchemaObject;

/** What a route validates. Header names are lower case (node lower-cases incoming header names). */
export type RequestSchemas = { body?: JsonSchema; query?: JsonSchema; params?: JsonSchema; headers?: JsonSchema };

export type RequestPart = keyof RequestSchemas;

/** One bad field. `field` is a dotted path inside the part (`items.0.id`), '' for the part itself. */
export type ValidationIssue = { in: RequestPart; field: string; message: string; keyword: string };

// ajv and ajv-formats are CommonJS with `exports.default`; under NodeNext the default import is the
// module object for the type checker and the constructor at run time. `.default` is right for both.
const Ajv = AjvModule.default;
const addFormats = addFormatsModule.default;

const newAjv = (coerce: boolean) => {
  const ajv = new Ajv({
    allErrors: true,
    // Query strings and path segments are always strings: `?limit=10` must satisfy `type: integer`, and a
    // single `?status=open` must satisfy `type: array`. Bodies and headers are validated as sent.
    coerceTypes: coerce ? 'array' : false,
    useDefaults: true,
    strict: true,
  });
  addFormats(ajv);
  // OpenAPI's `example` annotation is welcome in route schemas; strict mode would reject it otherwise.
  ajv.addKeyword({ keyword: 'example' });
  return ajv;
};

const ajvFor = { plain: newAjv(false), coercing: newAjv(true) };

// One compiled function per schema object, compiled when the route is declared, never per request.
const compiled = { plain: new WeakMap<object, ValidateFunction>(), coercing: new WeakMap<object, ValidateFunction>() };

const compile = (schema: JsonSchema, coerce: boolean): ValidateFunction => {
  const kind = coerce ? 'coercing' : 'plain';
  let fn = compiled[kind].get(schema);
  if (fn === undefined) {
    fn = ajvFor[kind].compile(schema);
    compiled[kind].set(schema, fn);
  }
  return fn;
};

const PARTS: readonly RequestPart[] = ['params', 'headers', 'query', 'body'];

/**
 * Validates the request against JSON Schemas and answers 400 `REQUEST.INVALID` naming every bad field.
 * Query and path parameters are coerced to the schema's types (and defaults applied) in place, so handlers
 * read `req.query.limit` as a number. A route with a body schema takes JSON unless `bodyType` names
 * another type (a form, multipart): a body of another type is answered 415 before any field is looked at.
 */
export function validate(schemas: RequestSchemas, options: { bodyType?: string } = {}): RequestHandler {
  const checks = PARTS.flatMap((part) => {
    const schema = schemas[part];
    return schema === undefined ? [] : [{ part, fn: compile(schema, part === 'query' || part === 'params') }];
  });
  const jsonBody = schemas.body !== undefined && isJsonMediaType(options.bodyType);

  return (req, res, next) => {
    const refused = jsonBody ? nonJsonBody(req) : undefined;
    if (refused !== undefined) return next(refused);
    const issues: ValidationIssue[] = [];
    for (const { part, fn } of checks) {
      const data = readPart(req, part);
      if (!fn(data)) issues.push(...(fn.errors ?? []).map((e) => toIssue(part, e)));
      // bodies were checked when parsed (well-formed.ts); a header cannot hold a surrogate at all
      const illFormed = part === 'query' || part === 'params' ? illFormedIssue(part, data) : null;
      if (illFormed !== null) issues.push(illFormed);
    }
    if (issues.length === 0) return next();
    // the message names the first issues only; the answer is capped like every error answer (errors.ts)
    const named = issues.slice(0, MAX_ERROR_DETAILS).map(describeIssue).join('; ');
    const more = issues.length > MAX_ERROR_DETAILS ? ` (and ${issues.length - MAX_ERROR_DETAILS} more)` : '';
    res
      .status(400)
      .json(
        capProblem({ code: 'REQUEST.INVALID', message: `request validation failed: ${named}${more}`, details: issues }),
      );
  };
}

/** The issue for a value holding a lone surrogate (domain/core/well-formed.ts): the first such string or key. */
export function illFormedIssue(part: RequestPart, value: unknown): ValidationIssue | null {
  const path = firstIllFormedText(value);
  return path === null
    ? null
    : {
        in: part,
        field: dottedPath(path),
        message: 'must be well-formed Unicode text (it holds a lone surrogate)',
        keyword: 'wellFormed',
      };
}

const readPart = (req: Request, part: RequestPart): unknown => {
  if (part !== 'query') return req[part];
  // express 5's `req.query` is a getter that re-parses the URL on every read, so coercion applied to the
  // object it returns would be lost. Pin a copy as an own property, then validate (and coerce) that.
  const query: Record<string, unknown> = { ...(req.query as Record<string, unknown>) };
  Object.defineProperty(req, 'query', { value: query, writable: true, configurable: true, enumerable: true });
  return query;
};

const unescapePointer = (segment: string): string => segment.replace(/~1/g, '/').replace(/~0/g, '~');

const join = (base: string, name: unknown): string => {
  const leaf = typeof name === 'string' ? name : String(name);
  return base === '' ? leaf : `${base}.${leaf}`;
};

const toIssue = (part: RequestPart, e: ErrorObject): ValidationIssue => {
  const base = e.instancePath.split('/').slice(1).map(unescapePointer).join('.');
  const params = e.params as Record<string, unknown>;
  switch (e.keyword) {
    // ajv reports these on the parent object; the bad field is the property it names.
    case 'required':
      return { in: part, field: join(base, params.missingProperty), message: 'is required', keyword: e.keyword };
    case 'dependentRequired':
    case 'dependencies':
      return {
        in: part,
        field: join(base, params.missingProperty),
        message: `is required when ${String(params.property)} is present`,
        keyword: e.keyword,
      };
    case 'additionalProperties':
      return { in: part, field: join(base, params.additionalProperty), message: 'is not allowed', keyword: e.keyword };
    default:
      return { in: part, field: base, message: e.message ?? 'is invalid', keyword: e.keyword };
  }
};

const describeIssue = (i: ValidationIssue): string => `${i.field === '' ? i.in : `${i.in}.${i.field}`} ${i.message}`;
