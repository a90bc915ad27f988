import { randomBytes } from 'node:crypto';
import { auditError } from '../../domain/audit/audit.errors.ts';
import type { RecordQuery } from '../../domain/audit/query.ts';
import type { Clock } from '../../infra/core/clock.port.ts';
import type { Doc, ReadStore } from '../../infra/core/read-store.port.ts';

/**
 * Scroll state of `log/query-many` in scroll mode, in the read store (collection `audit_scrolls`, shared by
 * every process): the query, the snapshot (the newest record's `ts` when the scroll began: later records are
 * never part of it), the cursor (the `ts` of the last record answered), the total at the start, and when it
 * expires. Each answer moves the expiry to `idleMs` after it; an expired scroll answers 410 SCROLL.EXPIRED
 * (404 SCROLL.NOT_FOUND once swept, an hour later), and scroll_id "" starts over.
 */
export const SCROLLS_COLLECTION = 'audit_scrolls';
/** how long an expired scroll is kept to answer 410 rather than 404 */
export const SCROLL_TOMBSTONE_MS = 3_600_000;

export type ScrollDoc = Doc & {
  tenant: string;
  query: RecordQuery;
  /** '' when the tenant had no record yet */
  snapshot: string;
  /** '' before the first page */
  cursor: string;
  total: number;
  expires_at: string;
  created_at: string;
};

export type Scrolls = ReturnType<typeof createScrolls>;

export function createScrolls(deps: { readStore: ReadStore; clock: Clock; idleMs: number }) {
  const { readStore, clock, idleMs } = deps;
  let ensured: Promise<void> | undefined;
  const collection = async () => {
    ensured ??= readStore.ensureCollection(SCROLLS_COLLECTION, {
      indexes: [{ name: 'by_expiry', fields: { expires_at: 1 } }],
    });
    await ensured;
    return readStore.collection<ScrollDoc>(SCROLLS_COLLECTION);
  };
  const expiry = (now: Date) => new Date(now.getTime() + idleMs).toISOString();

  return {
    idleMs,
    async begin(tenant: string, query: RecordQuery, snapshot: string, total: number): Promise<ScrollDoc> {
      const now = clock.now();
      const doc: ScrollDoc = {
        id: randomBytes(18).toString('base64url'),
        tenant,
        query,
        snapshot,
        cursor: '',
        total,
        expires_at: expiry(now),
        created_at: now.toISOString(),
      };
      await (await collection()).upsert(doc);
      return doc;
    },

    /** the scroll if the tenant owns it and it has not expired; a 404 or a 410 otherwise */
    async get(tenant: string, id: string): Promise<ScrollDoc> {
      const doc = await (await collection()).get(id);
      const restart = 'send scroll_id "" to start a new scroll';
      if (doc === null || doc.tenant !== tenant) {
        throw auditError(
          'SCROLL.NOT_FOUND',
          `no scroll ${id} (scrolls expire ${idleMs / 1000} s after their last page); ${restart}`,
          { scroll_id: id },
        );
      }
      if (doc.expires_at <= clock.now().toISOString()) {
        throw auditError(
          'SCROLL.EXPIRED',
          `scroll ${id} expired at ${doc.expires_at} (${idleMs / 1000} s after its last page); ${restart}`,
          { scroll_id: id, expired_at: doc.expires_at },
        );
      }
      return doc;
    },

    async advance(id: string, cursor: string): Promise<void> {
      await (await collection()).patch(id, { $set: { cursor, expires_at: expiry(clock.now()) } });
    },

    /** removes scrolls expired more than SCROLL_TOMBSTONE_MS ago */
    async sweep(): Promise<number> {
      const before = new Date(clock.now().getTime() - SCROLL_TOMBSTONE_MS).toISOString();
      return (await collection()).deleteMany({ expires_at: { $lt: before } });
    },
  };
}
