import {
  createCipheriv,
  createDecipheriv,
  createPrivateKey,
  hkdfSync,
  type JsonWebKey,
  type KeyObject,
  randomBytes,
} from 'node:crypto';
import { type CryptoKey, calculateJwkThumbprint, exportJWK, generateKeyPair, importJWK, type JWK } from 'jose';
import { isDomainError } from '../../domain/core/domain-error.ts';
import type { RecordedEvent } from '../../domain/core/event.ts';
import { PLATFORM_TENANT, type PublicJwk } from '../../domain/identity/model.ts';
import {
  type EncryptedPrivateJwk,
  SIGNING_KEY_CATEGORY,
  type SigningKeyCommand,
  type SigningKeyEvent,
  type SigningKeyState,
  signingKeyDecider,
  signingKeyStream,
} from '../../domain/identity/signing-key.decider.ts';
import type { Clock } from '../../infra/core/clock.port.ts';
import type { EventStore } from '../../infra/core/event-store.port.ts';
import { START } from '../../infra/core/position.ts';
import { isWrongExpectedRevision } from '../../infra/core/store-errors.ts';
import { commandHandler } from '../core/command-handler.ts';
import { newCommandId } from '../core/event-id.ts';

/**
 * The signing keys of the identity provider, read from the event store (category `signingKey`) and kept
 * in memory. Several processes share the store, so the ring re-reads it every `refreshIntervalSeconds`
 * before signing or publishing, and at once when a token names a kid it does not know.
 *
 * Rotation: `rotate()` generates a key that is published at once and signs only after
 * `publishDelaySeconds` (so caches of the JWKS, ours in other processes and relying parties', learn it
 * first); the key it supersedes stops signing at that moment and stays published for the longest token
 * lifetime (+ one refresh interval, for processes that have not re-read yet), then is withdrawn.
 *
 * Private keys reach the log only encrypted: AES-256-GCM under a key derived with HKDF-SHA256 from the
 * key-encryption secret (a fresh salt per key, the kid as additional data).
 */
export type KeyRingOptions = {
  eventStore: EventStore;
  clock: Clock;
  /** key-encryption secret: config.identity.keyEncryptionSecret, else the DATA_DIR file (infra/identity/key-secret.ts) */
  secret: string;
  /**
   * the secrets it replaced (KEY_ENCRYPTION_SECRET_PREVIOUS): keys encrypted under them still sign until
   * they retire; new keys are encrypted under `secret`
   */
  previousSecrets?: readonly string[];
  /** delay between publishing a new key and signing with it (default 300 s) */
  publishDelaySeconds?: number;
  /** longest lifetime of a token we sign; tokens are never issued for longer (default 31 days) */
  maxTokenLifetimeSeconds?: number;
  /** how stale the in-memory keys may get before signing re-reads the store (default 60 s) */
  refreshIntervalSeconds?: number;
};

export type SigningKeyInfo = {
  kid: string;
  publicJwk: PublicJwk;
  createdAt: string;
  activatesAt: string;
  retiresAt?: string;
  publishUntil?: string;
  withdrawn: boolean;
};

export type RotationResult = {
  kid: string;
  /** when the new key starts signing */
  activatesAt: string;
  /** the keys it supersedes: they stop signing at activatesAt and stay published until publishUntil */
  superseded: Array<{ kid: string; retiresAt: string; publishUntil: string }>;
};

export type KeyRing = {
  /** loads the keys; on an empty store generates the first key, which signs at once (no token exists yet) */
  ensureKey(): Promise<void>;
  /**
   * The key that signs now: as a WebCrypto key (jose) and as a node:crypto KeyObject, which signs the
   * access tokens (crypto.sign on a KeyObject is the fastest RS256 in Node; see access-token.issuer.ts).
   */
  signingKey(): Promise<{ kid: string; privateKey: CryptoKey; keyObject: KeyObject }>;
  /** the public key of a published kid; a kid not known re-reads the store once */
  verificationKey(kid: string): Promise<CryptoKey | null>;
  /** public JWKs of every published key: the next one before it signs, old ones until their tokens expire */
  publishedJwks(): Promise<Array<Record<string, unknown>>>;
  rotate(options?: { now?: boolean; delaySeconds?: number }): Promise<RotationResult>;
  /** retires keys superseded without a retirement (a crash mid-rotation) and withdraws expired ones */
  maintain(): Promise<void>;
  /** re-reads the store (what came after the last event seen) */
  reload(): Promise<void>;
  keys(): Promise<SigningKeyInfo[]>;
  readonly maxTokenLifetimeSeconds: number;
};

type KeyRecord = Extract<SigningKeyState, { key: unknown }>;

const HKDF_INFO = 'platform signing key v1';

export function createKeyRing(o: KeyRingOptions): KeyRing {
  const { eventStore, clock, secret } = o;
  if (secret.length < 32) throw new Error('the key-encryption secret must be at least 32 characters');
  const publishDelayMs = (o.publishDelaySeconds ?? 300) * 1000;
  const maxTokenLifetimeSeconds = o.maxTokenLifetimeSeconds ?? 31 * 86400;
  const refreshIntervalMs = (o.refreshIntervalSeconds ?? 60) * 1000;
  const handle = commandHandler(eventStore, signingKeyDecider);

  const states = new Map<string, KeyRecord>();
  const publicKeys = new Map<string, CryptoKey>();
  const privateKeys = new Map<string, { privateKey: CryptoKey; keyObject: KeyObject }>();
  /** place of each key's KeyGenerated in the log: the same order in every process */
  const logOrder = new Map<string, number>();
  let position = START;
  let loadedAt: number | undefined;
  let inFlight: Promise<void> | undefined;

  const nowMs = () => clock.now().getTime();

  async function readNew(): Promise<void> {
    const startedAt = nowMs();
    for (;;) {
      const page = await eventStore.readAll({
        after: position,
        filter: { categories: [SIGNING_KEY_CATEGORY] },
        limit: 500,
      });
      for (const e of page) apply(e);
      if (page.length > 0) position = page[page.length - 1]!.position;
      if (page.length < 500) break;
    }
    loadedAt = startedAt;
  }

  function apply(e: RecordedEvent): void {
    const kid = (e.data as { kid?: unknown }).kid;
    if (typeof kid !== 'string') return;
    const before = states.get(kid) ?? signingKeyDecider.initialState();
    const after = signingKeyDecider.evolve(before, e as unknown as SigningKeyEvent);
    if (e.type === 'KeyGenerated' && !logOrder.has(kid)) logOrder.set(kid, logOrder.size);
    if (after.status !== 'none') states.set(kid, after);
  }

  /** One read at a time; callers arriving meanwhile share it. */
  function reload(): Promise<void> {
    inFlight ??= readNew().finally(() => {
      inFlight = undefined;
    });
    return inFlight;
  }

  async function fresh(): Promise<void> {
    if (loadedAt === undefined || nowMs() - loadedAt >= refreshIntervalMs) {
      await reload();
      if (dueForMaintenance(nowMs())) await maintain().catch(() => undefined);
    }
  }

  const isPublished = (s: KeyRecord, t: number) =>
    s.status === 'published' && (s.publishUntil === undefined || Date.parse(s.publishUntil) > t);

  /** The key signing at t: the latest activated, not yet retired. Ties go to the key generated last (log order). */
  function activeAt(t: number): KeyRecord | undefined {
    let best: KeyRecord | undefined;
    for (const s of states.values()) {
      if (s.status !== 'published' || s.activatesAt === undefined) continue;
      if (Date.parse(s.activatesAt) > t) continue;
      if (s.retiresAt !== undefined && Date.parse(s.retiresAt) <= t) continue;
      if (best === undefined || compareActivation(s, best) > 0) best = s;
    }
    return best;
  }

  const compareActivation = (a: KeyRecord, b: KeyRecord) =>
    Date.parse(a.activatesAt ?? '') - Date.parse(b.activatesAt ?? '') ||
    (logOrder.get(a.key.kid) ?? 0) - (logOrder.get(b.key.kid) ?? 0);

  /** Keys that another key has replaced without a KeyRetired, and retired keys whose tokens have all expired. */
  function dueForMaintenance(t: number): boolean {
    const active = activeAt(t);
    for (const s of states.values()) {
      if (s.status !== 'published') continue;
      if (s.publishUntil !== undefined && Date.parse(s.publishUntil) <= t) return true;
      if (active !== undefined && s !== active && s.retiresAt === undefined && compareActivation(s, active) < 0)
        return true;
    }
    return false;
  }

  const publishUntilFor = (retiresAtMs: number) =>
    new Date(retiresAtMs + maxTokenLifetimeSeconds * 1000 + refreshIntervalMs).toISOString();

  async function run(command: SigningKeyCommand, kid: string, commandId: string): Promise<void> {
    try {
      await handle({
        stream: signingKeyStream(kid),
        command,
        commandId,
        now: clock.now().toISOString(),
        context: { tenant: PLATFORM_TENANT, actor: 'system:key-ring' },
      });
    } catch (err) {
      // another process did the same at the same time; the re-read below shows its result
      if (isWrongExpectedRevision(err) || (isDomainError(err) && err.code === 'CONCURRENCY.CONFLICT')) return;
      throw err;
    }
  }

  async function generate(activatesAtMs: number): Promise<string> {
    const { publicKey, privateKey } = await generateKeyPair('RS256', { extractable: true, modulusLength: 2048 });
    const publicJwk = await exportJWK(publicKey);
    const privateJwk = await exportJWK(privateKey);
    const kid = await calculateJwkThumbprint(publicJwk, 'sha256');
    const now = clock.now();
    await run(
      {
        type: 'GenerateKey',
        data: {
          kid,
          publicJwk: { kty: 'RSA', n: publicJwk.n, e: publicJwk.e } as PublicJwk,
          encryptedPrivateJwk: encryptPrivateJwk(privateJwk, kid, secret),
          activatesAt: new Date(Math.max(activatesAtMs, now.getTime())).toISOString(),
          now: now.toISOString(),
        },
      },
      kid,
      newCommandId(),
    );
    return kid;
  }

  async function maintain(): Promise<void> {
    await reload();
    const t = nowMs();
    const active = activeAt(t);
    for (const s of [...states.values()]) {
      if (s.status !== 'published') continue;
      const kid = s.key.kid;
      if (s.publishUntil !== undefined && Date.parse(s.publishUntil) <= t) {
        await run({ type: 'WithdrawKey', data: { kid, now: new Date(t).toISOString() } }, kid, `withdraw/${kid}`);
      } else if (
        active !== undefined &&
        s !== active &&
        s.retiresAt === undefined &&
        compareActivation(s, active) < 0
      ) {
        await run(
          {
            type: 'RetireKey',
            data: {
              kid,
              retiresAt: new Date(t).toISOString(),
              publishUntil: publishUntilFor(t),
              now: new Date(t).toISOString(),
            },
          },
          kid,
          `retire/${kid}`,
        );
      }
    }
    await reload();
  }

  async function privateKeyOf(s: KeyRecord): Promise<{ privateKey: CryptoKey; keyObject: KeyObject }> {
    const kid = s.key.kid;
    let key = privateKeys.get(kid);
    if (key === undefined) {
      const jwk = decryptWithAny(s.key.encryptedPrivateJwk, kid, [secret, ...(o.previousSecrets ?? [])]);
      key = {
        privateKey: (await importJWK(jwk, 'RS256')) as CryptoKey,
        keyObject: createPrivateKey({ key: jwk as JsonWebKey, format: 'jwk' }),
      };
      privateKeys.set(kid, key);
    }
    return key;
  }

  async function publicKeyOf(s: KeyRecord): Promise<CryptoKey> {
    const kid = s.key.kid;
    let key = publicKeys.get(kid);
    if (key === undefined) {
      key = (await importJWK(s.key.publicJwk as JWK, 'RS256')) as CryptoKey;
      publicKeys.set(kid, key);
    }
    return key;
  }

  const info = (s: KeyRecord): SigningKeyInfo => ({
    kid: s.key.kid,
    publicJwk: s.key.publicJwk,
    createdAt: s.key.createdAt,
    activatesAt: s.activatesAt ?? s.key.createdAt,
    ...(s.retiresAt !== undefined && { retiresAt: s.retiresAt }),
    ...(s.publishUntil !== undefined && { publishUntil: s.publishUntil }),
    withdrawn: s.status === 'withdrawn',
  });

  return {
    maxTokenLifetimeSeconds,

    async ensureKey() {
      await reload();
      if (states.size === 0) {
        // First start: nobody holds a token or a cached JWKS yet, so the first key signs at once. Two
        // processes starting together may both generate one; the later activation (or, on a tie, the one
        // later in the log) wins and maintain() retires the other.
        await generate(nowMs());
        await reload();
      }
      await maintain();
      if (activeAt(nowMs()) === undefined)
        throw new Error('no signing key is active: run `platform keys rotate --now`');
    },

    async signingKey() {
      await fresh();
      let active = activeAt(nowMs());
      if (active === undefined) {
        await reload();
        active = activeAt(nowMs());
      }
      if (active === undefined) throw new Error('no signing key is active: run `platform keys rotate --now`');
      return { kid: active.key.kid, ...(await privateKeyOf(active)) };
    },

    async verificationKey(kid) {
      let s = states.get(kid);
      if (s === undefined) {
        await reload(); // a key another process generated: read what is new, once
        s = states.get(kid);
      }
      if (s === undefined || !isPublished(s, nowMs())) return null;
      return publicKeyOf(s);
    },

    async publishedJwks() {
      await fresh();
      const t = nowMs();
      return [...states.values()]
        .filter((s) => isPublished(s, t))
        .sort((a, b) => compareActivation(b, a))
        .map((s) => ({ ...s.key.publicJwk, kid: s.key.kid, alg: 'RS256', use: 'sig' }));
    },

    async rotate(options = {}) {
      await reload();
      const t = nowMs();
      const activatesAtMs = options.now
        ? t
        : t + (options.delaySeconds !== undefined ? options.delaySeconds * 1000 : publishDelayMs);
      const kid = await generate(activatesAtMs);
      await reload();
      const activatesAt = states.get(kid)?.activatesAt ?? new Date(activatesAtMs).toISOString();
      const superseded: RotationResult['superseded'] = [];
      const created = states.get(kid);
      for (const s of [...states.values()]) {
        if (s.key.kid === kid || s.status !== 'published' || s.retiresAt !== undefined) continue;
        // only what the new key replaces: a key of a concurrent rotation that activates later (or, at the
        // same time, came later in the log) is newer and retires this one instead, so one of them survives
        if (created !== undefined && compareActivation(s, created) > 0) continue;
        const retiresAt = activatesAt;
        const publishUntil = publishUntilFor(Date.parse(retiresAt));
        await run(
          { type: 'RetireKey', data: { kid: s.key.kid, retiresAt, publishUntil, now: new Date(t).toISOString() } },
          s.key.kid,
          `retire/${s.key.kid}`,
        );
        superseded.push({ kid: s.key.kid, retiresAt, publishUntil });
      }
      await maintain();
      return { kid, activatesAt, superseded };
    },

    maintain,
    reload,

    async keys() {
      await reload();
      return [...states.values()].sort((a, b) => compareActivation(a, b)).map(info);
    },
  };
}

const deriveKey = (secret: string, salt: Buffer): Buffer =>
  Buffer.from(hkdfSync('sha256', secret, salt, HKDF_INFO, 32));

/** AES-256-GCM of the private JWK's JSON; the kid is authenticated too, so a ciphertext cannot be moved to another key. */
export function encryptPrivateJwk(jwk: JWK, kid: string, secret: string): EncryptedPrivateJwk {
  const salt = randomBytes(16);
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', deriveKey(secret, salt), iv);
  cipher.setAAD(Buffer.from(kid, 'utf8'));
  const ciphertext = Buffer.concat([cipher.update(JSON.stringify(jwk), 'utf8'), cipher.final()]);
  return {
    alg: 'A256GCM',
    kdf: 'HKDF-SHA256',
    salt: salt.toString('base64url'),
    iv: iv.toString('base64url'),
    tag: cipher.getAuthTag().toString('base64url'),
    ciphertext: ciphertext.toString('base64url'),
  };
}

/** the first of `secrets` that opens the key (the error of the current one when none does) */
function decryptWithAny(enc: EncryptedPrivateJwk, kid: string, secrets: readonly string[]): JWK {
  let first: unknown;
  for (const secret of secrets) {
    try {
      return decryptPrivateJwk(enc, kid, secret);
    } catch (err) {
      first ??= err;
    }
  }
  throw first;
}

export function decryptPrivateJwk(enc: EncryptedPrivateJwk, kid: string, secret: string): JWK {
  try {
    const decipher = createDecipheriv(
      'aes-256-gcm',
      deriveKey(secret, Buffer.from(enc.salt, 'base64url')),
      Buffer.from(enc.iv, 'base64url'),
    );
    decipher.setAAD(Buffer.from(kid, 'utf8'));
    decipher.setAuthTag(Buffer.from(enc.tag, 'base64url'));
    const clear = Buffer.concat([decipher.update(Buffer.from(enc.ciphertext, 'base64url')), decipher.final()]);
    return JSON.parse(clear.toString('utf8')) as JWK;
  } catch {
    throw new Error(
      `cannot decrypt signing key ${kid}: the key-encryption secret (KEY_ENCRYPTION_SECRET or DATA_DIR/key-encryption.secret) is not the one it was encrypted with`,
    );
  }
}
