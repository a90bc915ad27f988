import { fold } from '../../domain/core/decider.ts';
import { isDomainError } from '../../domain/core/domain-error.ts';
import type { RecordedEvent } from '../../domain/core/event.ts';
import { hubError } from '../../domain/hub/hub.errors.ts';
import { notificationStream } from '../../domain/hub/notification.decider.ts';
import type { Acknowledgement, NotificationEvent } from '../../domain/hub/notification.model.ts';
import type { SendRequestInput } from '../../domain/hub/send-request.ts';
import {
  lateTryRefusal,
  retriedTryConflict,
  type TccEvent,
  type TccResult,
  type TccState,
  type TccView,
  tccDecider,
  tccStream,
  tccView,
} from '../../domain/hub/tcc.decider.ts';
import type { Clock } from '../../infra/core/clock.port.ts';
import type { EventStore } from '../../infra/core/event-store.port.ts';
import { isWrongExpectedRevision } from '../../infra/core/store-errors.ts';
import { type CommandContext, commandHandler } from '../core/command-handler.ts';
import { derivedId } from '../core/event-id.ts';
import { requestHashOf, type Sender } from './send.commands.ts';

/**
 * TCC branches of sends (spec "Send request rules" 5; the aggregate: domain/hub/tcc.decider.ts):
 *
 * - `tryBranch`: the send request validated and prepared exactly like a send (send.commands.ts `prepare`:
 *   definition selected, snapshot captured or reused, messages planned, acknowledgement made) and kept in
 *   the branch's stream: no notification, no due item, no provider call. 202.
 * - `confirm`: READY; the `hub.tcc` projection turns that into a due item the command worker claims.
 * - `cancel`: cancels a prepared branch, or leaves a tombstone when no Try came yet.
 * - `materialize` (the command worker, under the item's lease): claims with the fence (the lease number),
 *   appends the prepared notification (send.commands.ts `accept`: `no_stream`, so it exists at most once),
 *   then records the result under the same fence; dispatch starts after that commit (the inline dispatch of
 *   the worker's process, else the dispatch projection's due items).
 *
 * A worker that dies between the acceptance and its TccMaterialized leaves a READY command whose
 * notification exists: the next claim finds the stream, sees that its acceptance was caused by this
 * branch's TccTried (metadata.causationId) and records the original result (CREATED), without a second
 * acceptance. A worker whose lease was taken over finds its fence stale and records nothing.
 */
export type TccIds = { Xid: string; BranchId: string };
export type MaterializeStep = 'materialized' | 'stale' | 'nothing';

export type TccDeps = {
  eventStore: EventStore;
  clock: Clock;
  sender: Pick<Sender, 'prepare' | 'accept'>;
};

export const tccCommandId = (tenant: string, ids: TccIds) => derivedId(`hub-tcc/${tenant}/${ids.Xid}/${ids.BranchId}`);

const isStale = (err: unknown) =>
  isWrongExpectedRevision(err) || (isDomainError(err) && err.code === 'TCC.STALE_FENCE');

export function createTccCommands(deps: TccDeps) {
  const { eventStore, clock } = deps;
  const handle = commandHandler(eventStore, tccDecider);
  const now = () => clock.now().toISOString();

  async function load(
    stream: string,
  ): Promise<{ state: TccState; revision: number; tenant?: string; tried?: RecordedEvent }> {
    const events = await eventStore.readStream(stream);
    const tried = events.find((e) => e.type === 'TccTried');
    return {
      state: fold(tccDecider, events as unknown as TccEvent[]),
      revision: events.length - 1,
      ...(events[0] !== undefined && { tenant: events[0].metadata.tenant }),
      ...(tried !== undefined && { tried }),
    };
  }

  const viewOf = (state: TccState): TccView => {
    if (state.status === 'none') throw hubError('TCC.NOT_FOUND', 'no such TCC branch');
    return tccView(state);
  };

  async function tryBranch(ids: TccIds, input: SendRequestInput, ctx: CommandContext): Promise<TccView> {
    const { tenant } = ctx;
    const CommandId = tccCommandId(tenant, ids);
    const stream = tccStream(tenant, CommandId);
    // a tombstone (or a cancelled branch) refuses before anything is prepared: no snapshot for a dead branch
    const before = await load(stream);
    const refused = lateTryRefusal(before.state);
    if (refused !== null) throw refused;
    if (before.state.status !== 'none') {
      // a repeated Try (the coordinator's retry): the original answer, whatever happened since (even after
      // materialization, when preparing again would find the RequestId taken); other content: 409
      const conflict = retriedTryConflict(before.state, {
        RequestHash: requestHashOf(input),
        RequestId: input.RequestId,
      });
      if (conflict !== null) throw conflict;
      return viewOf(before.state);
    }
    const prepared = await deps.sender.prepare(input, ctx);
    if (prepared.kind === 'replay') {
      // the RequestId was accepted outside this branch: a branch can only prepare a send not yet made
      throw hubError(
        'TCC.CONFLICT',
        `RequestId ${prepared.result.acknowledgement.RequestId} was accepted already (not by this branch)`,
        {
          RequestId: prepared.result.acknowledgement.RequestId,
          NotificationId: prepared.result.acknowledgement.NotificationId,
        },
      );
    }
    const r = await handle({
      stream,
      command: {
        type: 'Try',
        CommandId,
        ...ids,
        RequestId: prepared.notification.RequestId,
        NotificationId: prepared.notification.NotificationId,
        RequestHash: prepared.hash,
        Prepared: {
          Notification: prepared.notification,
          Messages: prepared.messages,
          Acknowledgement: prepared.acknowledgement,
        },
        now: now(),
      },
      commandId: `tcc-try/${CommandId}/${prepared.hash}`,
      now: now(),
      context: ctx,
    });
    return viewOf(r.state);
  }

  async function confirm(ids: TccIds, ctx: CommandContext): Promise<TccView> {
    const CommandId = tccCommandId(ctx.tenant, ids);
    const r = await handle({
      stream: tccStream(ctx.tenant, CommandId),
      command: { type: 'Confirm', now: now() },
      commandId: `tcc-confirm/${CommandId}`,
      now: now(),
      context: ctx,
    });
    return viewOf(r.state);
  }

  async function cancel(ids: TccIds, ctx: CommandContext): Promise<TccView> {
    const CommandId = tccCommandId(ctx.tenant, ids);
    const r = await handle({
      stream: tccStream(ctx.tenant, CommandId),
      command: { type: 'Cancel', CommandId, ...ids, now: now() },
      commandId: `tcc-cancel/${CommandId}`,
      now: now(),
      context: ctx,
    });
    return viewOf(r.state);
  }

  async function get(tenant: string, ids: TccIds): Promise<TccView> {
    return viewOf((await load(tccStream(tenant, tccCommandId(tenant, ids)))).state);
  }

  /**
   * One materialization run under a lease whose number is `fence`. 'stale': another worker holds a newer
   * lease (or completed it); 'nothing': not READY (cancelled, done, unknown).
   */
  async function materialize(stream: string, fence: number, owner: string): Promise<MaterializeStep> {
    const l = await load(stream);
    if (l.state.status !== 'READY' || l.tenant === undefined || l.tried === undefined) return 'nothing';
    const tenant = l.tenant;
    const ctx: CommandContext = {
      tenant,
      actor: 'system:hub-command-worker',
      causationId: l.tried.id,
      ...(l.tried.metadata.correlationId !== undefined && { correlationId: l.tried.metadata.correlationId }),
    };
    try {
      await handle({
        stream,
        command: { type: 'Claim', Fence: fence, Owner: owner, now: now() },
        commandId: `tcc-claim/${fence}`,
        now: now(),
        context: ctx,
        from: { state: l.state, revision: l.revision },
      });
    } catch (err) {
      if (isStale(err)) return 'stale';
      throw err;
    }
    const t = l.state.tried!;
    const p = t.Prepared;
    let result: TccResult;
    let acknowledgement: Acknowledgement | undefined;
    let error: string | undefined;
    const target = notificationStream(tenant, t.NotificationId);
    try {
      await deps.sender.accept(
        {
          kind: 'new',
          stream: target,
          hash: t.RequestHash,
          notification: p.Notification,
          messages: p.Messages,
          acknowledgement: p.Acknowledgement,
        },
        ctx,
      );
    } catch (err) {
      if (!(isDomainError(err) && err.code === 'SEND.REQUEST_CONFLICT')) throw err;
    }
    // What the notification's stream holds decides, not the append's answer (a run again after one that
    // died after accepting meets the stream and is answered as a replay): accepted by this branch (its
    // causation is this branch's TccTried: the original result), by another send of the RequestId with the
    // same content, or with other content.
    const first = (await eventStore.readStream(target, { limit: 1 }))[0] as
      | (RecordedEvent & Extract<NotificationEvent, { type: 'NotificationAccepted' }>)
      | undefined;
    if (first === undefined || first.type !== 'NotificationAccepted')
      throw new Error(`${target}: no acceptance after accepting`);
    if (first.metadata.causationId === l.tried.id) {
      result = 'CREATED';
      acknowledgement = first.data.Acknowledgement;
    } else if (first.data.Notification.RequestHash === t.RequestHash) {
      result = 'REPLAYED';
      acknowledgement = first.data.Acknowledgement;
    } else {
      result = 'CONFLICT';
      error = `RequestId ${t.RequestId} was accepted with other content`;
    }
    try {
      await handle({
        stream,
        command: {
          type: 'Materialize',
          Fence: fence,
          Result: result,
          ...(acknowledgement !== undefined && { Acknowledgement: acknowledgement }),
          ...(error !== undefined && { Error: error }),
          now: now(),
        },
        commandId: `tcc-materialize/${fence}`,
        now: now(),
        context: ctx,
      });
    } catch (err) {
      if (isStale(err)) return 'stale';
      throw err;
    }
    return 'materialized';
  }

  return { tryBranch, confirm, cancel, get, materialize };
}

export type TccCommands = ReturnType<typeof createTccCommands>;
