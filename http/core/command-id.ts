import type { Request } from 'express';
import { newCommandId } from '../../commands/core/event-id.ts';
import { coreError } from '../../domain/core/core.errors.ts';

const SANE = /^[A-Za-z0-9._:@+=/-]{1,128}$/;

/**
 * The command id of a write request: the client's `Idempotency-Key` header when it sends one (a retried
 * request then appends nothing twice), else a fresh time-ordered one (newCommandId).
 */
export function commandIdFrom(req: Request): string {
  const key = req.get('idempotency-key');
  if (key === undefined) return newCommandId();
  if (!SANE.test(key)) {
    throw coreError('REQUEST.INVALID', 'Idempotency-Key must be 1-128 characters of A-Z a-z 0-9 . _ : @ + = / -', [
      {
        in: 'headers',
        field: 'idempotency-key',
        message: 'must be a token of at most 128 characters',
        keyword: 'pattern',
      },
    ]);
  }
  return key;
}
