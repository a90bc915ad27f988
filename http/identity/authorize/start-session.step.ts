import { commandMetadata } from '../../core/request-context.ts';
import { cookie, LOGIN_COOKIE, readCookies, SESSION_COOKIE } from '../login-form.ts';
import { type FlowContext, type FlowEnv, fromEarlierStep } from './flow.context.ts';

/**
 * A fresh session for the signed-in user: any previous session of this browser ends (no session
 * fixation), the session cookie is set and the pre-login cookie cleared.
 */
export async function startSession(
  ctx: FlowContext,
  env: Pick<FlowEnv, 'sessions' | 'secureCookies' | 'sessionTtlSeconds' | 'nowSeconds'>,
): Promise<void> {
  const client = fromEarlierStep(ctx.client, 'client');
  const user = fromEarlierStep(ctx.user, 'user');
  const meta = commandMetadata(ctx.req, { tenant: client.tenant, actor: user.userId });
  await env.sessions.end(readCookies(ctx.req)[SESSION_COOKIE], meta);
  const { cookieValue, session } = await env.sessions.start({ userId: user.userId, authTime: env.nowSeconds() }, meta);
  ctx.res.append(
    'Set-Cookie',
    cookie(SESSION_COOKIE, cookieValue, { secure: env.secureCookies, maxAgeSeconds: env.sessionTtlSeconds }),
  );
  ctx.res.append('Set-Cookie', cookie(LOGIN_COOKIE, '', { secure: env.secureCookies, maxAgeSeconds: 0 }));
  ctx.session = session;
}
