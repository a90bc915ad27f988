import { CORE_ERRORS } from '../../domain/core/core.errors.ts';

type AuthCode = Extract<keyof typeof CORE_ERRORS, `AUTH.${string}`>;

/**
 * A 401/403/400 of bearer authentication with its RFC 6750 challenge (`WWW-Authenticate`); sent untouched
 * by the error middleware (http/core/errors.ts). The status is the core catalog's for the code.
 */
export class BearerChallenge extends Error {
  readonly status: number;

  constructor(
    readonly code: AuthCode,
    message: string,
    readonly challenge: string | undefined,
    readonly details: unknown = null,
  ) {
    super(message);
    this.name = 'BearerChallenge';
    this.status = CORE_ERRORS[code];
  }

  toResponse() {
    return {
      status: this.status,
      body: { code: this.code, message: this.message, details: this.details },
      headers: this.challenge === undefined ? {} : { 'WWW-Authenticate': this.challenge },
    };
  }
}

/** error_description and scope are quoted-strings: no `"` or `\` and only visible ASCII (RFC 6750 3). */
export const quoted = (s: string) => s.replace(/[^\x20\x21\x23-\x5b\x5d-\x7e]/g, ' ').slice(0, 200);
