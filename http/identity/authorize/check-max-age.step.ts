import { one } from './authorization-request.ts';
import { RedirectError, repeatedParam } from './authorize.errors.ts';
import type { FlowContext } from './flow.context.ts';

/** max_age: the oldest sign-in, in seconds, the client accepts (loadAccount applies it). */
export function checkMaxAge(ctx: FlowContext): void {
  const maxAge = one(ctx.params, 'max_age', repeatedParam);
  if (maxAge === undefined) return;
  if (!/^\d{1,10}$/.test(maxAge)) throw new RedirectError('invalid_request', 'max_age must be a non-negative integer');
  ctx.request.maxAge = Number(maxAge);
}
