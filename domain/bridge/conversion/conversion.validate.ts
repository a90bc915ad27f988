import { isConfigKey } from '../config-entry.decider.ts';
import { at, type Violation } from '../violation.ts';
import { checkJsonPath } from './json-path.ts';
import { checkTemplate } from './template.ts';

const KINDS = ['complete', 'partial', 'constant', 'template', 'env'] as const;
const MAX_CONSTANT_BYTES = 64 * 1024;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Problems with a target's conversion record (see model.ts Conversion), fields named under `base`. */
export function checkConversion(conversion: unknown, base: string): Violation[] {
  if (!isObject(conversion)) return [{ field: base, message: 'must be an object with a kind' }];
  const kind = conversion.kind;
  if (typeof kind !== 'string' || !(KINDS as readonly string[]).includes(kind)) {
    return [{ field: at(base, 'kind'), message: `must be one of ${KINDS.join(', ')}` }];
  }
  const allowed: Record<(typeof KINDS)[number], string[]> = {
    complete: ['kind'],
    partial: ['kind', 'path'],
    constant: ['kind', 'value'],
    template: ['kind', 'variables', 'template'],
    env: ['kind', 'key'],
  };
  const violations: Violation[] = Object.keys(conversion)
    .filter((k) => !allowed[kind as (typeof KINDS)[number]].includes(k))
    .map((k) => ({ field: at(base, k), message: `is not a field of the ${kind} conversion` }));
  switch (kind) {
    case 'partial': {
      const p = checkJsonPath(conversion.path);
      if (p !== null) violations.push({ field: at(base, 'path'), message: p });
      break;
    }
    case 'constant':
      if (!('value' in conversion)) violations.push({ field: at(base, 'value'), message: 'is required' });
      else if (JSON.stringify(conversion.value ?? null).length > MAX_CONSTANT_BYTES) {
        violations.push({
          field: at(base, 'value'),
          message: `must be at most ${MAX_CONSTANT_BYTES} characters of JSON`,
        });
      }
      break;
    case 'template':
      // the model keeps the map as strings (a constant renders as its text either way: `"7"` and `7` insert
      // the same characters); a TEMPLATE parameter's Value may hold other JSON constants
      if (isObject(conversion.variables)) {
        for (const [name, value] of Object.entries(conversion.variables)) {
          if (typeof value !== 'string')
            violations.push({
              field: at(at(base, 'variables'), name),
              message: 'must be a JSONPath ($…) or a constant string',
            });
        }
      }
      for (const p of checkTemplate(conversion.variables, conversion.template)) {
        const field =
          p.where === 'variables'
            ? p.key === undefined
              ? at(base, 'variables')
              : at(at(base, 'variables'), p.key)
            : at(base, 'template');
        violations.push({ field, message: p.message });
      }
      break;
    case 'env':
      if (!isConfigKey(conversion.key))
        violations.push({ field: at(base, 'key'), message: 'must be a configuration-center key (e.g. alert.token)' });
      break;
    default:
      break;
  }
  return violations;
}
