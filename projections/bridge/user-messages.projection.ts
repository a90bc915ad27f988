import {
  USER_MESSAGE_CATEGORY,
  USER_MESSAGE_EVENT_TYPES,
  type UserMessageEvent,
  type UserMessageOrigin,
} from '../../domain/bridge/user-message.decider.ts';
import { assertNever } from '../../domain/core/decider.ts';
import type { RecordedEvent } from '../../domain/core/event.ts';
import type { Doc, Filter, ReadStore } from '../../infra/core/read-store.port.ts';
import type { Projection } from '../core/projection.ts';
import { readModel } from '../core/read-model.ts';

/**
 * `bridge.inbox`: the users' inboxes (the user message box target, TypeId 5). One document per message,
 * `<tenant>/<messageId>`, with its owner, read flag and times; listed newest first per (tenant, user).
 */
export const INBOX_PROJECTION = 'bridge.inbox';
export const INBOX_COLLECTION = 'messages';

export type InboxDoc = Doc & {
  /** `<tenant>/<messageId>` */
  id: string;
  tenant: string;
  userId: string;
  messageId: string;
  read: boolean;
  readAt?: string;
  deliveredAt: string;
  /** log position of the delivery: orders messages delivered at the same instant */
  position: string;
  messageType?: string;
  messageLevel?: string;
  productLine?: string;
  messageCategory?: string;
  body: unknown;
  origin?: UserMessageOrigin;
};

export const userMessagesProjection: Projection = {
  name: INBOX_PROJECTION,
  version: 1,
  categories: [USER_MESSAGE_CATEGORY],
  eventTypes: [...USER_MESSAGE_EVENT_TYPES],
  collections: {
    [INBOX_COLLECTION]: {
      indexes: [
        { name: 'by_user_read', fields: { tenant: 1, userId: 1, read: 1, deliveredAt: 1 } },
        { name: 'by_user', fields: { tenant: 1, userId: 1, deliveredAt: 1 } },
      ],
    },
  },
  async apply(events: RecordedEvent[], store) {
    const messages = store.collection<InboxDoc>(INBOX_COLLECTION);
    for (const recorded of events) {
      const event = recorded as unknown as UserMessageEvent;
      switch (event.type) {
        case 'UserMessageDelivered': {
          const d = event.data;
          await messages.upsert({
            id: `${d.tenant}/${d.messageId}`,
            tenant: d.tenant,
            userId: d.userId,
            messageId: d.messageId,
            read: false,
            deliveredAt: d.deliveredAt,
            position: recorded.position,
            ...(d.messageType !== undefined && { messageType: d.messageType }),
            ...(d.messageLevel !== undefined && { messageLevel: d.messageLevel }),
            ...(d.productLine !== undefined && { productLine: d.productLine }),
            ...(d.messageCategory !== undefined && { messageCategory: d.messageCategory }),
            body: d.body,
            ...(d.origin !== undefined && { origin: d.origin }),
          });
          break;
        }
        case 'UserMessageRead':
          await messages.patch(`${event.data.tenant}/${event.data.messageId}`, {
            $set: { read: true, readAt: event.data.at },
          });
          break;
        default:
          assertNever(event);
      }
    }
  },
};

export const MAX_INBOX_PAGE_SIZE = 100;

/** The inbox queries (always one user's: tenant and user id come from the caller's token). */
export function createUserMessageQueries(readStore: ReadStore) {
  const messages = readModel<InboxDoc>(readStore, INBOX_PROJECTION, INBOX_COLLECTION);
  const newestFirst = { deliveredAt: -1, position: -1 } as const;
  return {
    /** page is 1-based; `unread` true: unread only, false: read only, undefined: all */
    async list(tenant: string, userId: string, o: { unread?: boolean; page: number; size: number }) {
      const filter: Filter = { tenant, userId, ...(o.unread !== undefined && { read: !o.unread }) };
      const [items, total] = await Promise.all([
        messages.find(filter, { sort: newestFirst, skip: (o.page - 1) * o.size, limit: o.size }),
        messages.count(filter),
      ]);
      return { items, total };
    },
    unreadCount: (tenant: string, userId: string) => messages.count({ tenant, userId, read: false }),
    /**
     * The user's unread messages in log order after the position `after` (exclusive), at most `limit`:
     * a cursor that moves on even while the projection has not caught up with messages just marked read.
     */
    async unreadAfter(tenant: string, userId: string, after: string | undefined, limit: number) {
      const filter: Filter = { tenant, userId, read: false, ...(after !== undefined && { position: { $gt: after } }) };
      const docs = await messages.find(filter, { sort: { position: 1 }, limit });
      return docs.map((d) => ({ messageId: d.messageId, position: d.position }));
    },
  };
}

export type UserMessageQueries = ReturnType<typeof createUserMessageQueries>;
