import { RedirectError } from './authorize.errors.ts';
import type { FlowContext } from './flow.context.ts';

/** Request objects (by value or by reference) are not supported: say so rather than ignore them. */
export function rejectUnsupported(ctx: FlowContext): void {
  if (ctx.params.request !== undefined)
    throw new RedirectError('request_not_supported', 'request objects are not supported');
  if (ctx.params.request_uri !== undefined)
    throw new RedirectError('request_uri_not_supported', 'request_uri is not supported');
}
