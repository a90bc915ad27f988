import { OIDC_SCOPES } from '../../../domain/identity/identity.scopes.ts';
import { one } from './authorization-request.ts';
import { RedirectError, repeatedParam } from './authorize.errors.ts';
import { type FlowContext, fromEarlierStep } from './flow.context.ts';

/** Every requested scope is an OpenID Connect scope or one the client registered (none unknown, at least one). */
export function checkScope(ctx: FlowContext): void {
  const client = fromEarlierStep(ctx.client, 'client');
  const scope = one(ctx.params, 'scope', repeatedParam);
  if (scope === undefined) throw new RedirectError('invalid_request', 'scope is required');
  const scopes = [...new Set(scope.split(' ').filter((s) => s !== ''))];
  const allowed = new Set<string>([...OIDC_SCOPES, ...client.scopes]);
  const unknown = scopes.filter((s) => !allowed.has(s));
  if (scopes.length === 0 || unknown.length > 0) {
    throw new RedirectError('invalid_scope', `scope not allowed for this client: ${unknown.join(' ') || '(empty)'}`);
  }
  ctx.request.scopes = scopes;
}
