import type { Clock } from '../../infra/core/clock.port.ts';
import type { Collection } from '../../infra/core/read-store.port.ts';
import type { DueItem } from '../core/work-engine.ts';
import { type HubSettings, SETTING } from './hub.contracts.ts';

/**
 * `comm-hub.enabled` (spec "Recovery properties", default true): the hub's switch per tenant, read through
 * HubSettings (the tenant's value, else the platform tenant's, else HUB_ENABLED). Off, the hub still
 * accepts and stores sends (201, durable: the send path does not look at it), but sends nothing for the
 * tenant: its dispatch and retry steps (dispatch worker, inline dispatch), its sweeps' repairs and its TCC
 * command materialization are held, and manual retries are refused (409 HUB.DISABLED). Held work is never
 * dropped: its due item is pushed back by HUB_HOLD_MS and looked at again, so turning the switch on
 * resumes it by itself (within HUB_HOLD_MS plus the settings' cache time).
 */
export type HubSwitch = { enabled(tenant: string): Promise<boolean> };

/** how long held work waits before it looks at the switch again */
export const HUB_HOLD_MS = 5000;

/** only an explicit `false` turns the hub off: a missing or unreadable value keeps the spec's default (true) */
export const hubEnabledValue = (raw: string | undefined) => raw === undefined || raw.trim().toLowerCase() !== 'false';

export function createHubSwitch(settings: HubSettings): HubSwitch {
  return { enabled: async (tenant) => hubEnabledValue(await settings.get(tenant, SETTING.enabled)) };
}

/**
 * Pushes a claimed due item back: its lease now ends HUB_HOLD_MS from now (instead of the engine's full
 * lease), so it is claimed again then; only while this engine still holds it (another process may have
 * taken it over).
 */
export async function holdDueItem<T extends DueItem>(items: Collection<T>, item: T, clock: Clock): Promise<void> {
  const until = new Date(clock.now().getTime() + HUB_HOLD_MS).toISOString();
  await items.findOneAndUpdate(
    { id: item.id, ...(item.leaseOwner !== undefined && { leaseOwner: item.leaseOwner }) },
    { $set: { leaseUntil: until } },
  );
}
