import { one } from './authorization-request.ts';
import { RedirectError, repeatedParam } from './authorize.errors.ts';
import type { FlowContext } from './flow.context.ts';

/** An optional nonce, carried into the ID token. */
export function checkNonce(ctx: FlowContext): void {
  const nonce = one(ctx.params, 'nonce', repeatedParam);
  if (nonce !== undefined && nonce.length > 512) throw new RedirectError('invalid_request', 'nonce is too long');
  if (nonce !== undefined) ctx.request.nonce = nonce;
}
