import { createHash, randomBytes } from 'node:crypto';
import { isDomainError } from '../../domain/core/domain-error.ts';
import { type CodeIssuedData, codeDecider, codeStream } from '../../domain/identity/code.decider.ts';
import type { PkceMethod } from '../../domain/identity/pkce.ts';
import type { Clock } from '../../infra/core/clock.port.ts';
import type { EventStore } from '../../infra/core/event-store.port.ts';
import { type CommandContext, commandHandler } from '../core/command-handler.ts';
import { newCommandId } from '../core/event-id.ts';
import { grantIdForCode } from './grants/grant.ids.ts';
import type { TokenService } from './identity.contracts.ts';
import { OAuthError } from './oauth.error.ts';

/** The code's stream id: its SHA-256, so the log never holds a redeemable code. */
export const codeIdOf = (code: string): string => createHash('sha256').update(code, 'utf8').digest('hex');

/** base64url(SHA-256(ASCII(verifier))), RFC 7636 4.2. */
export const s256 = (verifier: string): string => createHash('sha256').update(verifier, 'ascii').digest('base64url');

/** The code is the context's tenant's (the client's); the context's actor is the signed-in user. */
export type IssueCodeInput = {
  clientId: string;
  redirectUri: string;
  userId: string;
  scopes: string[];
  nonce?: string;
  codeChallenge?: string;
  method?: PkceMethod;
  authTime: number;
  sessionId?: string;
};

export type RedeemCodeInput = {
  code: string;
  clientId: string;
  redirectUri: string | undefined;
  codeVerifier: string | undefined;
  context?: Partial<CommandContext>;
};

export type RedeemedCode = { codeId: string; grantId: string; issued: CodeIssuedData };

export type Codes = ReturnType<typeof createCodes>;

/**
 * Authorization codes: 256 bits of randomness, single use, valid `ttlSeconds`. A second redemption revokes
 * every token issued from the code (RFC 6749 4.1.2) and answers invalid_grant. The grant of a code has an
 * id derived from the code (grantIdForCode), and revokeByCode revokes it even before it is started, so a
 * reuse racing the first redemption's token issue still ends with the tokens refused.
 */
export function createCodes(deps: {
  eventStore: EventStore;
  clock: Clock;
  ttlSeconds: number;
  tokens: Pick<TokenService, 'revokeByCode'>;
}) {
  const handle = commandHandler(deps.eventStore, codeDecider);

  const reuseDetected = async (codeId: string): Promise<never> => {
    await deps.tokens.revokeByCode(codeId, 'authorization code reused');
    throw new OAuthError('invalid_grant', 'authorization code already used; the tokens issued from it are revoked');
  };

  return {
    async issue(
      input: IssueCodeInput,
      ctx: CommandContext,
    ): Promise<{ code: string; codeId: string; expiresAt: string }> {
      const code = randomBytes(32).toString('base64url');
      const codeId = codeIdOf(code);
      const now = deps.clock.now();
      const expiresAt = new Date(now.getTime() + deps.ttlSeconds * 1000).toISOString();
      const data: CodeIssuedData = {
        codeId,
        clientId: input.clientId,
        tenant: ctx.tenant,
        redirectUri: input.redirectUri,
        userId: input.userId,
        scopes: input.scopes,
        ...(input.nonce !== undefined && { nonce: input.nonce }),
        ...(input.codeChallenge !== undefined && {
          codeChallenge: input.codeChallenge,
          method: input.method ?? 'S256',
        }),
        authTime: input.authTime,
        ...(input.sessionId !== undefined && { sessionId: input.sessionId }),
        expiresAt,
      };
      await handle({
        stream: codeStream(codeId),
        command: { type: 'IssueCode', data },
        commandId: newCommandId(),
        now: now.toISOString(),
        context: ctx,
      });
      return { code, codeId, expiresAt };
    },

    /**
     * Spends the code. Every refusal is invalid_grant (the reason goes into error_description only in
     * general terms). The command id is fresh per call: two requests presenting one code are two commands,
     * and the second one re-reads the redeemed code after its append conflicts.
     */
    async redeem(input: RedeemCodeInput): Promise<RedeemedCode> {
      if (typeof input.code !== 'string' || input.code.length === 0 || input.code.length > 512) {
        throw new OAuthError('invalid_request', 'code is required');
      }
      const codeId = codeIdOf(input.code);
      // the grant's id is fixed by the code (grants/grant.ids.ts): a reuse revokes it even before it exists
      const grantId = grantIdForCode(codeId);
      const pkce =
        input.codeVerifier === undefined
          ? undefined
          : { verifier: input.codeVerifier, verifierS256: s256(input.codeVerifier) };
      let result;
      try {
        result = await handle({
          stream: codeStream(codeId),
          command: {
            type: 'RedeemCode',
            data: {
              codeId,
              clientId: input.clientId,
              redirectUri: input.redirectUri,
              pkce,
              grantId,
              now: deps.clock.now().toISOString(),
            },
          },
          commandId: newCommandId(),
          now: deps.clock.now().toISOString(),
          context: { tenant: 'platform', ...input.context, actor: input.clientId },
        });
      } catch (err) {
        if (isDomainError(err) && err.code.startsWith('CODE.'))
          throw new OAuthError('invalid_grant', describe(err.code), { cause: err });
        throw err;
      }
      if (result.events.some((e) => e.type === 'CodeReuseDetected')) return reuseDetected(codeId);
      if (result.state.status !== 'redeemed') throw new OAuthError('server_error', 'the code could not be redeemed');
      return { codeId, grantId, issued: result.state.code };
    },
  };
}

function describe(code: string): string {
  switch (code) {
    case 'CODE.EXPIRED':
      return 'authorization code expired';
    case 'CODE.REDIRECT_URI_MISMATCH':
      return 'redirect_uri does not match the authorization request';
    case 'CODE.PKCE_REQUIRED':
      return 'code_verifier is required';
    case 'CODE.PKCE_FAILED':
    case 'CODE.PKCE_UNEXPECTED':
      return 'PKCE verification failed';
    default:
      return 'invalid authorization code';
  }
}
