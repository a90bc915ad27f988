import type { AuthorizationRequest } from './authorization-request.ts';
import { badRequestPage } from './authorize.errors.ts';
import type { FlowContext, FlowEnv } from './flow.context.ts';

/** The client may have been disabled, or its redirect URI removed, since the form was shown. */
export async function recheckClient(ctx: FlowContext, env: Pick<FlowEnv, 'directory'>): Promise<void> {
  const request = ctx.request as AuthorizationRequest;
  const client = await env.directory.getClient(request.clientId);
  if (client?.status !== 'active' || !client.redirectUris.includes(request.redirectUri)) {
    throw badRequestPage('The application is no longer available.');
  }
  ctx.client = client;
}
