import { assertNever, type Decider } from '../core/decider.ts';
import type { DomainEvent } from '../core/event.ts';
import { streamName } from '../core/stream-name.ts';
import { bridgeError } from './bridge.errors.ts';

/**
 * One message in a user's inbox, delivered by a user message box target (TypeId 5):
 * `userMessage-<tenant>.<messageId>`, the message id being the delivery id, so a redelivery of the same
 * delivery (a retry after a lost outcome, a redrive) finds the stream and appends nothing.
 *
 * The tenant is the event's (the publishing tenant: its users read the message); the owner is `userId`.
 * Reading is the owner's alone: another user asking gets the same 404 as for a message that does not
 * exist, so message ids reveal nothing across users.
 */
export const USER_MESSAGE_CATEGORY = 'userMessage';
export const userMessageStream = (tenant: string, messageId: string): string =>
  streamName(USER_MESSAGE_CATEGORY, tenant, messageId);

/** Where the message came from (for the inbox listing; not needed to read it). */
export type UserMessageOrigin = {
  ruleId: string;
  ruleTenant: string;
  /** the producer's event id, source and type */
  eventId: string;
  source: string;
  type: string;
};

export type UserMessageDeliveredData = {
  tenant: string;
  messageId: string;
  userId: string;
  messageType?: string;
  messageLevel?: string;
  productLine?: string;
  messageCategory?: string;
  /** BODY as rendered: any JSON value */
  body: unknown;
  origin?: UserMessageOrigin;
  deliveredAt: string;
};

export type UserMessageDelivered = DomainEvent<'UserMessageDelivered', UserMessageDeliveredData>;
export type UserMessageRead = DomainEvent<
  'UserMessageRead',
  { tenant: string; messageId: string; userId: string; at: string }
>;
export type UserMessageEvent = UserMessageDelivered | UserMessageRead;
export const USER_MESSAGE_EVENT_TYPES: ReadonlyArray<UserMessageEvent['type']> = [
  'UserMessageDelivered',
  'UserMessageRead',
];

export type UserMessageCommand =
  | { type: 'DeliverUserMessage'; data: Omit<UserMessageDeliveredData, 'deliveredAt'>; now: string }
  /** `userId`: who asks (the token's subject) */
  | { type: 'MarkUserMessageRead'; userId: string; now: string };

export type UserMessageState =
  | { status: 'none' }
  | { status: 'delivered'; message: UserMessageDeliveredData; readAt?: string };

export const MAX_USER_ID_LENGTH = 256;
export const MAX_MESSAGE_ATTRIBUTE_LENGTH = 256;

const notFound = () => bridgeError('USER_MESSAGE.NOT_FOUND', 'no such message in your inbox');

export const userMessageDecider: Decider<UserMessageCommand, UserMessageEvent, UserMessageState> = {
  initialState: () => ({ status: 'none' }),

  evolve(state, event) {
    switch (event.type) {
      case 'UserMessageDelivered':
        return { status: 'delivered', message: event.data };
      case 'UserMessageRead':
        return state.status === 'delivered' ? { ...state, readAt: event.data.at } : state;
      default:
        return assertNever(event);
    }
  },

  decide(command, state) {
    switch (command.type) {
      case 'DeliverUserMessage': {
        // a redelivery of the same delivery: the message is in the inbox already
        if (state.status !== 'none') return [];
        const d = command.data;
        const problems: Array<{ field: string; message: string }> = [];
        if (typeof d.userId !== 'string' || d.userId.trim() === '' || d.userId.length > MAX_USER_ID_LENGTH) {
          problems.push({ field: 'USER_ID', message: `must be a user id of 1 to ${MAX_USER_ID_LENGTH} characters` });
        }
        for (const [field, value] of [
          ['MESSAGE_TYPE', d.messageType],
          ['MESSAGE_LEVEL', d.messageLevel],
          ['PRODUCT_LINE', d.productLine],
          ['MESSAGE_CATEGORY', d.messageCategory],
        ] as const) {
          if (value !== undefined && (typeof value !== 'string' || value.length > MAX_MESSAGE_ATTRIBUTE_LENGTH)) {
            problems.push({ field, message: `must be a string of at most ${MAX_MESSAGE_ATTRIBUTE_LENGTH} characters` });
          }
        }
        if (d.body === undefined) problems.push({ field: 'BODY', message: 'is required' });
        if (problems.length > 0) {
          throw bridgeError(
            'USER_MESSAGE.INVALID',
            problems.map((p) => `${p.field} ${p.message}`).join('; '),
            problems,
          );
        }
        return [{ type: 'UserMessageDelivered', data: { ...d, deliveredAt: command.now } }];
      }
      case 'MarkUserMessageRead': {
        if (state.status === 'none' || state.message.userId !== command.userId) throw notFound();
        if (state.readAt !== undefined) return [];
        const m = state.message;
        return [
          {
            type: 'UserMessageRead',
            data: { tenant: m.tenant, messageId: m.messageId, userId: m.userId, at: command.now },
          },
        ];
      }
      default:
        return assertNever(command);
    }
  },
};
