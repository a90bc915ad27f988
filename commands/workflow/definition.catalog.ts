import { streamName } from '../../domain/core/stream-name.ts';
import { DefinitionNeeded } from '../../domain/workflow/engine/definition-needed.ts';
import {
  type DefinitionLookup,
  type DefinitionRef,
  type ProcessDefinition,
  refKey,
} from '../../domain/workflow/model/process-model.ts';
import {
  definitionOf,
  PROCESS_CATEGORY,
  type ProcessDefinitionDeployed,
  type ProcessDefinitionState,
  parseDefinitionId,
  processDefinitionDecider,
  type VersionSummary,
} from '../../domain/workflow/process-definition.decider.ts';
import { setNewest } from '../../infra/core/bounded.ts';
import type { EventStore } from '../../infra/core/event-store.port.ts';
import { createStreamCache } from '../core/stream-cache.ts';

/**
 * Process definitions as the interpreter needs them. A definition is immutable, so one read of it is kept
 * (by tenant and id, the oldest read forgotten first: a hit does not refresh it); which version is the latest comes from the
 * key's stream through the core's stream cache (always current: a version deployed a moment ago is the
 * one a start uses).
 */
export const processStream = (tenant: string, key: string) => streamName(PROCESS_CATEGORY, tenant, key);

export type DefinitionSession = {
  /** what the decider reads: the definitions loaded so far (undefined: not loaded yet) */
  lookup: DefinitionLookup;
  /** loads a definition the decider asked for (DefinitionNeeded) */
  ensure(ref: DefinitionRef): Promise<void>;
};

export type DefinitionCatalog = {
  load(tenant: string, ref: DefinitionRef): Promise<ProcessDefinition | null>;
  /** the versions of a key (from its stream) */
  versions(tenant: string, key: string): Promise<ProcessDefinitionState>;
  session(tenant: string): DefinitionSession;
};

const MAX_DEFINITIONS = 2000;
const MAX_LOADS = 50;

export function createDefinitionCatalog(o: { eventStore: EventStore }): DefinitionCatalog {
  const { eventStore } = o;
  const keys = createStreamCache(eventStore, processDefinitionDecider);
  const byId = new Map<string, ProcessDefinition>();
  const remember = (tenant: string, d: ProcessDefinition) => {
    const k = `${tenant}\u0000${d.id}`;
    setNewest(byId, k, d, MAX_DEFINITIONS);
    return d;
  };

  async function byVersion(tenant: string, summary: VersionSummary | undefined): Promise<ProcessDefinition | null> {
    if (summary === undefined) return null;
    const cached = byId.get(`${tenant}\u0000${summary.id}`);
    if (cached !== undefined) return cached;
    const key = parseDefinitionId(summary.id)?.key;
    if (key === undefined) return null;
    // one event per version: version n is revision n-1
    const [event] = await eventStore.readStream(processStream(tenant, key), {
      fromRevision: summary.version - 1,
      limit: 1,
    });
    if (event === undefined || (event.data as { id?: string }).id !== summary.id) return null;
    return remember(tenant, definitionOf(event as unknown as ProcessDefinitionDeployed));
  }

  async function load(tenant: string, ref: DefinitionRef): Promise<ProcessDefinition | null> {
    if (ref.kind === 'id') {
      const cached = byId.get(`${tenant}\u0000${ref.id}`);
      if (cached !== undefined) return cached;
      const parsed = parseDefinitionId(ref.id);
      if (parsed === null) return null;
      const { state } = await keys.load(processStream(tenant, parsed.key));
      return byVersion(
        tenant,
        state.versions.find((v) => v.id === ref.id),
      );
    }
    const { state } = await keys.load(processStream(tenant, ref.key));
    const versions = state.versions;
    switch (ref.kind) {
      case 'latest':
        return byVersion(tenant, versions[versions.length - 1]);
      case 'version':
        return byVersion(
          tenant,
          versions.find((v) => v.version === ref.version),
        );
      case 'deployment':
        return byVersion(
          tenant,
          versions.findLast((v) => v.deploymentId === ref.deploymentId),
        );
      case 'versionTag':
        return byVersion(
          tenant,
          versions.findLast((v) => v.versionTag === ref.versionTag),
        );
    }
  }

  return {
    load,
    versions: async (tenant, key) => (await keys.load(processStream(tenant, key))).state,
    session(tenant) {
      const known = new Map<string, ProcessDefinition | null>();
      return {
        lookup(ref) {
          const k = refKey(ref);
          if (known.has(k)) return known.get(k);
          if (ref.kind === 'id') return byId.get(`${tenant}\u0000${ref.id}`);
          return undefined;
        },
        async ensure(ref) {
          const d = await load(tenant, ref);
          known.set(refKey(ref), d);
          if (d !== null) known.set(refKey({ kind: 'id', id: d.id }), d);
        },
      };
    },
  };
}

/**
 * Runs `attempt` with the session's lookup; when the interpreter asks for a definition it does not have
 * (DefinitionNeeded), loads it and runs again (the command is decided anew: nothing was appended).
 */
export async function withDefinitions<R>(
  session: DefinitionSession,
  attempt: (lookup: DefinitionLookup) => Promise<R>,
): Promise<R> {
  for (let i = 0; ; i++) {
    try {
      return await attempt(session.lookup);
    } catch (err) {
      if (!(err instanceof DefinitionNeeded) || i >= MAX_LOADS) throw err;
      await session.ensure(err.ref);
    }
  }
}
