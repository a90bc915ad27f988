import { one } from './authorization-request.ts';
import { RedirectError, repeatedParam } from './authorize.errors.ts';
import { type FlowContext, fromEarlierStep } from './flow.context.ts';

/** The code flow only, for a client registered for the authorization_code grant. */
export function checkResponseType(ctx: FlowContext): void {
  const client = fromEarlierStep(ctx.client, 'client');
  const type = one(ctx.params, 'response_type', repeatedParam);
  if (type === undefined) throw new RedirectError('invalid_request', 'response_type is required');
  if (type !== 'code') throw new RedirectError('unsupported_response_type', 'only response_type=code is supported');
  if (!client.grantTypes.includes('authorization_code')) {
    throw new RedirectError('unauthorized_client', 'the client is not registered for the authorization_code grant');
  }
}
