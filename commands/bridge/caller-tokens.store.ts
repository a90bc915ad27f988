import type { Clock } from '../../infra/core/clock.port.ts';
import type { ReadStore } from '../../infra/core/read-store.port.ts';
import { createSecretBox, type KeySecrets } from '../core/secret.box.ts';

/**
 * The publishing caller's bearer token ("Bearer — the publishing caller's token, kept only until the
 * delivery ends, never in the trace"), for API-destination connections with Bearer source `caller`.
 *
 * - Where: a read-store collection (`bridge_caller_tokens`, document id = the event key), never the event
 *   log (the log is forever and feeds the trace). The token is sealed with the connection secrets' box
 *   (AES-256-GCM under the key-encryption secret) with the associated data `caller-token/<eventKey>`, so a
 *   sealed token copied onto another event does not open.
 * - When: putEvent keeps it for an accepted event (commands/bridge/publish.commands.ts, before the append so a
 *   delivery can never run before its token is there; a duplicate that found no entry removes what it
 *   wrote); the delivery worker's `callerToken(eventKey)` hook reads it (`get`).
 * - How long: `expiresAt` is the token's own `exp`. An expired token is useless to the receiver, so `get`
 *   answers nothing past it, and `sweep()` (run with the delivery worker's poll, infra/bridge/bridge.service.ts)
 *   deletes every expired entry. Deliveries end (succeed, dead-letter, discard, purge) well within a token's
 *   life in practice; a redrive after the token expired cannot forward it (the adapter says so, not retried).
 *   Deleting on the event's last delivery outcome would need the router's and scheduler's "no more
 *   deliveries for this event" knowledge; the expiry sweep is the documented rule.
 */
export const CALLER_TOKENS_COLLECTION = 'bridge_caller_tokens';

type CallerTokenDoc = { id: string; sealed: string; expiresAt: string };

export type CallerTokensDeps = {
  readStore: ReadStore;
  clock: Clock;
  /** the platform's key-encryption secret (KEY_ENCRYPTION_SECRET or DATA_DIR/key-encryption.secret) */
  secret: string | KeySecrets;
};

export type CallerTokens = {
  /** seals and stores the token for the event (replaces an earlier entry) */
  keep(eventKey: string, token: string, expiresAt: Date | string): Promise<void>;
  /** whether an entry exists (expired or not) */
  has(eventKey: string): Promise<boolean>;
  /** the clear token while it has not expired; undefined otherwise (or when it does not open) */
  get(eventKey: string): Promise<string | undefined>;
  forget(eventKey: string): Promise<void>;
  /** deletes the expired entries; answers how many */
  sweep(): Promise<number>;
};

export const callerTokenAad = (eventKey: string) => `caller-token/${eventKey}`;

export function createCallerTokens({ readStore, clock, secret }: CallerTokensDeps): CallerTokens {
  const box = createSecretBox(secret);
  let ensured: Promise<void> | undefined;
  const tokens = async () => {
    await (ensured ??= readStore
      .ensureCollection(CALLER_TOKENS_COLLECTION, { indexes: [{ name: 'expiresAt', fields: { expiresAt: 1 } }] })
      .catch((err: unknown) => {
        ensured = undefined;
        throw err;
      }));
    return readStore.collection<CallerTokenDoc>(CALLER_TOKENS_COLLECTION);
  };
  const now = () => clock.now().toISOString();

  return {
    async keep(eventKey, token, expiresAt) {
      const at = typeof expiresAt === 'string' ? new Date(expiresAt) : expiresAt;
      if (Number.isNaN(at.getTime())) throw new Error('caller token: invalid expiry');
      await (await tokens()).upsert({
        id: eventKey,
        sealed: box.seal(token, callerTokenAad(eventKey)),
        expiresAt: at.toISOString(),
      });
    },
    async has(eventKey) {
      return (await (await tokens()).get(eventKey)) !== null;
    },
    async get(eventKey) {
      const doc = await (await tokens()).get(eventKey);
      if (doc === null || doc.expiresAt <= now()) return undefined;
      try {
        return box.open(doc.sealed, callerTokenAad(eventKey));
      } catch {
        // another key-encryption secret or a moved ciphertext: as if there were none (the adapter says so)
        return undefined;
      }
    },
    async forget(eventKey) {
      await (await tokens()).delete(eventKey);
    },
    async sweep() {
      return (await tokens()).deleteMany({ expiresAt: { $lt: now() } });
    },
  };
}
