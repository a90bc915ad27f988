import { readCookies, SESSION_COOKIE } from '../login-form.ts';
import type { FlowContext, FlowEnv } from './flow.context.ts';

/** The browser's signed-in session, if its cookie names a live one. */
export async function loadSession(ctx: FlowContext, env: Pick<FlowEnv, 'sessions'>): Promise<void> {
  ctx.session = await env.sessions.get(readCookies(ctx.req)[SESSION_COOKIE]);
}
