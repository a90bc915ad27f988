import { createHash } from 'node:crypto';
import { isDomainError } from '../../domain/core/domain-error.ts';
import { hubError } from '../../domain/hub/hub.errors.ts';
import { notificationDecider, notificationStream } from '../../domain/hub/notification.decider.ts';
import { parseCallbackId, type ReceiptStatus } from '../../domain/hub/notification.model.ts';
import type { Clock } from '../../infra/core/clock.port.ts';
import type { EventStore } from '../../infra/core/event-store.port.ts';
import { commandHandler } from '../core/command-handler.ts';

/**
 * `POST /comm/v1/callbacks/receipt` (spec "Endpoints"): the receiver reports evidence for an attempt,
 * naming it by `X-Comm-Callback-Id`. The CallbackId carries the tenant and the message (the stream is
 * found from it alone) and a random part: it is the capability that authorizes the receipt. The receipt is
 * fenced to the message's active attempt and ranked (a final DELIVERED or FAILED outranks ACCEPTED; a piece
 * of evidence never counts twice): late, duplicate, superseded or outranked receipts change nothing and are
 * recorded (ReceiptIgnored, in the message's timeline). The same receipt sent again (same status,
 * ProviderRef and Retryable) is one command: it is recorded once.
 */
export type ReceiptInput = { CallbackId: string; Status: ReceiptStatus; ProviderRef?: string; Retryable?: boolean };
export type ReceiptResult = { Applied: boolean; MessageId: string; State: string; Ignored?: string };

export function createReceipts({ eventStore, clock }: { eventStore: EventStore; clock: Clock }) {
  const handle = commandHandler(eventStore, notificationDecider);
  return {
    async apply(input: ReceiptInput): Promise<ReceiptResult> {
      const ref = parseCallbackId(input.CallbackId);
      if (ref === null) throw hubError('RECEIPT.UNKNOWN_CALLBACK', 'X-Comm-Callback-Id names no attempt');
      const at = clock.now().toISOString();
      const key = createHash('sha256')
        .update(JSON.stringify([input.CallbackId, input.Status, input.ProviderRef ?? null, input.Retryable ?? null]))
        .digest('hex');
      let r;
      try {
        r = await handle({
          stream: notificationStream(ref.tenant, ref.notificationId),
          command: {
            type: 'ApplyReceipt',
            CallbackId: input.CallbackId,
            MessageId: ref.messageId,
            Status: input.Status,
            ...(input.ProviderRef !== undefined && { ProviderRef: input.ProviderRef }),
            ...(input.Retryable !== undefined && { Retryable: input.Retryable }),
            now: at,
          },
          commandId: `receipt/${key}`,
          now: at,
          context: { tenant: ref.tenant, actor: 'receiver' },
        });
      } catch (err) {
        // a well-formed id for no notification or message is as unknown as a malformed one
        if (isDomainError(err) && (err.code === 'NOTIFICATION.NOT_FOUND' || err.code === 'MESSAGE.NOT_FOUND'))
          throw hubError('RECEIPT.UNKNOWN_CALLBACK', 'X-Comm-Callback-Id names no attempt');
        throw err;
      }
      if (r.state.status !== 'accepted')
        throw hubError('RECEIPT.UNKNOWN_CALLBACK', 'X-Comm-Callback-Id names no attempt');
      const m = r.state.messages[ref.messageId]!;
      const ignored = r.events.find((e) => e.type === 'ReceiptIgnored');
      return {
        Applied: ignored === undefined,
        MessageId: m.MessageId,
        State: m.State,
        ...(ignored !== undefined && { Ignored: (ignored.data as { Reason: string }).Reason }),
      };
    },
  };
}

export type Receipts = ReturnType<typeof createReceipts>;
