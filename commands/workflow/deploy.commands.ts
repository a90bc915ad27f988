import { streamName } from '../../domain/core/stream-name.ts';
import {
  DEPLOYMENT_CATEGORY,
  type DeployedDefinition,
  type DeployedResource,
  type DeploymentCreated,
  deploymentDecider,
} from '../../domain/workflow/deployment.decider.ts';
import type { ProcessModel } from '../../domain/workflow/model/process-model.ts';
import { processDefinitionDecider } from '../../domain/workflow/process-definition.decider.ts';
import { workflowError } from '../../domain/workflow/workflow.errors.ts';
import type { Clock } from '../../infra/core/clock.port.ts';
import type { EventStore } from '../../infra/core/event-store.port.ts';
import { type CommandContext, commandHandler } from '../core/command-handler.ts';
import { derivedId } from '../core/event-id.ts';
import { type ParsedBpmn, parseBpmn } from './bpmn/bpmn.parse.ts';
import { type DefinitionCatalog, processStream } from './definition.catalog.ts';

export const deploymentStream = (tenant: string, id: string) => streamName(DEPLOYMENT_CATEGORY, tenant, id);

export type DeployFile = { name: string; content: string };
export type DeploymentResult = {
  id: string;
  deployedAt: string;
  definitions: DeployedDefinition[];
  warnings: string[];
};

/** the largest BPMN file a deployment takes */
export const MAX_BPMN_BYTES = 2 * 1024 * 1024;
export const MAX_DEPLOY_FILES = 50;

/**
 * Deployments: every file is parsed first (one bad file refuses the whole upload, 400, nothing stored);
 * then each process becomes a new version of its key unless its normalized XML is the latest version's;
 * then the deployment is recorded with its files' XML. Retried with the same command id (Idempotency-Key)
 * it answers the first result.
 */
export function createDeployCommands(o: { eventStore: EventStore; clock: Clock; catalog: DefinitionCatalog }) {
  const { eventStore, clock } = o;
  const definitions = commandHandler(eventStore, processDefinitionDecider);
  const deployments = commandHandler(eventStore, deploymentDecider);

  async function deploy(
    files: DeployFile[],
    context: CommandContext,
    commandId: string,
    name?: string,
  ): Promise<DeploymentResult> {
    const { tenant } = context;
    if (files.length === 0)
      throw workflowError('DEPLOYMENT.NO_FILES', 'a deployment needs at least one BPMN file in the `files` part', {});
    if (files.length > MAX_DEPLOY_FILES)
      throw workflowError('DEPLOYMENT.INVALID', `at most ${MAX_DEPLOY_FILES} files per deployment`, {
        files: files.length,
      });
    const parsed: ParsedBpmn[] = [];
    for (const f of files) {
      if (Buffer.byteLength(f.content) > MAX_BPMN_BYTES)
        throw workflowError('DEPLOYMENT.INVALID', `${f.name}: larger than ${MAX_BPMN_BYTES} bytes`, {
          resource: f.name,
        });
      parsed.push(await parseBpmn(f.content, f.name));
    }
    const byKey = new Map<string, { model: ProcessModel; file: ParsedBpmn }>();
    for (const p of parsed) {
      for (const model of p.models) {
        const other = byKey.get(model.key);
        if (other !== undefined) {
          throw workflowError(
            'DEPLOYMENT.INVALID',
            `the process '${model.key}' is in ${other.file.resource} and in ${p.resource}`,
            { key: model.key },
          );
        }
        byKey.set(model.key, { model, file: p });
      }
    }

    const now = clock.now().toISOString();
    const deploymentId = derivedId(`${tenant}/deployment/${commandId}`);
    const deployed: DeployedDefinition[] = [];
    for (const [key, { model, file }] of byKey) {
      const result = await definitions({
        stream: processStream(tenant, key),
        command: {
          type: 'DeployDefinition',
          key,
          model,
          hash: file.hash,
          deploymentId,
          resourceName: file.resource,
          uuid: derivedId(`${tenant}/${commandId}/${key}`),
          now,
        },
        commandId: `${commandId}/${key}`,
        now,
        context,
      });
      const created = result.events[0]?.data;
      const latest = result.state.versions[result.state.versions.length - 1]!;
      deployed.push({
        id: created?.id ?? latest.id,
        key,
        version: created?.version ?? latest.version,
        resourceName: created?.resourceName ?? latest.resourceName,
        ...(model.name !== undefined && { name: model.name }),
        created: created !== undefined && created.deploymentId === deploymentId,
      });
    }
    const warnings = parsed.flatMap((p) => p.warnings);
    const resources: DeployedResource[] = parsed.map((p, i) => ({
      name: p.resource,
      hash: p.hash,
      dialect: p.dialect,
      xml: files[i]!.content,
    }));
    const data: DeploymentCreated['data'] = {
      deploymentId,
      ...(name !== undefined && { name }),
      resources,
      definitions: deployed,
      warnings,
      deployedAt: now,
    };
    const recorded = await deployments({
      stream: deploymentStream(tenant, deploymentId),
      command: { type: 'CreateDeployment', data },
      commandId,
      now,
      context,
      from: 'new',
      onConflict: 'duplicate',
    });
    const d = recorded.state.deployment ?? data;
    return { id: d.deploymentId, deployedAt: d.deployedAt, definitions: d.definitions, warnings: d.warnings };
  }

  /** the XML a definition was deployed from */
  async function xmlOf(tenant: string, definitionId: string): Promise<string | null> {
    const d = await o.catalog.load(tenant, { kind: 'id', id: definitionId });
    if (d === null) return null;
    const events = await eventStore.readStream(deploymentStream(tenant, d.deploymentId));
    const deployment = (events[0] as unknown as DeploymentCreated | undefined)?.data;
    return deployment?.resources.find((r) => r.name === d.resourceName)?.xml ?? null;
  }

  return { deploy, xmlOf };
}

export type DeployCommands = ReturnType<typeof createDeployCommands>;
