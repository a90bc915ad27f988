import { clientDecider } from '../../domain/identity/client.decider.ts';
import { CODE_CATEGORY, codeDecider } from '../../domain/identity/code.decider.ts';
import { EXCHANGE_CODE_CATEGORY, exchangeCodeDecider } from '../../domain/identity/exchange-code.decider.ts';
import { GRANT_CATEGORY, grantDecider } from '../../domain/identity/grant.decider.ts';
import { SESSION_CATEGORY, sessionDecider } from '../../domain/identity/session.decider.ts';
import { SIGNING_KEY_CATEGORY, signingKeyDecider } from '../../domain/identity/signing-key.decider.ts';
import { tenantDecider } from '../../domain/identity/tenant.decider.ts';
import { userDecider } from '../../domain/identity/user.decider.ts';
import { usernameDecider } from '../../domain/identity/username.decider.ts';
import { type DeciderRegistry, deciderEntry as entry } from '../platform-service.ts';

/** The identity provider's deciders by stream category (`platform replay --state`). */
export const identityDeciders = (): DeciderRegistry => ({
  tenant: entry(tenantDecider),
  user: entry(userDecider),
  username: entry(usernameDecider),
  client: entry(clientDecider),
  [CODE_CATEGORY]: entry(codeDecider),
  [SESSION_CATEGORY]: entry(sessionDecider),
  [GRANT_CATEGORY]: entry(grantDecider),
  [SIGNING_KEY_CATEGORY]: entry(signingKeyDecider),
  [EXCHANGE_CODE_CATEGORY]: entry(exchangeCodeDecider),
});
