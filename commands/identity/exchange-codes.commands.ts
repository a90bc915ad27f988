import { createHash, randomBytes } from 'node:crypto';
import { isDomainError } from '../../domain/core/domain-error.ts';
import {
  type ExchangeCodeIssuedData,
  exchangeCodeDecider,
  exchangeCodeStream,
} from '../../domain/identity/exchange-code.decider.ts';
import type { AccessContext, Client } from '../../domain/identity/model.ts';
import type { Clock } from '../../infra/core/clock.port.ts';
import type { EventStore } from '../../infra/core/event-store.port.ts';
import { type CommandContext, commandHandler } from '../core/command-handler.ts';
import { newCommandId } from '../core/event-id.ts';
import { OAuthError } from './oauth.error.ts';

/** What /cas/exchange-code/consume hands to the consuming service. */
export type ExchangedIdentity = {
  tenant: string;
  subject: string;
  clientId: string;
  scopes: string[];
  issuedAt: string;
};

export type ExchangeCodes = ReturnType<typeof createExchangeCodes>;

/**
 * One-time codes carrying a signed-in identity between internal services (/cas/exchange-code). The code
 * has 256 random bits; the log holds only its SHA-256 (the stream id). Consumption appends with the
 * expected revision: of two concurrent consumers exactly one wins, the other gets invalid_grant.
 */
export function createExchangeCodes(deps: { eventStore: EventStore; clock: Clock; ttlSeconds: number }) {
  const handle = commandHandler(deps.eventStore, exchangeCodeDecider);
  const codeIdOf = (code: string) => createHash('sha256').update(code, 'utf8').digest('base64url');

  return {
    /**
     * issues a code for the identity of a verified access token (the context is that identity's tenant and
     * subject); `audience` limits who may consume it
     */
    async issue(
      identity: AccessContext,
      options: { audience?: string },
      ctx: CommandContext,
    ): Promise<{ code: string; expiresIn: number; expiresAt: string }> {
      const code = randomBytes(32).toString('base64url');
      const codeId = codeIdOf(code);
      const now = deps.clock.now();
      const expiresAt = new Date(now.getTime() + deps.ttlSeconds * 1000).toISOString();
      const data: Omit<ExchangeCodeIssuedData, 'issuedAt'> = {
        codeId,
        tenant: identity.tenant,
        subject: identity.subject,
        clientId: identity.clientId,
        scopes: identity.scopes,
        ...(options.audience !== undefined && { audience: options.audience }),
        sourceJti: identity.jti,
        expiresAt,
      };
      await handle({
        stream: exchangeCodeStream(codeId),
        command: { type: 'IssueExchangeCode', data: { ...data, now: now.toISOString() } },
        commandId: newCommandId(),
        now: now.toISOString(),
        context: ctx,
      });
      return { code, expiresIn: deps.ttlSeconds, expiresAt };
    },

    /**
     * spends the code for `consumer` (the context is the consumer's tenant and client); every refusal
     * (unknown, used, expired, not for this client) is invalid_grant
     */
    async consume(code: string, consumer: Client, ctx: CommandContext): Promise<ExchangedIdentity> {
      if (typeof code !== 'string' || code.length === 0 || code.length > 256)
        throw new OAuthError('invalid_request', 'code is required');
      const codeId = codeIdOf(code);
      const now = deps.clock.now().toISOString();
      try {
        const result = await handle({
          stream: exchangeCodeStream(codeId),
          command: {
            type: 'ConsumeExchangeCode',
            data: {
              codeId,
              consumer: { clientId: consumer.clientId, tenants: [consumer.tenant, ...consumer.allowedAccessTenants] },
              now,
            },
          },
          // fresh per call: two requests with one code are two commands, and the loser re-reads a spent code
          commandId: newCommandId(),
          now,
          context: ctx,
        });
        if (result.state.status !== 'consumed')
          throw new OAuthError('server_error', 'the exchange code could not be consumed');
        const c = result.state.code;
        return { tenant: c.tenant, subject: c.subject, clientId: c.clientId, scopes: c.scopes, issuedAt: c.issuedAt };
      } catch (err) {
        if (isDomainError(err) && err.code.startsWith('EXCHANGE_CODE.')) {
          throw new OAuthError('invalid_grant', err.message, { cause: err });
        }
        if (isDomainError(err) && err.code === 'CONCURRENCY.CONFLICT')
          throw new OAuthError('invalid_grant', 'the exchange code was used already');
        throw err;
      }
    },
  };
}
