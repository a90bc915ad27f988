import { bridgeError } from '../../domain/bridge/bridge.errors.ts';
import {
  type UserMessageDeliveredData,
  type UserMessageEvent,
  userMessageDecider,
  userMessageStream,
} from '../../domain/bridge/user-message.decider.ts';
import { fold } from '../../domain/core/decider.ts';
import { isDomainError } from '../../domain/core/domain-error.ts';
import type { Clock } from '../../infra/core/clock.port.ts';
import type { EventStore } from '../../infra/core/event-store.port.ts';
import { type CommandContext, commandHandler } from '../core/command-handler.ts';

/**
 * A user's own actions on her inbox (the user message box target's messages): mark one message read,
 * mark many read. The caller is always the message's owner (the token's subject): anyone else gets
 * USER_MESSAGE.NOT_FOUND (404), as for a message that does not exist.
 *
 * "Mark all read" needs the ids of the unread messages, which only the inbox read model knows; commands
 * do not read projections, so the caller (the router) lists them and passes them in.
 */
export type UserMessageView = UserMessageDeliveredData & { read: boolean; readAt?: string };

/** message ids are delivery ids (64 hex); anything of another shape cannot name a message */
const MESSAGE_ID = /^[A-Za-z0-9._:-]{1,128}$/;
const notFound = () => bridgeError('USER_MESSAGE.NOT_FOUND', 'no such message in your inbox');

export function createUserMessageCommands({ eventStore, clock }: { eventStore: EventStore; clock: Clock }) {
  const handle = commandHandler(eventStore, userMessageDecider);
  const now = () => clock.now().toISOString();

  async function mark(userId: string, messageId: string, ctx: CommandContext, commandId: string) {
    const { tenant } = ctx;
    if (!MESSAGE_ID.test(messageId) || tenant === '' || tenant.includes('.')) throw notFound();
    const at = now();
    const r = await handle({
      stream: userMessageStream(tenant, messageId),
      command: { type: 'MarkUserMessageRead', userId, now: at },
      commandId,
      now: at,
      context: ctx,
    });
    // (a replayed command id answers without deciding: the owner is checked here too)
    if (r.state.status !== 'delivered' || r.state.message.userId !== userId) throw notFound();
    const view: UserMessageView = {
      ...r.state.message,
      read: true,
      ...(r.state.readAt !== undefined && { readAt: r.state.readAt }),
    };
    return { view, changed: !r.replayed && r.events.length > 0 };
  }

  return {
    /** marks one message read (again: no change); answers the message */
    markRead: async (
      userId: string,
      messageId: string,
      ctx: CommandContext,
      commandId: string,
    ): Promise<UserMessageView> => (await mark(userId, messageId, ctx, commandId)).view,

    /** marks each of `messageIds` read (those already read count for nothing); answers how many changed */
    async markAllRead(
      userId: string,
      messageIds: string[],
      ctx: CommandContext,
      commandId: string,
    ): Promise<{ marked: number }> {
      let marked = 0;
      for (const messageId of messageIds) {
        try {
          if ((await mark(userId, messageId, ctx, `${commandId}/${messageId}`)).changed) marked++;
        } catch (err) {
          // not the caller's (cannot happen for ids from her own inbox listing): skip it
          if (!(isDomainError(err) && err.code === 'USER_MESSAGE.NOT_FOUND')) throw err;
        }
      }
      return { marked };
    },

    /** one message as its stream says now, when it is `userId`'s; null otherwise */
    get: (tenant: string, userId: string, messageId: string) => readView(tenant, userId, messageId),
  };

  async function readView(tenant: string, userId: string, messageId: string): Promise<UserMessageView | null> {
    if (!MESSAGE_ID.test(messageId) || tenant === '' || tenant.includes('.')) return null;
    const events = await eventStore.readStream(userMessageStream(tenant, messageId));
    const state = fold(userMessageDecider, events as unknown as UserMessageEvent[]);
    if (state.status !== 'delivered' || state.message.userId !== userId) return null;
    return {
      ...state.message,
      read: state.readAt !== undefined,
      ...(state.readAt !== undefined && { readAt: state.readAt }),
    };
  }
}

export type UserMessageCommands = ReturnType<typeof createUserMessageCommands>;
