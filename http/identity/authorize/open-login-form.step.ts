import { type AuthorizationRequest, field } from './authorization-request.ts';
import { badRequestPage } from './authorize.errors.ts';
import type { FlowContext, FlowEnv } from './flow.context.ts';

/** The authorization request the form carries sealed: untouched and not expired. */
export function openLoginForm(ctx: FlowContext, env: Pick<FlowEnv, 'seal' | 'nowSeconds'>): void {
  const sealed = field(ctx.params, 'request');
  const opened = env.seal.unseal<AuthorizationRequest>(sealed, env.nowSeconds());
  if (!opened.ok) {
    throw opened.reason === 'expired'
      ? badRequestPage('This sign-in page has expired. Go back to the application and start again.')
      : badRequestPage('The sign-in request is invalid. Go back to the application and start again.');
  }
  // unseal opens strings only
  ctx.sealedRequest = sealed as string;
  ctx.request = opened.value;
}
