import { one } from './authorization-request.ts';
import { badRequestPage, repeatedPage } from './authorize.errors.ts';
import type { FlowContext, FlowEnv } from './flow.context.ts';

/** client_id names an active client. Problems are error pages: nothing is known to redirect to yet. */
export async function checkClient(ctx: FlowContext, env: Pick<FlowEnv, 'directory'>): Promise<void> {
  const clientId = one(ctx.params, 'client_id', repeatedPage);
  if (clientId === undefined) throw badRequestPage('The request has no client_id.');
  const client = clientId.length <= 200 ? await env.directory.getClient(clientId) : null;
  if (client?.status !== 'active') throw badRequestPage('The application (client_id) is unknown.');
  ctx.client = client;
  ctx.request.clientId = clientId;
}
