import { assertNever } from '../../core/decider.ts';
import type { BridgeEvent, Conversion } from '../model.ts';
import { queryPath } from './json-path.ts';
import { renderTemplate } from './template.ts';

/**
 * A target's content conversion (the spec's table): complete event, partial (JSONPath), constant,
 * template, environment variable (a configuration-center key). Same shape as `Convert` in
 * commands/bridge/bridge.contracts.ts (domain/ cannot import it; spec/domain/bridge/conversion checks they agree).
 */
export type ConversionOutcome = { ok: true; payload: unknown; missing: string[] } | { ok: false; error: string };

/** Reads a configuration-center key for the event's tenant (ConfigCenter.get bound to a tenant). */
export type EnvLookup = (key: string) => Promise<string | undefined>;

/**
 * Renders the payload. Bad content (a path that matches nothing, a template that does not render to JSON,
 * an unset key) is an `{ ok: false, error }` for the trace, never an exception. An exception from `env`
 * itself (the store is down) is passed on: that is not the event's fault and the delivery is retried.
 */
export async function convert(event: BridgeEvent, conversion: Conversion, env: EnvLookup): Promise<ConversionOutcome> {
  switch (conversion.kind) {
    case 'complete':
      return { ok: true, payload: event, missing: [] };
    case 'partial': {
      const q = queryPath(event, conversion.path);
      if (q.status === 'invalid') return { ok: false, error: q.error };
      if (q.status === 'none') return { ok: false, error: `JSONPath ${conversion.path}: path matched nothing` };
      return { ok: true, payload: q.value, missing: [] };
    }
    case 'constant':
      return { ok: true, payload: conversion.value, missing: [] };
    case 'template': {
      const r = renderTemplate(event, conversion.variables, conversion.template);
      return r.ok ? { ok: true, payload: r.payload, missing: r.missing } : r;
    }
    case 'env': {
      const value = await env(conversion.key);
      if (value === undefined) return { ok: false, error: `configuration key ${conversion.key} is not set` };
      return { ok: true, payload: value, missing: [] };
    }
    default:
      return assertNever(conversion);
  }
}
