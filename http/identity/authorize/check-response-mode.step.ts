import { one } from './authorization-request.ts';
import { RedirectError, repeatedParam } from './authorize.errors.ts';
import type { FlowContext } from './flow.context.ts';

/** The answer goes in the query of the redirect: no other response_mode. */
export function checkResponseMode(ctx: FlowContext): void {
  const mode = one(ctx.params, 'response_mode', repeatedParam);
  if (mode !== undefined && mode !== 'query')
    throw new RedirectError('invalid_request', 'only response_mode=query is supported');
}
