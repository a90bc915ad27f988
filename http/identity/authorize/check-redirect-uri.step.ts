import { one } from './authorization-request.ts';
import { badRequestPage, repeatedPage } from './authorize.errors.ts';
import { type FlowContext, fromEarlierStep } from './flow.context.ts';

/**
 * redirect_uri is one the client registered (exact string comparison: no prefix, no normalisation).
 * From here on errors go back to the client by redirect, with its state when it sent a usable one.
 */
export function checkRedirectUri(ctx: FlowContext): void {
  const client = fromEarlierStep(ctx.client, 'client');
  const uri = one(ctx.params, 'redirect_uri', repeatedPage);
  if (uri === undefined) throw badRequestPage('The request has no redirect_uri.');
  if (!client.redirectUris.includes(uri)) {
    throw badRequestPage('The redirect_uri is not registered for this application.');
  }
  ctx.request.redirectUri = uri;
  const state = ctx.params.state;
  if (typeof state === 'string' && state !== '' && state.length <= 2048) ctx.request.state = state;
}
