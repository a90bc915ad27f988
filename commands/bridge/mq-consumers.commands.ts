import { randomUUID } from 'node:crypto';
import { bridgeError } from '../../domain/bridge/bridge.errors.ts';
import { MQ_TOPIC_CATEGORY, mqTopicStream, visibleTo } from '../../domain/bridge/mq.decider.ts';
import { coreError } from '../../domain/core/core.errors.ts';
import type { Clock } from '../../infra/core/clock.port.ts';
import type { EventStore } from '../../infra/core/event-store.port.ts';
import type { Doc, ReadStore } from '../../infra/core/read-store.port.ts';
import { createMqTopics, type MqMessage, type MqTopics } from './mq-topics.store.ts';

/**
 * Consumer groups of the platform message queue: how consuming services read a topic log.
 *
 * A group is (tenant, app, group name, topic): `app` is the consuming service (its client id: APP
 * messages are visible only to the apps they name, BROADCAST ones to every app), the group name lets one
 * app keep several independent positions (default `default`). Each group has a committed offset kept in
 * the read store (collection `bridge_mq_groups`, one document per group, compare-and-set updates with a
 * `version`), so every process serving the API shares it. A new group starts at the beginning of the
 * topic; topics are kept for good (they are event streams), so a consumer that was down, or new, gets
 * everything after its committed offset.
 *
 * pull: the visible messages after the committed offset, up to `max`, under a lease (`leaseMs`, 30 s by
 * default): while a lease is held, the group's other pullers get nothing (they long-poll), so two
 * consumers of one group never get the same messages at once. A lease that expires unacknowledged makes
 * its messages available again (at-least-once). When nothing is pending, pull waits up to `waitMs` for a
 * new message (long poll), woken by one shared subscription to the topic logs and by acks in this
 * process, and looking again every `recheckMs` for what other processes did. Messages an app cannot see
 * are skipped: with nothing visible after them they are committed at once.
 *
 * ack: commits an offset (forwards only; at most the topic's newest offset) and releases the lease when
 * it covers the leased messages.
 */
export const MQ_GROUPS_COLLECTION = 'bridge_mq_groups';
export const MQ_GROUP_NAME = /^[A-Za-z0-9][A-Za-z0-9_.:-]{0,99}$/;
export const DEFAULT_MQ_GROUP = 'default';
export const MAX_PULL_MESSAGES = 100;
export const MAX_WAIT_MS = 30_000;

export type MqLease = { id: string; until: string; from: number; to: number };

type GroupDoc = Doc & {
  tenant: string;
  app: string;
  group: string;
  topic: string;
  /** last committed offset, -1 before the first */
  committed: number;
  lease: MqLease | null;
  version: number;
  createdAt: string;
  updatedAt: string;
};

export type GroupRef = { tenant: string; app: string; group: string; topic: string };

export type PullResult = {
  messages: MqMessage[];
  committedOffset: number;
  /** present when messages were handed out: ack up to lease.to to commit them */
  lease?: MqLease;
};

export type GroupStatus = { committedOffset: number; headOffset: number; lease: MqLease | null };

export type MqConsumers = {
  pull(o: GroupRef & { max: number; waitMs: number; signal?: AbortSignal }): Promise<PullResult>;
  ack(o: GroupRef & { offset: number; leaseId?: string }): Promise<{ committedOffset: number; leaseReleased: boolean }>;
  status(o: GroupRef): Promise<GroupStatus>;
  /** pulls of this process waiting for a message now (long polls in progress) */
  waiting(): number;
  /** stops the shared subscription and wakes every waiting pull (it answers what it has) */
  close(): Promise<void>;
};

export type MqConsumersDeps = {
  eventStore: EventStore;
  readStore: ReadStore;
  clock: Clock;
  topics?: MqTopics;
  /** how long pulled messages stay leased to one consumer (default 30 s, by the clock) */
  leaseMs?: number;
  /** how often a waiting pull looks again for other processes' changes (default 1000 ms) */
  recheckMs?: number;
  /** messages scanned per look (skipping invisible ones), default 1000 */
  scanLimit?: number;
};

const groupId = (g: GroupRef) => `${g.tenant}/${g.app}/${g.group}/${g.topic}`;
const streamKey = (tenant: string, topic: string) => `stream:${mqTopicStream(tenant, topic)}`;

export function createMqConsumers(deps: MqConsumersDeps): MqConsumers {
  const { eventStore, readStore, clock } = deps;
  const topics = deps.topics ?? createMqTopics({ eventStore, clock });
  const leaseMs = deps.leaseMs ?? 30_000;
  const recheckMs = deps.recheckMs ?? 1000;
  const scanLimit = deps.scanLimit ?? 1000;
  const groups = () => readStore.collection<GroupDoc>(MQ_GROUPS_COLLECTION);
  let ensured: Promise<void> | undefined;
  const ensure = () =>
    (ensured ??= readStore.ensureCollection(MQ_GROUPS_COLLECTION).catch((err: unknown) => {
      ensured = undefined;
      throw err;
    }));

  // ---- wake-ups: topic appends (one shared subscription) and group changes in this process ----
  const waiters = new Map<string, Set<() => void>>();
  const wake = (key: string) => {
    const set = waiters.get(key);
    if (set === undefined) return;
    waiters.delete(key);
    for (const w of set) w();
  };
  /** a promise that resolves at the next wake of any key; disarm when done */
  const arm = (keys: string[]) => {
    let fire!: () => void;
    const promise = new Promise<void>((r) => (fire = r));
    for (const k of keys) {
      let set = waiters.get(k);
      if (set === undefined) waiters.set(k, (set = new Set()));
      set.add(fire);
    }
    return {
      promise,
      disarm() {
        for (const k of keys) {
          const set = waiters.get(k);
          set?.delete(fire);
          if (set?.size === 0) waiters.delete(k);
        }
      },
    };
  };

  let closed = false;
  let waitingPulls = 0;
  let watcher: { abort: AbortController; ready: Promise<void>; done: Promise<void> } | undefined;
  const ensureWatcher = (): Promise<void> => {
    if (watcher !== undefined || closed) return watcher?.ready ?? Promise.resolve();
    const abort = new AbortController();
    let markReady!: () => void;
    let failReady!: (e: unknown) => void;
    const ready = new Promise<void>((res, rej) => ((markReady = res), (failReady = rej)));
    const done = (async () => {
      try {
        const after = await eventStore.headPosition();
        markReady();
        for await (const e of eventStore.subscribeAll({
          after,
          filter: { categories: [MQ_TOPIC_CATEGORY] },
          signal: abort.signal,
        })) {
          wake(`stream:${e.stream}`);
        }
      } catch (err) {
        failReady(err);
      } finally {
        // ended (closed, or the store failed): the next pull starts a new one
        watcher = undefined;
      }
    })();
    const w = { abort, ready, done };
    watcher = w;
    ready.catch(() => undefined);
    return ready;
  };

  const load = async (g: GroupRef): Promise<GroupDoc> => {
    const id = groupId(g);
    const found = await groups().get(id);
    if (found) return found;
    await ensure();
    return readStore.transaction(async (tx) => {
      const c = tx.collection<GroupDoc>(MQ_GROUPS_COLLECTION);
      const again = await c.get(id);
      if (again) return again;
      const at = clock.now().toISOString();
      const fresh: GroupDoc = { id, ...g, committed: -1, lease: null, version: 0, createdAt: at, updatedAt: at };
      await c.upsert(fresh);
      return fresh;
    });
  };

  const check = (g: GroupRef) => {
    if (!MQ_GROUP_NAME.test(g.group))
      throw bridgeError(
        'MQ.GROUP_INVALID',
        'a group is 1-100 letters, digits or _ . : - starting with a letter or digit',
      );
  };

  /** visible messages after `committed` (up to max), and how far the scan got */
  async function scan(g: GroupRef, committed: number, max: number) {
    const found: MqMessage[] = [];
    let scannedTo = committed;
    let capped = false;
    while (found.length < max) {
      if (scannedTo - committed >= scanLimit) {
        capped = true;
        break;
      }
      const page = await topics.read(g.tenant, g.topic, scannedTo, Math.min(200, scanLimit));
      for (const m of page) {
        if (found.length >= max) break;
        scannedTo = m.offset;
        if (visibleTo(m, g.app)) found.push(m);
      }
      if (page.length < Math.min(200, scanLimit)) break;
    }
    return { found, scannedTo, capped };
  }

  const sleep = (ms: number, signal?: AbortSignal) =>
    new Promise<void>((resolve) => {
      const t = setTimeout(done, ms);
      function done() {
        clearTimeout(t);
        signal?.removeEventListener('abort', done);
        resolve();
      }
      signal?.addEventListener('abort', done, { once: true });
    });

  return {
    async pull(o) {
      check(o);
      const ref: GroupRef = { tenant: o.tenant, app: o.app, group: o.group, topic: o.topic };
      const max = Math.max(1, Math.min(MAX_PULL_MESSAGES, Math.floor(o.max)));
      const deadline = Date.now() + Math.max(0, Math.min(MAX_WAIT_MS, o.waitMs));
      const keys = [streamKey(o.tenant, o.topic), `group:${groupId(ref)}`, 'closing'];
      for (;;) {
        const armed = arm(keys);
        try {
          if (o.waitMs > 0) await ensureWatcher().catch(() => undefined); // a failed watcher: the recheck still sees appends
          const doc = await load(ref);
          const now = clock.now();
          const leased = doc.lease !== null && doc.lease.until > now.toISOString();
          if (!leased) {
            const { found, scannedTo, capped } = await scan(ref, doc.committed, max);
            if (found.length > 0) {
              const lease: MqLease = {
                id: randomUUID(),
                until: new Date(now.getTime() + leaseMs).toISOString(),
                from: doc.committed + 1,
                to: found[found.length - 1]!.offset,
              };
              const taken = await groups().findOneAndUpdate(
                { id: doc.id, version: doc.version },
                { $set: { lease, version: doc.version + 1, updatedAt: now.toISOString() } },
              );
              if (taken === null) continue; // another consumer of the group moved first: look again
              return { messages: found, committedOffset: doc.committed, lease };
            }
            if (scannedTo > doc.committed) {
              // nothing this app may see up to scannedTo: commit past it (only if nobody moved meanwhile)
              await groups().findOneAndUpdate(
                { id: doc.id, version: doc.version },
                { $set: { committed: scannedTo, lease: null, version: doc.version + 1, updatedAt: now.toISOString() } },
              );
              if (capped) continue;
            }
          }
          const remaining = deadline - Date.now();
          if (remaining <= 0 || closed || o.signal?.aborted) {
            const latest = await groups().get(doc.id);
            return { messages: [], committedOffset: latest?.committed ?? doc.committed };
          }
          waitingPulls++;
          try {
            await Promise.race([armed.promise, sleep(Math.min(remaining, recheckMs), o.signal)]);
          } finally {
            waitingPulls--;
          }
        } finally {
          armed.disarm();
        }
      }
    },

    async ack(o) {
      check(o);
      if (!Number.isInteger(o.offset) || o.offset < 0)
        throw bridgeError('MQ.OFFSET_INVALID', 'offset must be an integer ≥ 0');
      const ref: GroupRef = { tenant: o.tenant, app: o.app, group: o.group, topic: o.topic };
      const head = await topics.head(o.tenant, o.topic);
      if (o.offset > head) {
        throw bridgeError('MQ.OFFSET_INVALID', `offset ${o.offset} is beyond the topic's newest message (${head})`, {
          offset: o.offset,
          headOffset: head,
        });
      }
      for (let attempt = 0; attempt < 50; attempt++) {
        const doc = await load(ref);
        if (o.offset <= doc.committed) return { committedOffset: doc.committed, leaseReleased: false };
        const release = doc.lease !== null && o.offset >= doc.lease.to;
        const updated = await groups().findOneAndUpdate(
          { id: doc.id, version: doc.version },
          {
            $set: {
              committed: o.offset,
              lease: release ? null : doc.lease,
              version: doc.version + 1,
              updatedAt: clock.now().toISOString(),
            },
          },
        );
        if (updated !== null) {
          wake(`group:${doc.id}`);
          return { committedOffset: o.offset, leaseReleased: release };
        }
      }
      throw coreError('CONCURRENCY.CONFLICT', 'the consumer group changed concurrently too often; retry the ack');
    },

    async status(o) {
      check(o);
      const ref: GroupRef = { tenant: o.tenant, app: o.app, group: o.group, topic: o.topic };
      const [doc, head] = await Promise.all([groups().get(groupId(ref)), topics.head(o.tenant, o.topic)]);
      const now = clock.now().toISOString();
      const lease = doc?.lease && doc.lease.until > now ? doc.lease : null;
      return { committedOffset: doc?.committed ?? -1, headOffset: head, lease };
    },

    waiting: () => waitingPulls,

    async close() {
      closed = true;
      const w = watcher;
      w?.abort.abort();
      wake('closing');
      for (const key of [...waiters.keys()]) wake(key);
      await w?.done;
    },
  };
}
