/*
 * The two ways a browser flow fails. Until client_id and redirect_uri are known good, every problem is a
 * page of ours (never a redirect: an open redirector would hand codes or errors to anyone); after that,
 * problems go back to the client by redirect with `error` and `state` (RFC 6749 4.1.2.1).
 */

/** A problem shown on a page of ours: the redirect target is unknown or untrusted. */
export class PageError extends Error {
  constructor(
    readonly status: number,
    readonly title: string,
    message: string,
  ) {
    super(message);
  }
}

/** A problem reported to the client by redirect (flow.runner.ts sends it once redirect_uri is checked). */
export class RedirectError extends Error {
  constructor(
    readonly error: string,
    readonly description: string,
  ) {
    super(description);
  }
}

export const badRequestPage = (message: string) => new PageError(400, 'Sign-in request rejected', message);

/** a repeated parameter before redirect_uri is checked */
export const repeatedPage = (name: string) => badRequestPage(`The parameter ${name} was given more than once.`);

/** a repeated parameter once redirect_uri is checked */
export const repeatedParam = (name: string) => new RedirectError('invalid_request', `${name} must be given once`);
