import { createHash } from 'node:crypto';
import type { Clock } from '../../infra/core/clock.port.ts';
import type { Doc, ReadStore } from '../../infra/core/read-store.port.ts';

/**
 * Brute-force limiter for password checks: failed attempts per user name and per client IP in a sliding
 * window, kept in the read store so every process shares it. Each key is one document holding the times of
 * its recent failures; updates are compare-and-set on a `version` (findOneAndUpdate), so concurrent
 * failures from several processes are all counted.
 *
 * The user key is the name as typed (normalised), not a user id: unknown and known names are limited
 * alike, so the limiter never tells whether a user exists.
 */
export const LOGIN_FAILURES_COLLECTION = 'identity_login_failures';
export const DEFAULT_LOGIN_WINDOW_SECONDS = 15 * 60;
/** the per-IP limit is this multiple of the per-user one (an office behind one address has many users) */
export const IP_LIMIT_FACTOR = 4;

type FailureDoc = Doc & { id: string; failures: number[]; version: number; updatedAt: string };

export type LoginAttemptKeys = {
  /** tenant, directory and user name as typed */
  user: { tenant: string; directory: string; username: string };
  /** client address, when known */
  ip?: string;
};

export type LimitVerdict = { allowed: true } | { allowed: false; retryAfterSeconds: number };

export type LoginLimiter = ReturnType<typeof createLoginLimiter>;

export function createLoginLimiter(deps: {
  readStore: ReadStore;
  clock: Clock;
  maxFailures: number;
  windowSeconds?: number;
}) {
  const windowMs = (deps.windowSeconds ?? DEFAULT_LOGIN_WINDOW_SECONDS) * 1000;
  const userLimit = deps.maxFailures;
  const ipLimit = deps.maxFailures * IP_LIMIT_FACTOR;
  const collection = () => deps.readStore.collection<FailureDoc>(LOGIN_FAILURES_COLLECTION);
  let ensured: Promise<void> | undefined;
  const ensure = () =>
    (ensured ??= deps.readStore.ensureCollection(LOGIN_FAILURES_COLLECTION).catch((err: unknown) => {
      ensured = undefined;
      throw err;
    }));

  const idOf = (key: string) => createHash('sha256').update(key, 'utf8').digest('base64url');
  const keysOf = (k: LoginAttemptKeys): Array<{ id: string; limit: number }> => {
    const user = `user:${k.user.tenant}/${k.user.directory}/${k.user.username.normalize('NFKC').trim().toLowerCase()}`;
    const keys = [{ id: idOf(user), limit: userLimit }];
    if (k.ip !== undefined && k.ip !== '') keys.push({ id: idOf(`ip:${k.ip}`), limit: ipLimit });
    return keys;
  };
  const recent = (doc: FailureDoc | null, now: number) => (doc?.failures ?? []).filter((t) => t > now - windowMs);

  /** Creates the key's document if missing, atomically (two processes may race to create it). */
  const load = async (id: string): Promise<FailureDoc> => {
    const found = await collection().get(id);
    if (found) return found;
    await ensure();
    return deps.readStore.transaction(async (tx) => {
      const c = tx.collection<FailureDoc>(LOGIN_FAILURES_COLLECTION);
      const again = await c.get(id);
      if (again) return again;
      const fresh: FailureDoc = { id, failures: [], version: 0, updatedAt: deps.clock.now().toISOString() };
      await c.upsert(fresh);
      return fresh;
    });
  };

  const addFailure = async (id: string, limit: number): Promise<void> => {
    for (let attempt = 0; attempt < 20; attempt++) {
      const doc = await load(id);
      const now = deps.clock.now().getTime();
      // keep the last `limit` failures: enough to decide, and the document stays small under attack
      const failures = [...recent(doc, now), now].slice(-limit);
      const updated = await collection().findOneAndUpdate(
        { id, version: doc.version },
        { $set: { failures, version: doc.version + 1, updatedAt: new Date(now).toISOString() } },
      );
      if (updated) return;
    }
    // Twenty lost races in a row means heavy concurrent failures on this key: it is blocked anyway.
  };

  return {
    /** Before checking a password: may this attempt proceed? */
    async check(keys: LoginAttemptKeys): Promise<LimitVerdict> {
      const now = deps.clock.now().getTime();
      let retryAfterMs = 0;
      for (const { id, limit } of keysOf(keys)) {
        const failures = recent(await collection().get(id), now);
        if (failures.length >= limit) {
          // blocked until the oldest failure that keeps the count at the limit leaves the window
          const oldest = failures[failures.length - limit] ?? now;
          retryAfterMs = Math.max(retryAfterMs, oldest + windowMs - now);
        }
      }
      return retryAfterMs > 0
        ? { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil(retryAfterMs / 1000)) }
        : { allowed: true };
    },

    /** A wrong password, an unknown user or a disabled one: all count the same. */
    async recordFailure(keys: LoginAttemptKeys): Promise<void> {
      for (const { id, limit } of keysOf(keys)) await addFailure(id, limit);
    },

    /** A successful sign-in clears the user's count (not the IP's: other names may be under attack). */
    async recordSuccess(keys: LoginAttemptKeys): Promise<void> {
      const [user] = keysOf(keys);
      if (!user) return;
      const doc = await collection().get(user.id);
      if (doc && doc.failures.length > 0) {
        await collection().findOneAndUpdate(
          { id: user.id, version: doc.version },
          { $set: { failures: [], version: doc.version + 1, updatedAt: deps.clock.now().toISOString() } },
        );
      }
    },
  };
}
