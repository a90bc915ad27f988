/**
 * The event bridge's shared model (spec 000_…). Canonical forms are what the log stores and the
 * APIs answer; inputs accept the spellings the spec shows (see http/bridge for the mapping).
 */

/** The canonical stored form of a published event (camelCase, as the spec's samples). */
export type BridgeEvent = {
  id: string;
  source: string;
  type: string;
  subject?: string;
  /** ISO 8601 local date-time without offset, as sent */
  time?: string;
  /** application/json only (a charset parameter is allowed) */
  dataContentType: string;
  /** the schema registry id the data follows */
  dataSchemaId?: string;
  eventBusName: string;
  data: Record<string, unknown>;
};

export type BusKind = 'platform' | 'baseline' | 'custom';
/** tenant segment of the platform's own buses, rules and schemas (the platform tenant of domain/core) */
export { PLATFORM_TENANT } from '../core/access-context.ts';

export type Bus = {
  name: string;
  kind: BusKind;
  /** owner: PLATFORM_TENANT for platform and baseline buses */
  tenant: string;
  description?: string;
};

export type SourceKind = 'platform' | 'sdk' | 'webhook';
export type EventSource = {
  bus: string;
  /** the event's `source` value */
  name: string;
  kind: SourceKind;
  tenant: string;
  eventTypes: string[];
  /** platform sources must have one (every platform event source has a schema in the registry) */
  schemaId?: string;
};

/** How a target's payload is made from the event (the spec's "content conversion"). */
export type Conversion =
  | { kind: 'complete' }
  | { kind: 'partial'; path: string }
  | { kind: 'constant'; value: unknown }
  | { kind: 'template'; variables: Record<string, string>; template: string }
  | { kind: 'env'; key: string };

export type ParamForm = 'CONSTANT' | 'ENV_PARAM' | 'JSONPATH' | 'TEMPLATE' | 'ORIGINAL' | 'TENANT_PROFILE';
export type TargetParam = { resourceKey: string; form: ParamForm; value: string; template?: string };

/** The spec's target record, canonical camelCase (inputs also accept the spec's PascalCase names). */
export type Target = {
  id: number;
  typeId: number;
  endpoint?: string;
  pushRetryStrategy: 'BACKOFF_RETRY' | 'EXPONENTIAL_DECAY_RETRY';
  errorTolerance: 'ALL' | 'NONE';
  deadLetterRecord: boolean;
  params: TargetParam[];
  /** the payload handed to the target (default: complete event) */
  conversion: Conversion;
};

export type Rule = {
  ruleId: string;
  tenant: string;
  bus: string;
  name: string;
  description?: string;
  /** the filter pattern as JSON (validated by domain/bridge/pattern parsePattern) */
  pattern: Record<string, unknown>;
  targets: Target[];
  enabled: boolean;
  /** a platform rule (tenant PLATFORM_TENANT on a platform bus) applies to every tenant's events */
  platform: boolean;
};

export { MAX_BATCH_EVENTS, MAX_EVENT_BYTES, MAX_TARGETS_PER_RULE } from './bridge.constants.ts';
