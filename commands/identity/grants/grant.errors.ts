import { isDomainError } from '../../../domain/core/domain-error.ts';
import { OAuthError } from '../oauth.error.ts';

/** A grant decider's refusal as the token endpoint's error: invalid_scope or invalid_grant; others rethrown. */
export function oauthFromGrantError(err: unknown): never {
  if (isDomainError(err) && err.code.startsWith('GRANT.')) {
    if (err.code === 'GRANT.INVALID_SCOPE') throw new OAuthError('invalid_scope', err.message, { cause: err });
    throw new OAuthError('invalid_grant', err.message, { cause: err });
  }
  throw err;
}
