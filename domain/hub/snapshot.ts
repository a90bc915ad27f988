import type { Decider } from '../core/decider.ts';
import { streamName } from '../core/stream-name.ts';
import type {
  Channel,
  ContextDefinition,
  Definition,
  DeliveryRule,
  DeliveryService,
  Template,
} from './config.model.ts';
import { canonicalJson } from './resource.decider.ts';

/**
 * Configuration snapshots (spec "Snapshot and history rules"): at acceptance the hub captures the
 * coherent configuration a send executes with: the definition version (with its policies and retry
 * policy), the context definition, the version's rules, and the templates, delivery services and
 * channels those rules resolved to for this send. Customer payloads and credentials are never in it (a
 * delivery service's signing secret lives in its own event, not in the service). The snapshot is an
 * immutable record of its own (`hubSnapshot-<tenant>.<SnapshotId>`, one event) whose id is the hash of
 * its normalized content: an unchanged configuration is the tenant's existing snapshot, reused. Delayed
 * dispatch, fallback and retries read the settings they need from the accepted snapshot; edits reach new
 * sends only. Snapshots are kept forever.
 */
export const SNAPSHOT_CATEGORY = 'hubSnapshot';
export const snapshotStream = (tenant: string, snapshotId: string) => streamName(SNAPSHOT_CATEGORY, tenant, snapshotId);

export type SnapshotContent = {
  Definition: Definition;
  ContextDefinition?: ContextDefinition;
  Rules: DeliveryRule[];
  Templates: Template[];
  Services: DeliveryService[];
  Channels: Channel[];
};

export type SnapshotEvent = {
  type: 'SnapshotCaptured';
  data: {
    SnapshotId: string;
    DefinitionId: string;
    NotificationCode: string;
    Version: number;
    Content: SnapshotContent;
    CapturedAt: string;
  };
};

export type SnapshotState = { status: 'none' } | { status: 'captured'; snapshot: SnapshotEvent['data'] };

export const SNAPSHOT_EVENT_TYPES = ['SnapshotCaptured'] as const;

const byKey =
  <T>(key: (t: T) => string) =>
  (a: T, b: T) =>
    key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0;

/** the content in one order whatever order it was gathered in */
export function normalizeSnapshot(c: SnapshotContent): SnapshotContent {
  return {
    Definition: c.Definition,
    ...(c.ContextDefinition !== undefined && { ContextDefinition: c.ContextDefinition }),
    Rules: [...c.Rules].sort(byKey((r) => r.RuleId)),
    Templates: [...c.Templates].sort(byKey((t) => t.TemplateId)),
    Services: [...c.Services].sort(byKey((s) => s.ServiceId)),
    Channels: [...c.Channels].sort(byKey((ch) => ch.Code)),
  };
}

/** the text the SnapshotId hashes (the command layer hashes it: SHA-256) */
export const snapshotText = (c: SnapshotContent): string => canonicalJson(normalizeSnapshot(c));

export const snapshotDecider: Decider<
  { type: 'Capture'; snapshot: SnapshotEvent['data'] },
  SnapshotEvent,
  SnapshotState
> = {
  initialState: () => ({ status: 'none' }),
  evolve: (_state, event) => ({ status: 'captured', snapshot: event.data }),
  // immutable: a second capture of the same content is the same snapshot
  decide: (command, state) =>
    state.status === 'captured' ? [] : [{ type: 'SnapshotCaptured', data: command.snapshot }],
};
