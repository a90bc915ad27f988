import type { Request, Response } from 'express';
import type { Directory, TokenService } from '../../../commands/identity/identity.contracts.ts';
import type { Sessions } from '../../../commands/identity/sessions.commands.ts';
import { isStoreUnavailable } from '../../../infra/core/store-errors.ts';
import { commandMetadata } from '../../core/request-context.ts';
import { cookie, readCookies, SESSION_COOKIE } from '../login-form.ts';
import { sendPage, signedOutPage } from '../pages.ts';
import { one, paramsOf } from './authorization-request.ts';
import { PageError, repeatedPage } from './authorize.errors.ts';

export type LogoutDeps = {
  directory: Pick<Directory, 'getClient'>;
  sessions: Pick<Sessions, 'get' | 'end'>;
  tokens: Pick<TokenService, 'verifyIdTokenHint'>;
  secureCookies: boolean;
};

const signOutRejected = (message: string) => new PageError(400, 'Sign-out request rejected', message);

/**
 * `GET|POST /cas/oidc/logout`, RP-initiated logout: ends the browser's session, then redirects to a
 * post_logout_redirect_uri the client registered (named by client_id or by the id_token_hint's audience),
 * or shows the signed-out page. Every problem is an error page: nothing here is trusted to redirect to
 * until the client and the URI are checked.
 */
export const createLogoutHandler =
  (deps: LogoutDeps) =>
  async (req: Request, res: Response): Promise<void> => {
    const params = paramsOf(req);
    const hint = one(params, 'id_token_hint', repeatedPage);
    let clientId = one(params, 'client_id', repeatedPage);
    const target = one(params, 'post_logout_redirect_uri', repeatedPage);
    const state = one(params, 'state', repeatedPage);

    if (hint !== undefined) {
      let claims;
      try {
        claims = await deps.tokens.verifyIdTokenHint(hint);
      } catch (err) {
        if (isStoreUnavailable(err)) throw err;
        throw signOutRejected('The id_token_hint is not a valid ID token of this provider.');
      }
      if (clientId !== undefined && !claims.aud.includes(clientId))
        throw signOutRejected('The id_token_hint was not issued to this client_id.');
      if (clientId === undefined && claims.aud.length === 1) clientId = claims.aud[0];
    }
    let redirect: string | undefined;
    if (target !== undefined) {
      if (clientId === undefined) throw signOutRejected('post_logout_redirect_uri needs client_id or id_token_hint.');
      const client = await deps.directory.getClient(clientId);
      if (client?.status !== 'active') throw signOutRejected('The application (client_id) is unknown.');
      if (!client.postLogoutRedirectUris.includes(target)) {
        throw signOutRejected('The post_logout_redirect_uri is not registered for this application.');
      }
      redirect = target;
    }

    const cookieValue = readCookies(req)[SESSION_COOKIE];
    const session = await deps.sessions.get(cookieValue);
    await deps.sessions.end(
      cookieValue,
      commandMetadata(req, { tenant: session?.tenant ?? 'platform', ...(session && { actor: session.userId }) }),
    );
    res.append('Set-Cookie', cookie(SESSION_COOKIE, '', { secure: deps.secureCookies, maxAgeSeconds: 0 }));

    if (redirect !== undefined) {
      const url = new URL(redirect);
      if (state !== undefined) url.searchParams.set('state', state);
      res.set({ 'Cache-Control': 'no-store', 'Referrer-Policy': 'no-referrer' }).redirect(302, url.href);
      return;
    }
    sendPage(res, 200, signedOutPage());
  };
