// Content conversion (spec "Content conversion" and the target Params forms): pure, never throws on content.

export { checkConversion } from './conversion.validate.ts';
export { type ConversionOutcome, convert, type EnvLookup } from './convert.ts';
export { checkJsonPath, type PathQuery, queryPath } from './json-path.ts';
export { type ParamValue, renderParam, type TenantProfileLookup } from './param.ts';
export {
  checkTemplate,
  isJsonShaped,
  parseTemplate,
  parseVariableMap,
  renderTemplate,
  TEMPLATE_VARIABLE_NAME,
  type TemplateRendering,
  type TemplateVariables,
  templateReferences,
} from './template.ts';
