import { assertNever, type Decider } from '../core/decider.ts';
import { type IdentityErrorCode, identityError } from './identity.errors.ts';
import { PLATFORM_TENANT } from './model.ts';
import { type PkceMethod, type PkceProof, pkceMatches } from './pkce.ts';

/**
 * Authorization codes as aggregates: `authCode-platform.<sha256 of the code>`. The code itself never enters
 * the log, only its hash. Single use is enforced by the log: `CodeRedeemed` is appended with the expected
 * revision, so of two concurrent redemptions one appends and the other re-reads a redeemed code.
 */
export const CODE_CATEGORY = 'authCode';
export const codeStream = (codeId: string): string => `${CODE_CATEGORY}-${PLATFORM_TENANT}.${codeId}`;

export type CodeIssuedData = {
  codeId: string;
  clientId: string;
  tenant: string;
  redirectUri: string;
  userId: string;
  scopes: string[];
  nonce?: string;
  codeChallenge?: string;
  method?: PkceMethod;
  /** unix seconds of the user's authentication */
  authTime: number;
  sessionId?: string;
  /** ISO instant */
  expiresAt: string;
};

export type CodeEvent =
  | { type: 'CodeIssued'; data: CodeIssuedData }
  | { type: 'CodeRedeemed'; data: { codeId: string; grantId: string; redeemedAt: string } }
  /** a second redemption: the caller revokes every token issued from the code and answers invalid_grant */
  | { type: 'CodeReuseDetected'; data: { codeId: string; clientId: string; detectedAt: string } };

export type CodeCommand =
  | { type: 'IssueCode'; data: CodeIssuedData }
  | {
      type: 'RedeemCode';
      data: {
        codeId: string;
        clientId: string;
        /** as sent to the token endpoint (undefined when absent) */
        redirectUri: string | undefined;
        /** absent when no code_verifier was sent */
        pkce: PkceProof | undefined;
        grantId: string;
        now: string;
      };
    };

export type CodeState =
  | { status: 'none' }
  | { status: 'issued'; code: CodeIssuedData }
  | { status: 'redeemed'; code: CodeIssuedData; grantId: string };

/** Every refusal is invalid_grant at the token endpoint; the codes name the reason for logs and tests. */
const refuse = (code: IdentityErrorCode, message: string) => identityError(code, message);

export const codeDecider: Decider<CodeCommand, CodeEvent, CodeState> = {
  initialState: () => ({ status: 'none' }),

  evolve(state, event) {
    switch (event.type) {
      case 'CodeIssued':
        return { status: 'issued', code: event.data };
      case 'CodeRedeemed':
        return state.status === 'none' ? state : { status: 'redeemed', code: state.code, grantId: event.data.grantId };
      case 'CodeReuseDetected':
        return state;
      default:
        return assertNever(event);
    }
  },

  decide(command, state) {
    switch (command.type) {
      case 'IssueCode':
        if (state.status !== 'none') throw identityError('CODE.ALREADY_ISSUED', 'this code was issued before');
        return [{ type: 'CodeIssued', data: command.data }];

      case 'RedeemCode': {
        const c = command.data;
        if (state.status === 'none') throw refuse('CODE.NOT_FOUND', 'unknown authorization code');
        const code = state.code;
        // A code presented by another client is not a reuse by its owner: refuse without revoking anything
        // (otherwise anyone holding a leaked code could revoke the rightful client's tokens).
        if (code.clientId !== c.clientId) throw refuse('CODE.CLIENT_MISMATCH', 'the code was issued to another client');
        if (state.status === 'redeemed') {
          return [
            { type: 'CodeReuseDetected', data: { codeId: code.codeId, clientId: c.clientId, detectedAt: c.now } },
          ];
        }
        if (Date.parse(c.now) >= Date.parse(code.expiresAt))
          throw refuse('CODE.EXPIRED', 'the authorization code has expired');
        if (c.redirectUri !== code.redirectUri) {
          throw refuse('CODE.REDIRECT_URI_MISMATCH', 'redirect_uri differs from the one of the authorization request');
        }
        if (code.codeChallenge !== undefined) {
          if (c.pkce === undefined) throw refuse('CODE.PKCE_REQUIRED', 'code_verifier is required');
          if (!pkceMatches(code.method ?? 'S256', code.codeChallenge, c.pkce)) {
            throw refuse('CODE.PKCE_FAILED', 'PKCE verification failed');
          }
        } else if (c.pkce !== undefined) {
          // RFC 9700 4.8.2: a verifier for a code issued without a challenge is a downgrade attempt.
          throw refuse('CODE.PKCE_UNEXPECTED', 'code_verifier sent for a code issued without code_challenge');
        }
        return [{ type: 'CodeRedeemed', data: { codeId: code.codeId, grantId: c.grantId, redeemedAt: c.now } }];
      }
      default:
        return assertNever(command);
    }
  },
};
