// Content conversion (spec "Content conversion" and the target Params forms): pure, never throws on content.
export { convert, type ConversionOutcome, type EnvLookup } from './convert.ts';
export { renderParam, type ParamValue, type TenantProfileLookup } from './param.ts';
export { checkJsonPath, queryPath, type PathQuery } from './json-path.ts';
export {
  checkTemplate,
  isJsonShaped,
  parseTemplate,
  parseVariableMap,
  renderTemplate,
  templateReferences,
  TEMPLATE_VARIABLE_NAME,
  type TemplateRendering,
  type TemplateVariables,
} from './template.ts';
export { checkConversion } from './conversion.validate.ts';
