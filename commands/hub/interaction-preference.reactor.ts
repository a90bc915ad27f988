import type { RecordedEvent } from '../../domain/core/event.ts';
import {
  INTERACTION_CATEGORY,
  type InteractionEvent,
  preferenceChangeOf,
} from '../../domain/hub/interaction.decider.ts';
import { preferenceStream } from '../../domain/hub/preference.decider.ts';
import type { Clock } from '../../infra/core/clock.port.ts';
import type { EventStore } from '../../infra/core/event-store.port.ts';
import type { ReadStore } from '../../infra/core/read-store.port.ts';
import { createReactor, type Reactor, type ReactorLog } from '../core/reactor.ts';
import type { CustomerPolicies } from './customer-policy.commands.ts';

/**
 * Applies the preference change of every recorded OPT_OUT / OPT_IN interaction
 * (docs/hub.md#customer-policies). The interaction request sets the preference itself right after storing the
 * interaction (the immediate answer), but that is a second append: a process stopping between the two would
 * leave the consent unchanged. This checkpointed reactor on `InteractionRecorded` makes it certain: its
 * checkpoint moves after the change is stored (at-least-once), and the change's command id is derived from
 * the InteractionId (`interaction/<id>/preference`, the same as the request's), so whichever runs second
 * appends nothing. A late application never overrides a newer decision: when the preference's stream has an
 * event after the interaction (a later interaction, an API change, or this one's own application), the
 * reactor leaves it, so an old OPT_IN reached late cannot undo a newer OPT_OUT.
 */
export const INTERACTION_PREFERENCE_REACTOR = 'hub.interaction-preference';

export function createInteractionPreferenceReactor(deps: {
  eventStore: EventStore;
  readStore: ReadStore;
  clock: Clock;
  policies: Pick<CustomerPolicies, 'applyInteraction'>;
  log?: ReactorLog;
}): Reactor {
  async function one(event: RecordedEvent) {
    const e = event as unknown as InteractionEvent;
    if (e.type !== 'InteractionRecorded') return;
    const { At: _at, ...interaction } = e.data;
    const change = preferenceChangeOf(interaction);
    if (change === null) return;
    const [last] = await deps.eventStore.readStream(preferenceStream(event.metadata.tenant, change.key), {
      direction: 'backwards',
      limit: 1,
    });
    if (last !== undefined && last.position > event.position) return;
    await deps.policies.applyInteraction(interaction, {
      tenant: event.metadata.tenant,
      actor: event.metadata.actor ?? 'system:hub-interaction-preference',
      ...(event.metadata.correlationId !== undefined && { correlationId: event.metadata.correlationId }),
    });
  }
  return createReactor({
    name: INTERACTION_PREFERENCE_REACTOR,
    eventStore: deps.eventStore,
    readStore: deps.readStore,
    clock: deps.clock,
    filter: { categories: [INTERACTION_CATEGORY], eventTypes: ['InteractionRecorded'] },
    ...(deps.log !== undefined && { log: deps.log }),
    handle: one,
  });
}
