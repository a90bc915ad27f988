import type { Decider } from '../core/decider.ts';
import type { DomainEvent } from '../core/event.ts';
import { workflowError } from './workflow.errors.ts';

/**
 * A deployment (`wfDeployment-<tenant>.<deploymentId>`): the files of one upload (their XML, kept for
 * `GET /process-definitions/{id}/xml`) and the definition each process of them became: a new version, or
 * the unchanged latest one.
 */
export const DEPLOYMENT_CATEGORY = 'wfDeployment';

export type DeployedResource = { name: string; hash: string; dialect: string; xml: string };
export type DeployedDefinition = {
  id: string;
  key: string;
  version: number;
  resourceName: string;
  name?: string;
  created: boolean;
};

export type DeploymentCreated = DomainEvent<
  'DeploymentCreated',
  {
    deploymentId: string;
    name?: string;
    resources: DeployedResource[];
    definitions: DeployedDefinition[];
    warnings: string[];
    deployedAt: string;
  }
>;
export type DeploymentEvent = DeploymentCreated;
export type CreateDeployment = { type: 'CreateDeployment'; data: DeploymentCreated['data'] };
export type DeploymentState = { deployment: DeploymentCreated['data'] | null };

export const deploymentDecider: Decider<CreateDeployment, DeploymentEvent, DeploymentState> = {
  initialState: () => ({ deployment: null }),
  evolve: (_s, e) => ({ deployment: e.data }),
  decide(c, s) {
    if (s.deployment !== null)
      throw workflowError('DEPLOYMENT.INVALID', `deployment ${c.data.deploymentId} exists already`, {
        deploymentId: c.data.deploymentId,
      });
    return [{ type: 'DeploymentCreated', data: c.data }];
  },
};
