import { Router } from 'express';
import type { Receipts } from '../../commands/hub/receipts.commands.ts';
import type { RouteRegistry } from '../core/route-registry.ts';
import { CALLBACK_ID_HEADER, RECEIPT_PATH } from './hub.paths.ts';
import { callbackHeaders, receiptBody } from './hub.schemas.ts';

/**
 * `POST /comm/v1/callbacks/receipt` (spec "Endpoints"): header `X-Comm-Callback-Id` (the CallbackId of
 * the outbound request), body `{Status: ACCEPTED | DELIVERED | FAILED, ProviderRef?, Retryable?}`.
 * 200 `{Applied, MessageId, State, Ignored?}`: a receipt fenced out (superseded attempt, duplicate, late,
 * outranked) is answered 200 with `Applied: false` and the reason (it is recorded in the message timeline;
 * resending it does not help). 404 RECEIPT.UNKNOWN_CALLBACK when the id names no attempt.
 *
 * No bearer token: the CallbackId is the credential (unguessable, given to the receiver of that one
 * attempt, and valid for it only), so a receiver needs no client of its own to report.
 */
export function createReceiptsRouter(deps: { receipts: Receipts; registry: RouteRegistry }): Router {
  const router = Router();
  deps.registry.route(
    router,
    {
      method: 'post',
      path: RECEIPT_PATH,
      summary: 'a receiver reports evidence for the attempt its X-Comm-Callback-Id names',
      schemas: {
        headers: callbackHeaders,
        body: receiptBody,
        response: {
          type: 'object',
          properties: {
            Applied: { type: 'boolean' },
            MessageId: { type: 'string' },
            State: { type: 'string' },
            Ignored: { type: 'string' },
          },
        },
      },
      tags: ['hub receipts'],
    },
    async (req, res) => {
      const b = req.body as { Status: 'ACCEPTED' | 'DELIVERED' | 'FAILED'; ProviderRef?: string; Retryable?: boolean };
      res.json(await deps.receipts.apply({ CallbackId: String(req.headers[CALLBACK_ID_HEADER]), ...b }));
    },
  );
  return router;
}
