import { createHash } from 'node:crypto';
import { fold } from '../../domain/core/decider.ts';
import type { Definition } from '../../domain/hub/config.model.ts';
import {
  type SnapshotContent,
  type SnapshotEvent,
  snapshotDecider,
  snapshotStream,
  snapshotText,
} from '../../domain/hub/snapshot.ts';
import { setBounded } from '../../infra/core/bounded.ts';
import type { EventStore } from '../../infra/core/event-store.port.ts';
import { type CommandContext, commandHandler } from '../core/command-handler.ts';

/**
 * Configuration snapshots as immutable, content-addressed records (domain/hub/snapshot.ts): SnapshotId is
 * `snap-` + the first 32 hex digits of the SHA-256 of the normalized content, so the tenant's unchanged
 * configuration is found, not written again. Snapshots never change: this process keeps the ones it has
 * seen (a bounded map), so dispatches and retries read them once.
 */
export type SnapshotRecord = SnapshotEvent['data'];

const MAX_CACHED = 2000;

export function createSnapshots({ eventStore }: { eventStore: EventStore }) {
  const handle = commandHandler(eventStore, snapshotDecider);
  const cache = new Map<string, SnapshotRecord>();
  const remember = (key: string, s: SnapshotRecord) => {
    setBounded(cache, key, s, MAX_CACHED);
  };

  async function get(tenant: string, snapshotId: string): Promise<SnapshotRecord | null> {
    const key = `${tenant}/${snapshotId}`;
    const hit = cache.get(key);
    if (hit !== undefined) return hit;
    const state = fold(
      snapshotDecider,
      (await eventStore.readStream(snapshotStream(tenant, snapshotId))) as unknown as SnapshotEvent[],
    );
    if (state.status !== 'captured') return null;
    remember(key, state.snapshot);
    return state.snapshot;
  }

  /**
   * The configuration cache hands out the same objects while they are cached, so a send is made of the
   * same parts as the one before it: the id (a canonical serialization and a SHA-256 of the whole
   * configuration, the larger part of a send's planning) is kept per definition object for the last few
   * sets of parts, compared by reference. Configuration objects are never changed in place.
   */
  const ids = new WeakMap<object, Array<{ parts: unknown[]; id: string }>>();
  function idOf(content: SnapshotContent): string {
    const parts = [
      content.Definition,
      content.ContextDefinition,
      ...content.Rules,
      'templates',
      ...content.Templates,
      'services',
      ...content.Services,
      'channels',
      ...content.Channels,
    ];
    const known = ids.get(content.Definition) ?? [];
    const hit = known.find((k) => k.parts.length === parts.length && k.parts.every((p, i) => p === parts[i]));
    if (hit !== undefined) return hit.id;
    const id = `snap-${createHash('sha256').update(snapshotText(content)).digest('hex').slice(0, 32)}`;
    known.push({ parts, id });
    if (known.length > 8) known.shift();
    ids.set(content.Definition, known);
    return id;
  }

  return {
    get,
    /** whether this process knows the tenant's snapshot of `content` already (ensure then captures nothing) */
    known: (tenant: string, content: SnapshotContent) => cache.has(`${tenant}/${idOf(content)}`),
    /** the snapshot of `content` of the context's tenant: the existing one, or captured now */
    async ensure(content: SnapshotContent, definition: Definition, now: string, ctx: CommandContext): Promise<string> {
      const { tenant } = ctx;
      const snapshotId = idOf(content);
      if (cache.has(`${tenant}/${snapshotId}`)) return snapshotId;
      if ((await get(tenant, snapshotId)) !== null) return snapshotId;
      const snapshot: SnapshotRecord = {
        SnapshotId: snapshotId,
        DefinitionId: definition.DefinitionId,
        NotificationCode: definition.NotificationCode,
        Version: definition.Version,
        Content: content,
        CapturedAt: now,
      };
      // two sends capturing the same new snapshot at once: one appends, the other finds it (from: 'new')
      await handle({
        stream: snapshotStream(tenant, snapshotId),
        command: { type: 'Capture', snapshot },
        commandId: `snapshot/${snapshotId}`,
        now,
        context: ctx,
        from: 'new',
      });
      return snapshotId;
    },
  };
}

export type Snapshots = ReturnType<typeof createSnapshots>;
