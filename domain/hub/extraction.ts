import type { ContextDefinition } from './config.model.ts';
import { VARIABLE_NAME } from './config.model.ts';
import { memoizedParse, type PathStep, parsePath, parseSteps, selectOne } from './json-path.ts';

/**
 * Context extraction (spec "Context definition"): Contexts name parts of the payload (alias → JSONPath),
 * Variables name values (`Context.<alias>[.path]` or `Payload.<path>`). Extraction always runs on the
 * original payload; only the stored copy is masked.
 */
export type Extraction = {
  contexts: Record<string, unknown>;
  variables: Record<string, unknown>;
  /** variable name → the source path it was read from */
  sources: Record<string, string>;
  /** what could not be read (a missing path is not an error: its variable is absent) */
  diagnostics: string[];
};

type VariableSource =
  | { from: 'Context'; alias: string; steps: readonly PathStep[] }
  | { from: 'Payload'; steps: readonly PathStep[] };

/** parses a variable's source path, or says why it is not one */
export const parseVariablePath = memoizedParse(
  (path: string): { ok: true; source: VariableSource } | { ok: false; error: string } => {
    if (typeof path !== 'string') return { ok: false, error: 'must be a string' };
    if (path.startsWith('Payload.') || path === 'Payload') {
      const steps = parseSteps(path.slice('Payload'.length), true);
      return steps.ok
        ? { ok: true, source: { from: 'Payload', steps: steps.steps } }
        : { ok: false, error: steps.error };
    }
    if (path.startsWith('Context.')) {
      const steps = parseSteps(path.slice('Context.'.length));
      if (!steps.ok) return { ok: false, error: steps.error };
      const [first, ...rest] = steps.steps;
      if (first?.kind !== 'member') return { ok: false, error: 'must name a context alias after Context.' };
      return { ok: true, source: { from: 'Context', alias: first.name, steps: rest } };
    }
    return { ok: false, error: 'must start with Context. or Payload.' };
  },
);

/** violations of a context definition's Contexts and Variables (field names relative to the definition) */
export function checkExtraction(
  def: Pick<ContextDefinition, 'Contexts' | 'Variables'>,
): Array<{ field: string; message: string }> {
  const out: Array<{ field: string; message: string }> = [];
  for (const [alias, path] of Object.entries(def.Contexts)) {
    if (!VARIABLE_NAME.test(alias))
      out.push({ field: `Contexts.${alias}`, message: 'an alias is a name of letters, digits and _' });
    const p = parsePath(path);
    if (!p.ok) out.push({ field: `Contexts.${alias}`, message: p.error });
  }
  for (const [name, path] of Object.entries(def.Variables)) {
    if (!VARIABLE_NAME.test(name))
      out.push({ field: `Variables.${name}`, message: 'a variable name is letters, digits and _ (a FEEL name)' });
    const p = parseVariablePath(path);
    if (!p.ok) out.push({ field: `Variables.${name}`, message: p.error });
    else if (p.source.from === 'Context' && !Object.hasOwn(def.Contexts, p.source.alias)) {
      out.push({
        field: `Variables.${name}`,
        message: `names the context alias ${p.source.alias}, which Contexts does not declare`,
      });
    }
  }
  return out;
}

export function extract(
  def: Pick<ContextDefinition, 'Contexts' | 'Variables'> | undefined,
  payload: Record<string, unknown>,
): Extraction {
  const result: Extraction = { contexts: {}, variables: {}, sources: {}, diagnostics: [] };
  if (def === undefined) return result;
  for (const [alias, path] of Object.entries(def.Contexts)) {
    const p = parsePath(path);
    if (!p.ok) {
      result.diagnostics.push(`context ${alias}: ${p.error}`);
      continue;
    }
    const value = selectOne(payload, p.steps);
    if (value === undefined) result.diagnostics.push(`context ${alias}: ${path} is not in the payload`);
    else result.contexts[alias] = value;
  }
  for (const [name, path] of Object.entries(def.Variables)) {
    const p = parseVariablePath(path);
    if (!p.ok) {
      result.diagnostics.push(`variable ${name}: ${p.error}`);
      continue;
    }
    const root = p.source.from === 'Payload' ? payload : result.contexts[p.source.alias];
    const value = root === undefined ? undefined : selectOne(root, p.source.steps);
    result.sources[name] = path;
    if (value === undefined) result.diagnostics.push(`variable ${name}: ${path} is not in the payload`);
    else result.variables[name] = value;
  }
  return result;
}
