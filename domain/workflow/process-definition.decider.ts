import type { Decider } from '../core/decider.ts';
import type { DomainEvent } from '../core/event.ts';
import type { ProcessDefinition, ProcessModel } from './model/process-model.ts';

/**
 * The versions of one process key (`wfProcess-<tenant>.<key>`): each deployment of a changed definition is
 * the next version, with the id `<key>:<version>:<uuid>`; a deployment whose normalized XML is the one of
 * the latest version creates none (the latest is answered). Running instances keep the version they
 * started with: they name it by id.
 */
export const PROCESS_CATEGORY = 'wfProcess';

export type ProcessDefinitionDeployed = DomainEvent<
  'ProcessDefinitionDeployed',
  {
    id: string;
    key: string;
    version: number;
    name?: string;
    versionTag?: string;
    deploymentId: string;
    resourceName: string;
    hash: string;
    deployedAt: string;
    model: ProcessModel;
  }
>;
export type ProcessDefinitionEvent = ProcessDefinitionDeployed;

export type DeployDefinition = {
  type: 'DeployDefinition';
  key: string;
  model: ProcessModel;
  hash: string;
  deploymentId: string;
  resourceName: string;
  /** the uuid part of a new version's id (derived from the command) */
  uuid: string;
  now: string;
};

export type VersionSummary = {
  id: string;
  version: number;
  hash: string;
  deploymentId: string;
  resourceName: string;
  deployedAt: string;
  versionTag?: string;
  name?: string;
};
export type ProcessDefinitionState = { key: string | null; versions: VersionSummary[] };

export const definitionOf = (e: ProcessDefinitionDeployed): ProcessDefinition => ({
  id: e.data.id,
  key: e.data.key,
  version: e.data.version,
  deploymentId: e.data.deploymentId,
  resourceName: e.data.resourceName,
  deployedAt: e.data.deployedAt,
  model: e.data.model,
});

/** `<key>:<version>:<uuid>` → its key and version (a key may hold `:`; the last two parts are ours) */
export function parseDefinitionId(id: string): { key: string; version: number } | null {
  const m = /^(.+):(\d+):([0-9a-f-]{8,})$/.exec(id);
  return m === null ? null : { key: m[1]!, version: Number(m[2]) };
}

export const processDefinitionDecider: Decider<DeployDefinition, ProcessDefinitionEvent, ProcessDefinitionState> = {
  initialState: () => ({ key: null, versions: [] }),
  evolve(s, e) {
    const d = e.data;
    const summary: VersionSummary = {
      id: d.id,
      version: d.version,
      hash: d.hash,
      deploymentId: d.deploymentId,
      resourceName: d.resourceName,
      deployedAt: d.deployedAt,
      ...(d.versionTag !== undefined && { versionTag: d.versionTag }),
      ...(d.name !== undefined && { name: d.name }),
    };
    return { key: d.key, versions: [...s.versions, summary] };
  },
  decide(c, s) {
    const latest = s.versions[s.versions.length - 1];
    if (latest !== undefined && latest.hash === c.hash) return [];
    const version = (latest?.version ?? 0) + 1;
    return [
      {
        type: 'ProcessDefinitionDeployed',
        data: {
          id: `${c.key}:${version}:${c.uuid}`,
          key: c.key,
          version,
          ...(c.model.name !== undefined && { name: c.model.name }),
          ...(c.model.versionTag !== undefined && { versionTag: c.model.versionTag }),
          deploymentId: c.deploymentId,
          resourceName: c.resourceName,
          hash: c.hash,
          deployedAt: c.now,
          model: c.model,
        },
      },
    ];
  },
};
