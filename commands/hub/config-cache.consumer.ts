import { categoryOf, parseStreamName } from '../../domain/core/stream-name.ts';
import { CACHE_BUCKET_CATEGORY, type CacheBucketCleared } from '../../domain/hub/cache-bucket.decider.ts';
import { CHANNEL_CATEGORY, CONTEXT_CATEGORY, TEMPLATE_CATEGORY } from '../../domain/hub/config.deciders.ts';
import { DEFINITION_CATEGORY } from '../../domain/hub/definition.decider.ts';
import { DELIVERY_SERVICE_CATEGORY } from '../../domain/hub/delivery-service.decider.ts';
import type { EventStore, LogPage } from '../../infra/core/event-store.port.ts';
import type { LogConsumer } from '../../infra/core/log-consumer.ts';
import type { ConfigCommands } from './config.commands.ts';

/**
 * Keeps the definition cache of THIS process true to the log (spec: "Definition data uses the cache bucket
 * [the service], invalidated after configuration mutations and imports"). Every process that builds the
 * hub runs it on its one log reader (a `caches` entry: API-only and worker-only processes alike):
 *
 * - a configuration event (channel, delivery service, template, context, definition or rule stream),
 *   whoever appended it, drops that stream's entries: another process's edit or import is seen here within
 *   the log reader's cross-process probe (milliseconds), not after HUB_CONFIG_CACHE_MS;
 * - a `CacheBucketCleared` (the cache-clear endpoint, in any process) drops the tenant's entries, or every
 *   entry when the platform tenant cleared (`*`), and runs `onClear` (the `comm-hub.*` settings kept 5 s).
 *
 * In memory only: start() empties the bucket (what happened while it was not following is unknown) and
 * follows from the log's head.
 */
export const CONFIG_CACHE_CONSUMER = 'hub.config-cache';

const CONFIG_CATEGORIES = [
  CHANNEL_CATEGORY,
  TEMPLATE_CATEGORY,
  CONTEXT_CATEGORY,
  DELIVERY_SERVICE_CATEGORY,
  DEFINITION_CATEGORY,
];

export function createConfigCacheConsumer(deps: {
  eventStore: EventStore;
  cache: ConfigCommands['cache'];
  onClear?: (scope: string) => void;
}): LogConsumer {
  let position = '';
  return {
    name: CONFIG_CACHE_CONSUMER,
    filter: { categories: [...CONFIG_CATEGORIES, CACHE_BUCKET_CATEGORY] },
    async start() {
      deps.cache.clear();
      position = await deps.eventStore.headPosition();
      return position;
    },
    async handle(page: LogPage) {
      for (const e of page.events) {
        if (e.position <= position) continue;
        const category = categoryOf(e.stream);
        if (category === CACHE_BUCKET_CATEGORY && e.type === 'CacheBucketCleared') {
          const scope = (e as unknown as CacheBucketCleared).data.Scope;
          deps.cache.clearScope(scope);
          deps.onClear?.(scope);
        } else if (CONFIG_CATEGORIES.includes(category) && parseStreamName(e.stream) !== null) {
          deps.cache.invalidate(e.stream);
        }
      }
      if (page.position > position) position = page.position;
      return position;
    },
  };
}
