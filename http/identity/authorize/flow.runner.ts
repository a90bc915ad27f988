import { RedirectError } from './authorize.errors.ts';
import type { FlowContext, FlowEnv, Step } from './flow.context.ts';
import { redirectBack } from './redirect-back.ts';

/**
 * Runs the steps in order until one answers. A RedirectError goes back to the client (with its state)
 * once redirect_uri is checked; before that, and for every other error, the caller's page handler
 * answers with an error page.
 */
export async function runFlow(steps: readonly Step[], ctx: FlowContext, env: FlowEnv): Promise<void> {
  try {
    for (const step of steps) {
      if ((await step(ctx, env)) === 'answered') return;
    }
  } catch (err) {
    if (err instanceof RedirectError && ctx.request.redirectUri !== undefined) {
      return redirectBack(ctx.res, env.issuer, ctx.request.redirectUri, {
        error: err.error,
        error_description: err.description,
        state: ctx.request.state,
      });
    }
    throw err;
  }
  throw new Error(`browser flow: no step answered (last step: ${steps.at(-1)?.name ?? 'none'})`);
}
