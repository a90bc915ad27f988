import type { BridgeEvent, Conversion, Rule } from '../../domain/bridge/model.ts';

/**
 * Seams between the bridge's parts, so each can be built and tested on its own:
 * - rules, platform-rule opt-outs, configuration center, conversion → RulesIndex, ConfigCenter, convert()
 * - schema registry → SchemaValidator
 * - buses, sources, putEvent, routing, trace → uses all of the above
 */

/** The enabled rules that apply to events on a bus, as the router needs them. Backed by a projection. */
export type RulesIndex = {
  /**
   * Enabled rules on `bus`: the bus owner's rules plus, on a platform bus, the platform rules.
   * `version` changes whenever the set or any rule changes (the router recompiles its matcher then).
   * `owner` (optional): only the rules of the bus owned by that tenant —
   * custom bus names are unique per tenant only, so two tenants' `orders` buses must not mix.
   */
  rulesForBus(bus: string, owner?: string): Promise<{ version: string; rules: Rule[] }>;
  /** platform rule ids a tenant switched off for itself */
  optedOut(tenant: string): Promise<Set<string>>;
};

/** Per-tenant key/value configuration (the spec's "configuration center"), event-sourced. */
export type ConfigCenter = {
  get(tenant: string, key: string): Promise<string | undefined>;
};

export type SchemaViolation = { path: string; message: string; keyword: string };

export type SchemaValidator = {
  /**
   * Validates `data` against the business-data schema of `dataSchemaId` (latest version, or `id:version`)
   * visible to the tenant (its own schemas, then the platform's). null when valid.
   * Throws DomainError SCHEMA.NOT_FOUND (400 at putEvent) for an unknown id.
   */
  validate(tenant: string, dataSchemaId: string, data: unknown): Promise<SchemaViolation[] | null>;
};

export type ConversionResult =
  | {
      ok: true;
      payload: unknown;
      /** template variables whose path found nothing (left empty) */
      missing: string[];
    }
  | { ok: false; error: string };

/** Renders a target's payload; never throws for bad content: failures are results (recorded in the trace). */
export type Convert = (
  event: BridgeEvent,
  conversion: Conversion,
  env: (key: string) => Promise<string | undefined>,
) => Promise<ConversionResult>;
