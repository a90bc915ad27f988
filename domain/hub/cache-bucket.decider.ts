import type { Decider } from '../core/decider.ts';
import { streamName } from '../core/stream-name.ts';

/**
 * The hub's cache bucket (spec "Definition data uses the cache bucket [the service], invalidated after
 * configuration mutations and imports"; `GET /public/cache/v1/clear/bucket?bucketCode=`). A clear is an
 * event, so every process learns of it from the log (commands/hub/config-cache.consumer.ts) and the clear
 * is on record: `hubCacheBucket-<tenant>.<bucket>`, one `CacheBucketCleared` per clear. Scope: the tenant's
 * entries, or every tenant's (`*`) when the platform tenant clears.
 */
export const CACHE_BUCKET_CATEGORY = 'hubCacheBucket';
export const cacheBucketStream = (tenant: string, bucket: string) => streamName(CACHE_BUCKET_CATEGORY, tenant, bucket);

export type CacheBucketCleared = {
  type: 'CacheBucketCleared';
  data: { BucketCode: string; Scope: string; At: string };
};
export type CacheBucketCommand = { type: 'Clear'; bucketCode: string; scope: string; now: string };
export type CacheBucketState = { clears: number; lastAt?: string };

export const cacheBucketDecider: Decider<CacheBucketCommand, CacheBucketCleared, CacheBucketState> = {
  initialState: () => ({ clears: 0 }),
  evolve: (s, e) => ({ clears: s.clears + 1, lastAt: e.data.At }),
  decide: (c) => [{ type: 'CacheBucketCleared', data: { BucketCode: c.bucketCode, Scope: c.scope, At: c.now } }],
};
