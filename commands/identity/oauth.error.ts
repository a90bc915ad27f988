import type { OAuthErrorCode } from './identity.contracts.ts';

/**
 * An OAuth 2.0 / OIDC error (RFC 6749 5.2, RFC 6750 3.1). It renders itself (`toResponse`, see
 * http/core/errors.ts): the error middleware sends `{ error, error_description }` untouched, with the
 * status and headers chosen here.
 */
export class OAuthError extends Error {
  readonly code: OAuthErrorCode;
  readonly description: string;
  readonly status: number;
  readonly headers: Record<string, string>;

  constructor(
    code: OAuthErrorCode,
    description: string,
    options: { status?: number; headers?: Record<string, string>; cause?: unknown } = {},
  ) {
    super(`${code}: ${description}`, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'OAuthError';
    this.code = code;
    this.description = description;
    this.status = options.status ?? defaultStatus(code);
    this.headers = options.headers ?? {};
  }

  toResponse(): {
    status: number;
    body: { error: OAuthErrorCode; error_description: string };
    headers: Record<string, string>;
  } {
    return {
      status: this.status,
      body: { error: this.code, error_description: this.description },
      headers: { 'Cache-Control': 'no-store', ...this.headers },
    };
  }
}

export const isOAuthError = (e: unknown): e is OAuthError => e instanceof OAuthError;

function defaultStatus(code: OAuthErrorCode): number {
  switch (code) {
    case 'invalid_client':
    case 'invalid_token':
      return 401;
    case 'access_denied':
      return 403;
    case 'server_error':
      return 500;
    default:
      return 400;
  }
}

/**
 * error_description is a quoted-string in WWW-Authenticate (RFC 6750 3): only %x20-21 / %x23-5B / %x5D-7E.
 * Anything else (quotes, backslashes, control or non-ASCII characters) becomes a space.
 */
export const headerSafe = (text: string): string => text.replace(/[^\x20\x21\x23-\x5b\x5d-\x7e]/g, ' ').slice(0, 200);
