import { one } from './authorization-request.ts';
import { RedirectError, repeatedParam } from './authorize.errors.ts';
import type { FlowContext } from './flow.context.ts';

/** prompt: a space-separated list; `none` (answer without any page) stands alone. */
export function checkPrompt(ctx: FlowContext): void {
  const prompt = (one(ctx.params, 'prompt', repeatedParam) ?? '').split(' ').filter((p) => p !== '');
  if (prompt.includes('none') && prompt.length > 1)
    throw new RedirectError('invalid_request', 'prompt=none cannot be combined');
  ctx.request.prompt = prompt;
}
