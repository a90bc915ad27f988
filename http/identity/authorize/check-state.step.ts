import { one } from './authorization-request.ts';
import { RedirectError, repeatedParam } from './authorize.errors.ts';
import type { FlowContext } from './flow.context.ts';

/** The spec makes state required: without it the client cannot tie the answer to its request. */
export function checkState(ctx: FlowContext): void {
  const state = one(ctx.params, 'state', repeatedParam);
  if (state === undefined) throw new RedirectError('invalid_request', 'state is required');
  if (state.length > 2048) throw new RedirectError('invalid_request', 'state is too long');
}
