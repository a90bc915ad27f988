import { checkClient } from './check-client.step.ts';
import { checkMaxAge } from './check-max-age.step.ts';
import { checkNonce } from './check-nonce.step.ts';
import { checkPkce } from './check-pkce.step.ts';
import { checkPrompt } from './check-prompt.step.ts';
import { checkRedirectUri } from './check-redirect-uri.step.ts';
import { checkResponseMode } from './check-response-mode.step.ts';
import { checkResponseType } from './check-response-type.step.ts';
import { checkScope } from './check-scope.step.ts';
import { checkState } from './check-state.step.ts';
import type { Step } from './flow.context.ts';
import { interactions } from './interactions.step.ts';
import { loadAccount } from './load-account.step.ts';
import { loadSession } from './load-session.step.ts';
import { rejectUnsupported } from './reject-unsupported.step.ts';
import { respond } from './respond.step.ts';

/**
 * `GET|POST /cas/oidc/authorize`, in order. The order is behaviour: client and redirect_uri first (until
 * both are good every problem is an error page of ours), then the checks whose errors go back to the
 * client by redirect, then the session: a code for a signed-in user, or the login form.
 */
export const AUTHORIZATION_FLOW: readonly Step[] = [
  checkClient,
  checkRedirectUri,
  rejectUnsupported,
  checkResponseMode,
  checkResponseType,
  checkState,
  checkScope,
  checkNonce,
  checkPkce,
  checkPrompt,
  checkMaxAge,
  loadSession,
  loadAccount,
  interactions, // the login form, or login_required with prompt=none: the flow ends here
  respond, // the code, by redirect
];
