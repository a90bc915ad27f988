import { dueIndex } from '../../domain/core/due-index.ts';
import { TCC_CATEGORY, TCC_EVENT_TYPES, type TccEvent } from '../../domain/hub/tcc.decider.ts';
import type { Projection } from '../core/projection.ts';
import type { HubDueDoc } from './dispatch.projection.ts';

/**
 * `hub.tcc`: the command worker's due work (commands/core/work-engine.ts DueItem), one item per READY TCC
 * command (`TccConfirmed`), written with the projection's checkpoint; `TccMaterialized` and `TccCancelled`
 * remove it. A claim (`TccClaimed`) leaves the item's lease alone: the lease is what makes a dead worker's
 * claim come back (after `comm-hub.command-worker.stale-interval-ms`), and its rising count (`leases`) is
 * the claim's fence; a rebuild sets the count to the highest fence claimed, so new claims stay above it.
 */
export const TCC_PROJECTION = 'hub.tcc';

export const tccProjection: Projection = {
  name: TCC_PROJECTION,
  version: 1,
  categories: [TCC_CATEGORY],
  eventTypes: [...TCC_EVENT_TYPES],
  collections: { due: { indexes: [dueIndex()] } },
  async apply(events, store) {
    const due = store.collection<HubDueDoc>('due');
    for (const recorded of events) {
      const e = recorded as unknown as TccEvent;
      switch (e.type) {
        case 'TccConfirmed':
          await due.upsert({
            id: e.data.CommandId,
            stream: recorded.stream,
            tenant: recorded.metadata.tenant,
            kind: 'materialize',
            dueAt: e.data.At,
            leaseUntil: '',
          });
          break;
        case 'TccMaterialized':
        case 'TccCancelled':
          await due.delete(e.data.CommandId);
          break;
        case 'TccClaimed': {
          // the item's lease count is the claims' fence: a rebuilt item must not start below the fences
          // already claimed (in normal operation the claim took its lease first: nothing to write)
          const item = await due.get(e.data.CommandId);
          if (item !== null && (item.leases ?? 0) < e.data.Fence)
            await due.patch(e.data.CommandId, { $set: { leases: e.data.Fence } });
          break;
        }
        case 'TccTried':
          break;
      }
    }
  },
};
