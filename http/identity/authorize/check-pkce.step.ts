import { isValidCodeChallenge, resolvePkceMethod } from '../../../domain/identity/pkce.ts';
import { one } from './authorization-request.ts';
import { RedirectError, repeatedParam } from './authorize.errors.ts';
import { type FlowContext, fromEarlierStep } from './flow.context.ts';

/** PKCE: required of public clients; S256 unless the client is allowed plain. */
export function checkPkce(ctx: FlowContext): void {
  const client = fromEarlierStep(ctx.client, 'client');
  const challenge = one(ctx.params, 'code_challenge', repeatedParam);
  const method = one(ctx.params, 'code_challenge_method', repeatedParam);
  if (challenge === undefined) {
    if (method !== undefined)
      throw new RedirectError('invalid_request', 'code_challenge_method without code_challenge');
    if (client.authMethod === 'none') {
      throw new RedirectError('invalid_request', 'PKCE is required for public clients: send code_challenge (S256)');
    }
    return;
  }
  const resolved = resolvePkceMethod(method, client.allowPlainPkce);
  if (!resolved.ok) throw new RedirectError('invalid_request', resolved.reason);
  if (!isValidCodeChallenge(challenge))
    throw new RedirectError('invalid_request', 'code_challenge must be 43-128 characters of A-Z a-z 0-9 - . _ ~');
  ctx.request.codeChallenge = challenge;
  ctx.request.method = resolved.method;
}
