import { PLATFORM_TENANT } from '../../../domain/identity/model.ts';
import type { GrantHandler } from './grant.handler.ts';
import { grantIdForCode } from './grant.ids.ts';

/**
 * What the authorization_code grant adds to a started grant (grant.starter.ts issues its tokens, with the
 * grant id derived from the code): a code redeemed twice revokes everything issued from it. The revocation
 * is written even when the first redemption's grant does not exist yet (a tombstone): that redemption,
 * still issuing, then fails instead of handing out tokens.
 */
export function createAuthorizationCodeRevocation(deps: { grants: GrantHandler }) {
  return async function revokeByCode(codeId: string, reason: string): Promise<void> {
    const grantId = grantIdForCode(codeId);
    const grant = await deps.grants.load(grantId);
    await deps.grants.revokeGrant(grantId, reason, grant.grant?.tenant ?? PLATFORM_TENANT, true);
  };
}
