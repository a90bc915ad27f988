import { streamName } from '../../domain/core/stream-name.ts';
import {
  INDEX_SCHEMA_CATEGORY,
  type IndexField,
  indexSchemaDecider,
} from '../../domain/workflow/index-schema.decider.ts';
import type { Clock } from '../../infra/core/clock.port.ts';
import type { EventStore } from '../../infra/core/event-store.port.ts';
import { type CommandContext, commandHandler } from '../core/command-handler.ts';

export const indexSchemaStream = (tenant: string, name: string) => streamName(INDEX_SCHEMA_CATEGORY, tenant, name);

/** Index schemas (configuration resources): define or change one; record a finished rebuild. */
export function createIndexSchemaCommands(o: { eventStore: EventStore; clock: Clock }) {
  const handle = commandHandler(o.eventStore, indexSchemaDecider);
  return {
    async define(name: string, fields: IndexField[], context: CommandContext, commandId: string) {
      const now = o.clock.now().toISOString();
      const r = await handle({
        stream: indexSchemaStream(context.tenant, name),
        command: { type: 'DefineIndexSchema', name, fields, now },
        commandId,
        now,
        context,
      });
      return { name, fields: r.state.fields, revision: r.state.revision, changed: r.events.length > 0 };
    },
    async recordRebuilt(tenant: string, name: string, revision: number, generation: number) {
      const now = o.clock.now().toISOString();
      await handle({
        stream: indexSchemaStream(tenant, name),
        command: { type: 'RecordIndexRebuilt', name, revision, generation, now },
        commandId: `index-rebuilt/${tenant}/${name}/${generation}`,
        now,
        context: { tenant, actor: 'workflow.index-rebuild' },
      });
    },
  };
}

export type IndexSchemaCommands = ReturnType<typeof createIndexSchemaCommands>;
