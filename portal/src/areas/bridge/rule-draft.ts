import type { AdminBody } from './bridge-api.ts';
import { type ConversionDraft, draftOf, emptyConversion, recordOf } from './conversion.ts';
import { isJsonObject, parseJsonText, pretty } from './json-text.ts';
import { type ParamForm, type ParamSpec, type TypeId, typeOf } from './target-types.ts';

/**
 * A rule as its editor holds it, and the API's record of it both ways. Every parameter of the target's
 * type has a row; an optional one left empty is not sent.
 */
export type ParamDraft = { form: ParamForm; value: string; template: string };
export type TargetDraft = {
  /** React's key: stays when targets are removed */
  key: string;
  id: number;
  typeId: TypeId;
  params: Record<string, ParamDraft>;
  conversion: ConversionDraft;
  pushRetryStrategy: 'BACKOFF_RETRY' | 'EXPONENTIAL_DECAY_RETRY';
  errorTolerance: 'ALL' | 'NONE';
  deadLetterRecord: boolean;
};
export type RuleDraft = {
  id: string;
  bus: string;
  name: string;
  description: string;
  pattern: string;
  targets: TargetDraft[];
  enabled: boolean;
};

let keys = 0;
const nextKey = () => `t${++keys}`;

const emptyParam = (spec: ParamSpec): ParamDraft => ({
  form: spec.forms[0]!,
  value: spec.values?.[0] ?? '',
  template: '',
});

export function paramsFor(typeId: TypeId, old: Record<string, ParamDraft> = {}): Record<string, ParamDraft> {
  const out: Record<string, ParamDraft> = {};
  for (const spec of typeOf(typeId).params) {
    const kept = old[spec.key];
    out[spec.key] = kept !== undefined && spec.forms.includes(kept.form) ? kept : emptyParam(spec);
  }
  return out;
}

export function newTarget(taken: readonly TargetDraft[]): TargetDraft {
  const id = Math.max(0, ...taken.map((t) => t.id)) + 1;
  return {
    key: nextKey(),
    id,
    typeId: 4,
    params: paramsFor(4),
    conversion: emptyConversion(),
    pushRetryStrategy: 'BACKOFF_RETRY',
    errorTolerance: 'ALL',
    deadLetterRecord: false,
  };
}

export const newRule = (bus: string): RuleDraft => ({
  id: '',
  bus,
  name: '',
  description: '',
  pattern: pretty({ source: ['shop:orders'] }),
  targets: [newTarget([])],
  enabled: true,
});

type ApiTarget = Record<string, unknown>;

/** what POST and PUT /rules both take from the editor (POST adds the bus and the optional id) */
export type RuleFields = Omit<AdminBody<'/rules', 'post'>, 'bus' | 'id' | 'platform'>;
type TargetBody = RuleFields['targets'][number];
type ParamBody = NonNullable<TargetBody['params']>[number];

export function draftOfRule(rule: {
  id?: string;
  bus?: string;
  name?: string;
  description?: string | null;
  pattern?: unknown;
  targets?: unknown[];
  enabled?: boolean;
}): RuleDraft {
  return {
    id: rule.id ?? '',
    bus: rule.bus ?? '',
    name: rule.name ?? '',
    description: rule.description ?? '',
    pattern: pretty(rule.pattern ?? {}),
    enabled: rule.enabled ?? true,
    targets: (rule.targets ?? []).map((raw) => {
      const t = raw as ApiTarget;
      const typeId = (Number(t.typeId) || 4) as TypeId;
      const params: Record<string, ParamDraft> = {};
      for (const p of (t.params as ApiTarget[] | undefined) ?? []) {
        params[String(p.resourceKey)] = {
          form: p.form as ParamForm,
          value:
            p.form === 'TEMPLATE'
              ? pretty(parseJsonText(String(p.value)).ok ? JSON.parse(String(p.value)) : p.value)
              : String(p.value ?? ''),
          template: String(p.template ?? ''),
        };
      }
      return {
        key: nextKey(),
        id: Number(t.id),
        typeId,
        params: paramsFor(typeId, params),
        conversion: draftOf(t.conversion),
        pushRetryStrategy: (t.pushRetryStrategy as TargetDraft['pushRetryStrategy']) ?? 'BACKOFF_RETRY',
        errorTolerance: (t.errorTolerance as TargetDraft['errorTolerance']) ?? 'ALL',
        deadLetterRecord: t.deadLetterRecord === true,
      };
    }),
  };
}

const sentParam = (spec: ParamSpec, p: ParamDraft): boolean =>
  spec.required !== false || p.form === 'ORIGINAL' || p.value.trim() !== '' || p.template.trim() !== '';

/** the keys of a target's params as the request sends them, in order (a refusal names them by index) */
export const sentKeys = (t: TargetDraft): string[] =>
  typeOf(t.typeId)
    .params.filter((spec) => sentParam(spec, t.params[spec.key]!))
    .map((spec) => spec.key);

/** A TEMPLATE's variable map is sent as its JSON text; anything not yet JSON goes as typed (the API says why). */
function paramBody(key: string, p: ParamDraft): ParamBody {
  const value = p.form === 'TEMPLATE' ? compact(p.value) : p.form === 'ORIGINAL' ? '' : p.value;
  return { resourceKey: key, form: p.form, value, ...(p.form === 'TEMPLATE' && { template: p.template }) };
}
const compact = (text: string): string => {
  const v = parseJsonText(text);
  return v.ok && isJsonObject(v.value) ? JSON.stringify(v.value) : text;
};

/** the rule's body for POST/PUT, or the first problem the browser sees itself */
export function ruleBody(d: RuleDraft, pattern: unknown): { body: RuleFields } | { field: string; message: string } {
  const targets: TargetBody[] = [];
  for (const [i, t] of d.targets.entries()) {
    const conversion = recordOf(t.conversion);
    if (!conversion.ok) return { field: `targets.${i}.conversion`, message: conversion.message };
    targets.push({
      id: t.id,
      typeId: t.typeId,
      pushRetryStrategy: t.pushRetryStrategy,
      errorTolerance: t.errorTolerance,
      deadLetterRecord: t.deadLetterRecord,
      params: typeOf(t.typeId)
        .params.filter((spec) => sentParam(spec, t.params[spec.key]!))
        .map((spec) => paramBody(spec.key, t.params[spec.key]!)),
      conversion: conversion.conversion,
    });
  }
  return {
    body: {
      name: d.name,
      ...(d.description.trim() !== '' && { description: d.description }),
      pattern,
      targets,
      enabled: d.enabled,
    },
  };
}
