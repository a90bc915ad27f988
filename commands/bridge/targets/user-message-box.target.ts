import { userMessageDecider, userMessageStream } from '../../../domain/bridge/user-message.decider.ts';
import { isDomainError } from '../../../domain/core/domain-error.ts';
import type { Clock } from '../../../infra/core/clock.port.ts';
import type { EventStore } from '../../../infra/core/event-store.port.ts';
import { commandHandler } from '../../core/command-handler.ts';
import { type DeliveryOutcome, type DeliveryRequest, TARGET_TYPES, type TargetAdapter } from '../delivery.contracts.ts';

/**
 * The user message box target (TypeId 5): puts a message into one user's inbox, an event-sourced
 * aggregate per message (`userMessage-<tenant>.<deliveryId>`, domain/bridge/user-message.decider.ts) that
 * the `bridge.inbox` projection lists and http/bridge/user-messages.router.ts serves to the user.
 *
 * - The recipient (the spec's table names none; our decision): the USER_ID parameter (CONSTANT, or a
 *   JSONPATH such as `$.data.userId` matching one value), else the subject of the token that published the
 *   event (`request.publisher.subject`: a user publishing through an application gets the message
 *   herself). Neither: a failure without retry naming USER_ID. A JSONPath matching several values fails
 *   the same way (one message, one owner).
 * - The inbox is the event's tenant's (`request.tenant`): for a platform rule too, the user is a user of
 *   the tenant whose event it is.
 * - MESSAGE_TYPE, MESSAGE_LEVEL, PRODUCT_LINE, MESSAGE_CATEGORY are kept as given (strings); BODY as
 *   rendered (any JSON value).
 * - The message id is the delivery id and the stream is created with `no_stream`: a redelivery of the
 *   same delivery appends nothing and succeeds ("already in the inbox").
 * - A store failure is retryable; a parameter the decider refuses (USER_MESSAGE.INVALID) is not.
 */
export type UserMessageBoxTargetDeps = { eventStore: EventStore; clock: Clock };

type Recipient = { ok: true; userId: string } | { ok: false; error: string };

function recipientOf(request: DeliveryRequest): Recipient {
  const raw = request.params.USER_ID;
  if (raw === undefined || raw === null || raw === '') {
    const subject = request.publisher?.subject;
    if (typeof subject === 'string' && subject !== '') return { ok: true, userId: subject };
    return { ok: false, error: 'USER_ID: no recipient (no USER_ID parameter, and the publisher is not known)' };
  }
  const values = Array.isArray(raw) ? raw : [raw];
  if (values.length !== 1)
    return { ok: false, error: `USER_ID: one user per message, the parameter gave ${values.length} values` };
  const v = values[0];
  if (typeof v === 'string' && v.trim() !== '') return { ok: true, userId: v.trim() };
  if (typeof v === 'number' && Number.isFinite(v)) return { ok: true, userId: String(v) };
  return { ok: false, error: `USER_ID: not a user id: ${JSON.stringify(v)?.slice(0, 100)}` };
}

/** A CONSTANT attribute as a string (undefined when absent). */
const attribute = (v: unknown): string | undefined =>
  v === undefined || v === null || v === '' ? undefined : typeof v === 'string' ? v : JSON.stringify(v);

export function createUserMessageBoxTarget({ eventStore, clock }: UserMessageBoxTargetDeps): TargetAdapter {
  const handle = commandHandler(eventStore, userMessageDecider);

  return {
    typeId: TARGET_TYPES.userMessageBox,
    async deliver(request): Promise<DeliveryOutcome> {
      const to = recipientOf(request);
      if (!to.ok) return { ok: false, retryable: false, error: to.error };
      if (request.params.BODY === undefined) return { ok: false, retryable: false, error: 'BODY: no body' };
      if (request.signal.aborted) return { ok: false, retryable: true, error: 'timed out before writing the message' };
      const p = request.params;
      const messageType = attribute(p.MESSAGE_TYPE);
      const messageLevel = attribute(p.MESSAGE_LEVEL);
      const productLine = attribute(p.PRODUCT_LINE);
      const messageCategory = attribute(p.MESSAGE_CATEGORY);
      const now = clock.now().toISOString();
      try {
        const r = await handle({
          stream: userMessageStream(request.tenant, request.deliveryId),
          command: {
            type: 'DeliverUserMessage',
            data: {
              tenant: request.tenant,
              messageId: request.deliveryId,
              userId: to.userId,
              ...(messageType !== undefined && { messageType }),
              ...(messageLevel !== undefined && { messageLevel }),
              ...(productLine !== undefined && { productLine }),
              ...(messageCategory !== undefined && { messageCategory }),
              body: p.BODY,
              origin: {
                ruleId: request.ruleId,
                ruleTenant: request.ruleTenant,
                eventId: request.event.id,
                source: request.event.source,
                type: request.event.type,
              },
            },
            now,
          },
          // one command per delivery: a redelivery is recognised whichever attempt makes it
          commandId: `userMessage/${request.deliveryId}`,
          now,
          context: { tenant: request.tenant, actor: 'system:bridge-delivery', causationId: request.attemptId },
        });
        const fresh = !r.replayed && r.events.length > 0;
        return { ok: true, detail: fresh ? `in the inbox of ${to.userId}` : `already in the inbox of ${to.userId}` };
      } catch (err) {
        if (isDomainError(err) && err.status < 500 && err.status !== 409)
          return { ok: false, retryable: false, error: err.message };
        return {
          ok: false,
          retryable: true,
          error: `inbox: ${err instanceof Error ? err.message : String(err)}`.slice(0, 500),
        };
      }
    },
  };
}
