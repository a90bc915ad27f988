import { fold } from '../../domain/core/decider.ts';
import { hubError } from '../../domain/hub/hub.errors.ts';
import {
  type Live,
  type NotificationCommand,
  notificationDecider,
  notificationStream,
} from '../../domain/hub/notification.decider.ts';
import { type Message, type NotificationEvent, notificationIdOfMessage } from '../../domain/hub/notification.model.ts';
import {
  type Eligibility,
  type OperatorAction,
  operatorEligibility,
  refuse,
  retryEligibility,
} from '../../domain/hub/notification.operator.decide.ts';
import type { Clock } from '../../infra/core/clock.port.ts';
import type { EventStore } from '../../infra/core/event-store.port.ts';
import { type CommandContext, commandHandler } from '../core/command-handler.ts';
import type { DispatchProcess } from './dispatch.process.ts';
import type { DispatchGate } from './dispatch-gate.ts';
import type { HubSwitch } from './hub-switch.ts';

/**
 * The operator's actions on messages (the rules are
 * domain/hub/notification.operator.decide.ts): manual retry, eligibility, cancel of unsent work, manual
 * receipts and chain control. Every action is one command on the notification's stream whose id is
 * `<action>/<MessageId or NotificationId>/<key>`, the key being the request's Idempotency-Key (or the
 * client's X-Request-Id; else a fresh one): the same request resent appends nothing and answers what the
 * first did (`Replayed: true`), and, for a retry, calls no receiver again.
 *
 * Manual retry, in order: a replay of the same request answers the attempt it made; the eligibility on the
 * stream's state (409 OPERATOR.NOT_ELIGIBLE with the Reason); the dispatch gate's customer policies with live
 * facts, kind MANUAL (quiet hours, preference, frequency cap: 409 OPERATOR.DENIED_BY_POLICY, no attempt);
 * then the attempt on the dispatch process, inline in the request: `AttemptStarted` (Kind MANUAL) appended
 * with the revision just read and the decider rechecking eligibility, so of two concurrent requests one calls
 * and the other finds the attempt in flight; then the receiver's answer is recorded like any attempt's. A
 * process that stops during the call leaves the attempt to the lost-attempt check (uncertain), as for
 * automatic attempts.
 */
export type OperatorDeps = {
  eventStore: EventStore;
  clock: Clock;
  dispatch: Pick<DispatchProcess, 'manualAttempt'>;
  /** the dispatch gate (customer policies); absent: no customer policies are checked */
  gate?: Pick<DispatchGate, 'claim' | 'releaseIfUncommitted'>;
  /** `comm-hub.enabled` (commands/hub/hub-switch.ts): off, a manual retry is refused (409 HUB.DISABLED); absent: always on */
  hubSwitch?: HubSwitch;
};

export type EligibilityView = {
  MessageId: string;
  NotificationId: string;
  State: string;
  DeliveryUncertain: boolean;
  /** per action; the server rechecks when the action executes */
  Actions: Record<OperatorAction, Eligibility>;
};

export type ActionResult = {
  MessageId?: string;
  NotificationId: string;
  /** the messages the action changed, with their state after it */
  Messages: Array<{ MessageId: string; State: string }>;
  /** the same request was done before: nothing new happened */
  Replayed: boolean;
};

export type RetryResult = {
  MessageId: string;
  AttemptId: string;
  AttemptNo: number;
  Kind: 'MANUAL';
  /** the message after the attempt's answer (SUBMITTED while a concurrent request's attempt is in flight) */
  State: string;
  DeliveryUncertain: boolean;
  Outcome?: string;
  HttpStatus?: number;
  Error?: string;
  Replayed: boolean;
};

type Loaded = { state: Live; events: Array<{ type: string; data: unknown; metadata: { commandId?: string } }> };

export function createOperatorCommands(deps: OperatorDeps) {
  const { eventStore, clock } = deps;
  const handle = commandHandler(eventStore, notificationDecider);
  const now = () => clock.now().toISOString();

  async function load(tenant: string, notificationId: string): Promise<Loaded | null> {
    const events = await eventStore.readStream(notificationStream(tenant, notificationId));
    const state = fold(notificationDecider, events as unknown as NotificationEvent[]);
    return state.status === 'accepted' ? { state, events: events as unknown as Loaded['events'] } : null;
  }

  async function loadMessage(
    tenant: string,
    messageId: string,
  ): Promise<Loaded & { m: Message; notificationId: string }> {
    const notificationId = notificationIdOfMessage(messageId);
    const loaded = notificationId === null ? null : await load(tenant, notificationId);
    const m = loaded?.state.messages[messageId];
    if (loaded === null || m === undefined || notificationId === null)
      throw hubError('MESSAGE.NOT_FOUND', 'no such message', { MessageId: messageId });
    return { ...loaded, m, notificationId };
  }

  /** one operator command on the stream (read, decide, append with the revision; a conflict re-decides) */
  async function run(
    notificationId: string,
    command: NotificationCommand,
    commandId: string,
    context: CommandContext,
  ): Promise<ActionResult> {
    const r = await handle({
      stream: notificationStream(context.tenant, notificationId),
      command,
      commandId,
      now: now(),
      context,
    });
    const state = r.state as Live;
    const touched = [
      ...new Set(
        r.events.map((e) => (e.data as { MessageId?: string }).MessageId).filter((x): x is string => x !== undefined),
      ),
    ];
    return {
      NotificationId: notificationId,
      Messages: touched.map((id) => ({ MessageId: id, State: state.messages[id]!.State })),
      Replayed: r.replayed,
    };
  }

  /** one operator command on a message (`<action>/<MessageId>/<key>`); the answer names the message */
  async function runOnMessage(
    messageId: string,
    command: NotificationCommand,
    action: string,
    key: string,
    context: CommandContext,
  ): Promise<ActionResult> {
    const { notificationId } = await loadMessage(context.tenant, messageId);
    return { MessageId: messageId, ...(await run(notificationId, command, `${action}/${messageId}/${key}`, context)) };
  }

  function retryView(state: Live, messageId: string, attemptId: string, replayed: boolean): RetryResult {
    const m = state.messages[messageId]!;
    const a = m.Attempts.find((x) => x.AttemptId === attemptId)!;
    return {
      MessageId: m.MessageId,
      AttemptId: a.AttemptId,
      AttemptNo: a.AttemptNo,
      Kind: 'MANUAL',
      State: m.State,
      DeliveryUncertain: m.DeliveryUncertain,
      ...(a.Outcome !== undefined && { Outcome: a.Outcome }),
      ...(a.HttpStatus !== undefined && { HttpStatus: a.HttpStatus }),
      ...(a.Error !== undefined && { Error: a.Error }),
      Replayed: replayed,
    };
  }

  /** the manual attempt a request with this command id started, if any */
  const startedBy = (l: Loaded, commandId: string, messageId: string) =>
    l.events.find(
      (e) =>
        e.type === 'AttemptStarted' &&
        e.metadata.commandId === commandId &&
        (e.data as { MessageId: string }).MessageId === messageId,
    )?.data as { AttemptId: string } | undefined;

  return {
    async eligibility(tenant: string, messageId: string): Promise<EligibilityView> {
      const { state, m, notificationId } = await loadMessage(tenant, messageId);
      return {
        MessageId: m.MessageId,
        NotificationId: notificationId,
        State: m.State,
        DeliveryUncertain: m.DeliveryUncertain,
        Actions: operatorEligibility(state, m, now()),
      };
    },

    async retry(
      messageId: string,
      input: { Reason: string; key: string },
      context: CommandContext,
    ): Promise<RetryResult> {
      const { tenant } = context;
      const commandId = `manual-retry/${messageId}/${input.key}`;
      let claimed = false;
      try {
        return await retryRounds();
      } catch (err) {
        // the gate reserved a quota slot and no attempt followed (the decider refused the start: ExpiresAt
        // passed in between, the message moved on): no ending event will come to free it, so free it here
        // when the message (FAILED final, cancelled …) holds nothing committed
        if (claimed && deps.gate !== undefined) {
          const fresh = await loadMessage(tenant, messageId).catch(() => null);
          if (fresh !== null)
            await deps.gate.releaseIfUncommitted({ tenant, state: fresh.state, messageId, now: now() });
        }
        throw err;
      }

      async function retryRounds(): Promise<RetryResult> {
        for (let round = 0; round < 4; round++) {
          const l = await loadMessage(tenant, messageId);
          const earlier = startedBy(l, commandId, messageId);
          if (earlier !== undefined) return retryView(l.state, messageId, earlier.AttemptId, true);
          // the hub switched off for the tenant: no new attempt (a replay of one made before still answers)
          if (deps.hubSwitch !== undefined && !(await deps.hubSwitch.enabled(tenant)))
            throw hubError(
              'HUB.DISABLED',
              'the notification hub is switched off for this tenant (comm-hub.enabled false): no attempt was made',
              { Action: 'RETRY', MessageId: messageId },
            );
          const at = now();
          refuse('RETRY', l.m, retryEligibility(l.state, l.m, at));
          if (deps.gate !== undefined) {
            const g = await deps.gate.claim({ tenant, state: l.state, message: l.m, now: at, kind: 'MANUAL' });
            switch (g.verdict) {
              case 'PASS':
                claimed = g.reserve !== null;
                break;
              case 'EXPIRE':
                throw hubError('OPERATOR.NOT_ELIGIBLE', 'RETRY is not possible: the notification expired', {
                  Action: 'RETRY',
                  MessageId: messageId,
                  State: l.m.State,
                  Reason: 'EXPIRED',
                });
              case 'SUPPRESS':
                throw hubError(
                  'OPERATOR.DENIED_BY_POLICY',
                  `the manual retry is denied: ${g.reason}; no attempt was made`,
                  { Action: 'RETRY', MessageId: messageId, Reason: g.reason },
                );
              case 'DEFER':
                throw hubError(
                  'OPERATOR.DENIED_BY_POLICY',
                  `the manual retry is denied: quiet hours until ${g.until}; no attempt was made`,
                  { Action: 'RETRY', MessageId: messageId, Reason: g.reason, Until: g.until },
                );
              case 'NOT_DUE':
                throw hubError('OPERATOR.NOT_ELIGIBLE', `RETRY is not possible: ${g.reason}`, {
                  Action: 'RETRY',
                  MessageId: messageId,
                  State: l.m.State,
                  Reason: 'NOT_DUE',
                });
            }
          }
          const step = await deps.dispatch.manualAttempt(notificationStream(tenant, l.notificationId), messageId, {
            Reason: input.Reason,
            commandId,
            actor: context.actor ?? 'operator',
            ...(context.correlationId !== undefined && { correlationId: context.correlationId }),
          });
          if (step === 'missing') throw hubError('MESSAGE.NOT_FOUND', 'no such message', { MessageId: messageId });
          if (step === 'raced') continue; // the stream moved between our read and the append: look again
          const after = await loadMessage(tenant, messageId);
          const mine = startedBy(after, commandId, messageId);
          if (mine === undefined)
            throw hubError('MESSAGE.STATE_CONFLICT', 'the manual attempt was not recorded', { MessageId: messageId });
          return retryView(after.state, messageId, mine.AttemptId, false);
        }
        throw hubError('MESSAGE.STATE_CONFLICT', 'the message kept changing: try again', { MessageId: messageId });
      }
    },

    cancelMessage(
      messageId: string,
      input: { Reason: string; key: string },
      context: CommandContext,
    ): Promise<ActionResult> {
      return runOnMessage(
        messageId,
        { type: 'CancelUnsent', MessageId: messageId, Reason: input.Reason, now: now() },
        'cancel',
        input.key,
        context,
      );
    },

    async cancelNotification(
      notificationId: string,
      input: { Reason: string; key: string },
      context: CommandContext,
    ): Promise<ActionResult> {
      if ((await load(context.tenant, notificationId)) === null)
        throw hubError('NOTIFICATION.NOT_FOUND', 'no such notification', { NotificationId: notificationId });
      return run(
        notificationId,
        { type: 'CancelUnsent', Reason: input.Reason, now: now() },
        `cancel/${notificationId}/${input.key}`,
        context,
      );
    },

    manualReceipt(
      messageId: string,
      input: { Status: 'DELIVERED' | 'FAILED'; VerificationReason: string; EvidenceReference?: string; key: string },
      context: CommandContext,
    ): Promise<ActionResult> {
      const command: NotificationCommand = {
        type: 'RecordManualReceipt',
        MessageId: messageId,
        Status: input.Status,
        VerificationReason: input.VerificationReason,
        ...(input.EvidenceReference !== undefined && { EvidenceReference: input.EvidenceReference }),
        now: now(),
      };
      return runOnMessage(messageId, command, 'manual-receipt', input.key, context);
    },

    completeRole(
      messageId: string,
      input: { Reason: string; key: string },
      context: CommandContext,
    ): Promise<ActionResult> {
      return runOnMessage(
        messageId,
        { type: 'CompleteRole', MessageId: messageId, Reason: input.Reason, now: now() },
        'complete-role',
        input.key,
        context,
      );
    },
  };
}

export type OperatorCommands = ReturnType<typeof createOperatorCommands>;
