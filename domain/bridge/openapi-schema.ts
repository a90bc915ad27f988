// The schema registry's OpenAPI 3.0 handling, pure (no ajv: commands/bridge/schema.compiler.ts compiles):
// - openapi-schema.convert.ts: an OpenAPI 3.0 Schema Object as a draft-07 JSON Schema;
// - openapi-schema.document.ts: the checks of a registry document and its business-data schema.
export {
  COMPONENT_NAME,
  COMPONENT_REF_PREFIX,
  type ConvertOptions,
  type JsonSchemaObject,
  KNOWN_FORMATS,
  NULLABLE_WRAPPER,
  openApiToJsonSchema,
  type SchemaProblem,
} from './openapi-schema.convert.ts';
export {
  businessDataJsonSchema,
  businessDataSchemaName,
  CLOUDEVENTS_OPTIONAL_STRINGS,
  CLOUDEVENTS_REQUIRED,
  type RegistryDocument,
  registryDocumentProblems,
} from './openapi-schema.document.ts';
