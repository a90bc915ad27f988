import type { DomainEvent, EventEnvelope, EventMetadata } from '../../domain/core/event.ts';
import { eventIdFor } from './event-id.ts';

/** Who asks, and why: copied into every event's metadata. */
export type CommandContext = {
  tenant: string;
  actor?: string;
  correlationId?: string;
  causationId?: string;
};

/**
 * The same caller's context acting for another tenant (a platform administrator on a tenant, a process
 * manager for the tenant of an event, a resource owned by the platform): the one way a context is
 * re-targeted, so the tenant is never passed beside a context.
 */
export const forTenant = <C extends CommandContext>(ctx: C, tenant: string): C =>
  ctx.tenant === tenant ? ctx : { ...ctx, tenant };

/**
 * The one place event metadata is built: the decided events of one command, with ids derived from the
 * command id (so a retried append carries the same ids and the store treats it as the same write).
 */
export function envelopesFor(
  decided: readonly DomainEvent[],
  o: { stream: string; commandId: string; now: string; context: CommandContext; schemaVersion?: number },
): EventEnvelope[] {
  const metadata: EventMetadata = {
    tenant: o.context.tenant,
    ...(o.context.actor !== undefined && { actor: o.context.actor }),
    ...(o.context.correlationId !== undefined && { correlationId: o.context.correlationId }),
    ...(o.context.causationId !== undefined && { causationId: o.context.causationId }),
    commandId: o.commandId,
    occurredAt: o.now,
    schemaVersion: o.schemaVersion ?? 1,
  };
  return decided.map((e, i) => ({ id: eventIdFor(o.commandId, i, o.stream), type: e.type, data: e.data, metadata }));
}
