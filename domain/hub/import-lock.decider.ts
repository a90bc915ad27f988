import type { Decider } from '../core/decider.ts';
import { streamName } from '../core/stream-name.ts';
import { hubError } from './hub.errors.ts';

/**
 * The lock of one resource group of a tenant's hub configuration while a bundle is imported (spec: the
 * data-import module `commhub` "with group and resource-lock governance"): `hubImportLock-<tenant>.<group>`.
 * An import acquires the lock of every group its bundle touches before it writes anything and releases them
 * after. Two imports racing for a free lock append at the same expected revision: one wins, the other
 * re-reads, finds the lock held and is refused (409 IMPORT.LOCKED). A lock is a lease: an import that died
 * holding it leaves it free again at `Until`.
 */
export const IMPORT_LOCK_CATEGORY = 'hubImportLock';
/** `policies`: the tenant's frequency caps and quiet hours (customer-policy configuration, not per-recipient data) */
export const RESOURCE_GROUPS = ['channels', 'services', 'templates', 'contexts', 'definitions', 'policies'] as const;
export type ResourceGroup = (typeof RESOURCE_GROUPS)[number];
export const importLockStream = (tenant: string, group: ResourceGroup) =>
  streamName(IMPORT_LOCK_CATEGORY, tenant, group);

export type ImportLockEvent =
  | { type: 'ImportLockAcquired'; data: { Group: ResourceGroup; ImportId: string; At: string; Until: string } }
  | { type: 'ImportLockReleased'; data: { Group: ResourceGroup; ImportId: string; At: string } };

export type ImportLockCommand =
  | { type: 'Acquire'; group: ResourceGroup; importId: string; now: string; until: string }
  | { type: 'Release'; group: ResourceGroup; importId: string; now: string };

export type ImportLockState = { holder?: { importId: string; until: string } };

export const importLockDecider: Decider<ImportLockCommand, ImportLockEvent, ImportLockState> = {
  initialState: () => ({}),
  evolve(s, e) {
    switch (e.type) {
      case 'ImportLockAcquired':
        return { holder: { importId: e.data.ImportId, until: e.data.Until } };
      case 'ImportLockReleased':
        return s.holder?.importId === e.data.ImportId ? {} : s;
    }
  },
  decide(c, s) {
    switch (c.type) {
      case 'Acquire': {
        const h = s.holder;
        if (h !== undefined && h.importId !== c.importId && h.until > c.now) {
          throw hubError('IMPORT.LOCKED', `another import (${h.importId}) holds the ${c.group} lock until ${h.until}`, {
            Group: c.group,
            HeldBy: h.importId,
            Until: h.until,
          });
        }
        return [
          { type: 'ImportLockAcquired', data: { Group: c.group, ImportId: c.importId, At: c.now, Until: c.until } },
        ];
      }
      case 'Release':
        // releasing a lock one does not hold (expired and taken over) changes nothing
        return s.holder?.importId === c.importId
          ? [{ type: 'ImportLockReleased', data: { Group: c.group, ImportId: c.importId, At: c.now } }]
          : [];
    }
  },
};
