import { fold } from '../../domain/core/decider.ts';
import { parseStreamName } from '../../domain/core/stream-name.ts';
import {
  DELIVERY_SERVICE_CATEGORY,
  type DeliveryServiceEvent,
  deliveryServiceDecider,
  signingSecretsAt,
} from '../../domain/hub/delivery-service.decider.ts';
import type { Clock } from '../../infra/core/clock.port.ts';
import type { EventStore } from '../../infra/core/event-store.port.ts';
import { type CommandContext, commandHandler, forTenant } from '../core/command-handler.ts';
import type { KeyedSecretBox } from '../core/secret.box.ts';
import { secretAad } from './config.commands.ts';

export type ResealResult = { resealed: string[]; current: number; failed: Array<{ entry: string; error: string }> };

/**
 * `platform keys rotate-config` for the hub: every live delivery service whose signing secrets in force
 * (the current one, and the previous one during a rotation's overlap) are not all sealed under the current
 * key-encryption secret's key id gets them sealed again, as a SigningSecretIssued with the same clear
 * secrets and the same overlap end (ResealSecret). A previous secret whose overlap is over signs nothing
 * any more and is left out. Answers `<tenant>/<ServiceId>` of those resealed, and those no secret opens.
 */
export async function resealSigningSecrets(
  deps: { eventStore: EventStore; clock: Clock; box: KeyedSecretBox },
  ctx: CommandContext,
): Promise<ResealResult> {
  const { eventStore, clock, box } = deps;
  const handle = commandHandler(eventStore, deliveryServiceDecider);
  const result: ResealResult = { resealed: [], current: 0, failed: [] };
  const streams = new Set<string>();
  let after: string | undefined;
  for (;;) {
    const page = await eventStore.readAll({
      ...(after !== undefined && { after }),
      filter: { categories: [DELIVERY_SERVICE_CATEGORY] },
      limit: 1000,
    });
    for (const e of page) streams.add(e.stream);
    if (page.length < 1000) break;
    after = page[page.length - 1]!.position;
  }
  for (const stream of streams) {
    const name = parseStreamName(stream);
    if (name === null) continue;
    const events = await eventStore.readStream(stream);
    const state = fold(deliveryServiceDecider, events as unknown as DeliveryServiceEvent[]);
    const now = clock.now().toISOString();
    const inForce = signingSecretsAt(state, now);
    if (state.status !== 'live' || inForce.length === 0) continue;
    const entry = `${name.tenant}/${state.resource.ServiceId}`;
    if (inForce.every((s) => box.kidOf(s) === box.kid)) {
      result.current++;
      continue;
    }
    const aad = secretAad(name.tenant, state.resource.ServiceId);
    let clear: string[];
    try {
      clear = inForce.map((s) => box.open(s, aad));
    } catch (err) {
      result.failed.push({ entry, error: err instanceof Error ? err.message : String(err) });
      continue;
    }
    await handle({
      stream,
      command: {
        type: 'ResealSecret',
        sealedSecret: box.seal(clear[0]!, aad),
        ...(clear[1] !== undefined && { previousSealed: box.seal(clear[1], aad) }),
        now,
      },
      commandId: `rotate-config/${stream}@${events.length - 1}`,
      now,
      context: forTenant(ctx, name.tenant),
    });
    result.resealed.push(entry);
  }
  return result;
}
