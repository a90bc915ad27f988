import { PLATFORM_TENANT } from '../../domain/core/access-context.ts';
import { cacheBucketDecider, cacheBucketStream } from '../../domain/hub/cache-bucket.decider.ts';
import { hubError } from '../../domain/hub/hub.errors.ts';
import type { Clock } from '../../infra/core/clock.port.ts';
import type { EventStore } from '../../infra/core/event-store.port.ts';
import { type CommandContext, commandHandler } from '../core/command-handler.ts';
import type { ConfigCommands } from './config.commands.ts';
import type { HubSettings } from './hub.contracts.ts';

/**
 * `GET /public/cache/v1/clear/bucket?bucketCode=hub`: clears the hub's cache bucket (the definition cache and
 * the `comm-hub.*` settings kept per process). Here at once, and in every other process through the
 * recorded `CacheBucketCleared` (commands/hub/config-cache.consumer.ts). A tenant clears its own entries;
 * the platform tenant clears every tenant's. Invalidation affects future resolution only: accepted sends
 * keep their snapshots.
 */
export const HUB_BUCKET = 'hub';

export function createCacheBucket(deps: {
  eventStore: EventStore;
  clock: Clock;
  cache: ConfigCommands['cache'];
  settings: HubSettings;
}) {
  const handle = commandHandler(deps.eventStore, cacheBucketDecider);
  return {
    /** clears the context's tenant's entries (every tenant's for the platform tenant) */
    async clear(
      bucketCode: string,
      ctx: CommandContext,
      commandId: string,
    ): Promise<{ BucketCode: string; Scope: string; ClearedAt: string }> {
      const { tenant } = ctx;
      if (bucketCode !== HUB_BUCKET)
        throw hubError(
          'CACHE.BUCKET_UNKNOWN',
          `no cache bucket ${bucketCode} here (the hub's bucket is ${HUB_BUCKET})`,
          { bucketCode },
        );
      const scope = tenant === PLATFORM_TENANT ? '*' : tenant;
      const now = deps.clock.now().toISOString();
      // this process at once (the answer promises it); the others when they read the event
      deps.cache.clearScope(scope);
      deps.settings.clear?.(scope);
      await handle({
        stream: cacheBucketStream(tenant, bucketCode),
        command: { type: 'Clear', bucketCode, scope, now },
        commandId,
        now,
        context: ctx,
      });
      return { BucketCode: bucketCode, Scope: scope, ClearedAt: now };
    },
  };
}

export type CacheBucket = ReturnType<typeof createCacheBucket>;
