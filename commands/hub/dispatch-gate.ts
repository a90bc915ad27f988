import { randomUUID } from 'node:crypto';
import { coreError } from '../../domain/core/core.errors.ts';
import { fold } from '../../domain/core/decider.ts';
import { isDomainError } from '../../domain/core/domain-error.ts';
import type { RecordedEvent } from '../../domain/core/event.ts';
import {
  type AcceptedNotification,
  evaluateDispatchGate,
  factsNeeded,
  type GateDecision,
  type GateFacts,
  type GateKind,
} from '../../domain/hub/dispatch-gate.ts';
import { capFor, frequencyCapDecider, frequencyCapsStream } from '../../domain/hub/frequency-cap.decider.ts';
import {
  type QuotaEvent,
  type QuotaState,
  quotaDecider,
  quotaReleasable,
  quotaStream,
} from '../../domain/hub/frequency-quota.decider.ts';
import type { Message } from '../../domain/hub/notification.model.ts';
import {
  ANY_CLASS,
  type Preference,
  type PreferenceKey,
  preferenceDecider,
  preferenceStream,
} from '../../domain/hub/preference.decider.ts';
import { quietHoursDecider, quietHoursStream } from '../../domain/hub/quiet-hours.ts';
import type { EventStore } from '../../infra/core/event-store.port.ts';
import { isWrongExpectedRevision } from '../../infra/core/store-errors.ts';
import { commandHandler } from '../core/command-handler.ts';
import { loadAggregate } from '../core/load-aggregate.ts';
import { createStreamCache } from '../core/stream-cache.ts';
import { type HubSettings, SETTING } from './hub.contracts.ts';

/**
 * The dispatch gate with its live facts (spec "Dispatch gate"; the decision itself is the pure
 * domain/hub/dispatch-gate.ts). `claim` reads only what the message's RESPECT policies need, straight from
 * the streams (the truth, never a lagging read model: "customer preferences and quota usage are checked
 * live at each physical dispatch"):
 *   - preference: the class's and the channel's `*` preference streams, and `comm-hub.preference.default-allow`;
 *   - quiet hours: the tenant's windows and `comm-hub.time-zone` (the windows and caps through a stream
 *     cache: as current as a full read, only the events after the folded revision are fetched);
 *   - frequency cap: the tenant's caps; on PASS the recipient's quota stream, where the slot is reserved
 *     with the revision the count was made on (idempotent per MessageId: a message holding a slot takes no
 *     other), so concurrent claims never exceed the limit; the last slot lost to another claim answers
 *     SUPPRESS FREQUENCY_CAP_EXCEEDED.
 * Used by the automatic dispatch (dispatch.process.ts) and the operator's manual retry (kind MANUAL).
 */
export type DispatchGateDeps = { eventStore: EventStore; settings: HubSettings; defaultTimeZone: string };

export type DispatchGate = {
  claim(input: {
    tenant: string;
    state: AcceptedNotification;
    message: Message;
    now: string;
    kind: GateKind;
  }): Promise<GateDecision>;
  /** after an outcome: releases the message's slot when it ended without any accepted or uncertain attempt */
  releaseIfUncommitted(input: {
    tenant: string;
    state: AcceptedNotification;
    messageId: string;
    now: string;
  }): Promise<boolean>;
};

const SYSTEM = 'system:hub-dispatch-gate';
/** many claims race for a recipient's last slots: each conflict re-reads and counts again */
const MAX_RESERVE_ROUNDS = 64;
const QUOTA_PAGE = 256;

/** a recipient's stored preference for one channel and class, live from its stream */
export async function readPreference(
  eventStore: EventStore,
  tenant: string,
  key: PreferenceKey,
): Promise<Preference | null> {
  return (await loadAggregate(eventStore, preferenceDecider, preferenceStream(tenant, key))).state.preference;
}

/** the gate's preference facts for a recipient, channel and class: the class's own and the channel's `*` preference, and the default */
export async function readPreferenceFacts(
  eventStore: EventStore,
  settings: HubSettings,
  tenant: string,
  key: PreferenceKey,
): Promise<NonNullable<GateFacts['preference']>> {
  const [exact, channelWide, allow] = await Promise.all([
    key.NotificationClass === ANY_CLASS ? Promise.resolve(null) : readPreference(eventStore, tenant, key),
    readPreference(eventStore, tenant, { ...key, NotificationClass: ANY_CLASS }),
    settings.get(tenant, SETTING.preferenceDefaultAllow),
  ]);
  return { exact, channelWide, defaultAllow: allow === 'true' };
}

export function createDispatchGate(deps: DispatchGateDeps): DispatchGate {
  const { eventStore, settings } = deps;
  const reserve = commandHandler(eventStore, quotaDecider, { maxAttempts: 64 });
  // the tenant's windows and caps are read at every dispatch: kept folded, each read fetches only newer events
  const quietHours = createStreamCache(eventStore, quietHoursDecider, { maxEntries: 1000 });
  const frequencyCaps = createStreamCache(eventStore, frequencyCapDecider, { maxEntries: 1000 });

  /**
   * The recipient's quota state: the events since `horizon`, read backwards in pages (a recipient's stream
   * grows with every message it gets; only the window counts), or the whole stream (`horizon` null); with
   * the stream's revision, which the reservation is appended on.
   */
  async function recentQuota(stream: string, horizon: string | null): Promise<{ state: QuotaState; revision: number }> {
    if (horizon === null) {
      const events = await eventStore.readStream(stream);
      return { state: fold(quotaDecider, events as unknown as QuotaEvent[]), revision: events.length - 1 };
    }
    const collected: RecordedEvent[] = [];
    for (let from: number | undefined; ; ) {
      const page = await eventStore.readStream(stream, {
        direction: 'backwards',
        limit: QUOTA_PAGE,
        ...(from !== undefined && { fromRevision: from }),
      });
      collected.push(...page);
      const oldest = page.at(-1);
      if (
        oldest === undefined ||
        page.length < QUOTA_PAGE ||
        oldest.revision === 0 ||
        (oldest.data as { At: string }).At <= horizon
      )
        break;
      from = oldest.revision - 1;
    }
    collected.reverse();
    return {
      state: fold(quotaDecider, collected as unknown as QuotaEvent[]),
      revision: collected.at(-1)?.revision ?? -1,
    };
  }

  async function facts(tenant: string, state: AcceptedNotification, m: Message): Promise<GateFacts> {
    const need = factsNeeded(m);
    const out: GateFacts = {};
    const rid = m.Recipient?.RecipientId;
    const jobs: Array<Promise<void>> = [];
    if (need.preference && rid !== undefined) {
      jobs.push(
        (async () => {
          out.preference = await readPreferenceFacts(eventStore, settings, tenant, {
            RecipientId: rid,
            Channel: m.Channel,
            NotificationClass: state.notification.NotificationClass,
          });
        })(),
      );
    }
    if (need.quietHours) {
      jobs.push(
        (async () => {
          const [{ state: hours }, zone] = await Promise.all([
            quietHours.load(quietHoursStream(tenant)),
            settings.get(tenant, SETTING.timeZone),
          ]);
          const windows = hours.channels[m.Channel]?.Windows ?? [];
          out.quietHours = { windows, timeZone: zone ?? deps.defaultTimeZone };
        })(),
      );
    }
    if (need.frequency) {
      jobs.push(
        (async () => {
          const { state: caps } = await frequencyCaps.load(frequencyCapsStream(tenant));
          out.frequency = { cap: capFor(caps, state.notification.NotificationClass) };
        })(),
      );
    }
    await Promise.all(jobs);
    return out;
  }

  return {
    async claim({ tenant, state, message, now, kind }) {
      const decision = evaluateDispatchGate({ state, message, now, kind, facts: await facts(tenant, state, message) });
      if (decision.verdict !== 'PASS' || decision.reserve === null) return decision;
      const q = decision.reserve;
      const stream = quotaStream(tenant, q.RecipientId);
      // a first claim needs the reservations of the cap's window only (and a day back: its own slot, taken by
      // a claim that lost the race or crashed before its attempt); a message that made attempts reads it all
      const horizon =
        message.Attempts.length > 0
          ? null
          : new Date(Date.parse(now) - Math.max(q.Cap.WindowSeconds, 86_400) * 1000).toISOString();
      for (let round = 0; round < MAX_RESERVE_ROUNDS; round++) {
        const { state, revision } = await recentQuota(stream, horizon);
        try {
          await reserve({
            stream,
            command: { type: 'ReserveQuota', ...q, now },
            commandId: `quota/${q.MessageId}/${randomUUID()}`,
            now,
            context: { tenant, actor: SYSTEM, causationId: message.MessageId },
            from: { state, revision },
          });
          return decision;
        } catch (err) {
          if (isDomainError(err) && err.code === 'QUOTA.EXCEEDED')
            return { verdict: 'SUPPRESS', reason: 'FREQUENCY_CAP_EXCEEDED', detail: err.message };
          // another claim took a slot since the read: count again
          if (isWrongExpectedRevision(err)) continue;
          throw err;
        }
      }
      throw coreError('CONCURRENCY.CONFLICT', `the quota of ${q.RecipientId} kept changing: claim again later`);
    },
    async releaseIfUncommitted({ tenant, state, messageId, now }) {
      const m = state.messages[messageId];
      const rid = m?.Recipient?.RecipientId;
      if (m === undefined || rid === undefined || m.Policies.FrequencyCapPolicy !== 'RESPECT' || !quotaReleasable(m))
        return false;
      const r = await reserve({
        stream: quotaStream(tenant, rid),
        command: {
          type: 'ReleaseQuota',
          RecipientId: rid,
          MessageId: m.MessageId,
          Reason: `${m.State}${m.Reason !== undefined ? ` ${m.Reason}` : ''} without acceptance`,
          now,
        },
        commandId: `quota-release/${m.MessageId}/${randomUUID()}`,
        now,
        context: { tenant, actor: SYSTEM, causationId: m.MessageId },
      });
      return r.events.length > 0 && !r.replayed;
    },
  };
}
