import type { ErrorObject, ValidateFunction } from 'ajv';
import AjvModule from 'ajv';
import addFormatsModule from 'ajv-formats';
import { bridgeError } from '../../domain/bridge/bridge.errors.ts';
import {
  businessDataJsonSchema,
  businessDataSchemaName,
  type JsonSchemaObject,
  NULLABLE_WRAPPER,
  type SchemaProblem,
} from '../../domain/bridge/openapi-schema.ts';
import { MAX_LISTED_PROBLEMS } from '../../domain/bridge/schema.decider.ts';
import type { DomainError } from '../../domain/core/domain-error.ts';

/**
 * The schema registry's ajv glue (here, not in domain/, which does not use ajv): one ajv configuration for the
 * creation check of a registry document and for validating event data at putEvent, and ajv's errors as
 * violations with dotted paths. The conversion from OpenAPI 3.0 is pure and stays in
 * domain/bridge/openapi-schema*.ts.
 */

// ajv and ajv-formats are CommonJS with `exports.default` (see http/core/validate.ts).
const Ajv = AjvModule.default;
const addFormats = addFormatsModule.default;

/**
 * An ajv for converted schemas: all errors, formats checked, never mutating the data (no defaults, no
 * coercion). Not strict: the conversion already admits only known keywords, and strict mode's extra rules
 * (strictTuples, strictRequired) would refuse valid OpenAPI documents.
 */
export function createDataAjv() {
  // verbose: errors carry their schema, which is how the nullable wrapper's own errors are recognised
  const ajv = new Ajv({
    allErrors: true,
    verbose: true,
    strict: false,
    allowUnionTypes: true,
    useDefaults: false,
    coerceTypes: false,
    validateFormats: true,
  });
  addFormats(ajv);
  return ajv;
}

let sharedAjv: ReturnType<typeof createDataAjv> | undefined;

/**
 * Compiles a converted schema. The schema is removed from ajv's internal cache right away (the compiled
 * function keeps what it needs), so compiling many documents does not grow the shared instance.
 */
export function compileJsonSchema(schema: JsonSchemaObject): ValidateFunction {
  sharedAjv ??= createDataAjv();
  try {
    return sharedAjv.compile(schema);
  } finally {
    sharedAjv.removeSchema(schema);
  }
}

export type DataViolation = { path: string; message: string; keyword: string };

const unescapePointer = (segment: string): string => segment.replace(/~1/g, '/').replace(/~0/g, '~');
const at = (path: string, key: string | number): string => (path === '' ? String(key) : `${path}.${key}`);

/** ajv errors as violations; `root` names the validated value (`data` → `data.amount`). */
export function toViolations(errors: readonly ErrorObject[], root: string): DataViolation[] {
  const wrapperNoise = (e: ErrorObject) =>
    (e.parentSchema as { $comment?: unknown } | undefined)?.$comment === NULLABLE_WRAPPER;
  return errors
    .filter((e) => !wrapperNoise(e))
    .map((e) => {
      const base = e.instancePath
        .split('/')
        .slice(1)
        .map(unescapePointer)
        .reduce((p, s) => at(p, s), root);
      const params = e.params as Record<string, unknown>;
      switch (e.keyword) {
        case 'required':
          return { path: at(base, String(params.missingProperty)), message: 'is required', keyword: e.keyword };
        case 'additionalProperties':
          return { path: at(base, String(params.additionalProperty)), message: 'is not allowed', keyword: e.keyword };
        default:
          return { path: base, message: e.message ?? 'is invalid', keyword: e.keyword };
      }
    });
}

/**
 * The business-data schema of a registry document as putEvent will use it: [] when it converts and
 * compiles, else the problems (paths under `prefix`, e.g. `content`). The pure checks
 * (registryDocumentProblems) come first, in the decider; this is the last one, run on what it accepted.
 */
export function compileProblems(document: unknown, prefix = ''): SchemaProblem[] {
  const converted = businessDataJsonSchema(document);
  if ('problems' in converted) return converted.problems;
  try {
    compileJsonSchema(converted.schema);
    return [];
  } catch (err) {
    const name = businessDataSchemaName(document) ?? converted.name;
    return [
      {
        path: at(at(at(prefix, 'components'), 'schemas'), name),
        message: `does not compile: ${(err as Error).message.split('\n', 1)[0]}`,
      },
    ];
  }
}

/** SCHEMA.INVALID for compile problems, as the decider answers its own (schema.decider.ts). */
export const compileFailure = (problems: SchemaProblem[]): DomainError =>
  bridgeError(
    'SCHEMA.INVALID',
    `invalid schema: ${problems
      .slice(0, 5)
      .map((p) => `${p.path} ${p.message}`)
      .join('; ')}`,
    problems.slice(0, MAX_LISTED_PROBLEMS),
  );
