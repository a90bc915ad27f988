import type { Request, Response } from 'express';
import type { Logger } from 'pino';
import type { Codes } from '../../../commands/identity/authorization-codes.commands.ts';
import type { Directory } from '../../../commands/identity/identity.contracts.ts';
import type { LoginAttemptKeys, LoginLimiter } from '../../../commands/identity/login.limiter.ts';
import type { Sessions } from '../../../commands/identity/sessions.commands.ts';
import type { Client, User } from '../../../domain/identity/model.ts';
import type { SessionStartedData } from '../../../domain/identity/session.decider.ts';
import type { LoginFormSeal } from '../login-form.ts';
import type { AuthorizationRequest, Params } from './authorization-request.ts';

/*
 * A browser flow (authorization.flow.ts, login.flow.ts) is a list of small named steps run in order
 * (flow.runner.ts), as node-oidc-provider does. Each step reads what earlier steps put on the context,
 * adds its own, and either passes on (returns nothing), answers the browser (returns 'answered': the
 * flow ends there) or throws (authorize.errors.ts: an error page, or a redirect back with an error).
 */

/** What the steps of one request share. */
export type FlowContext = {
  readonly req: Request;
  readonly res: Response;
  /** the query of a GET, the form of a POST */
  readonly params: Params;
  /** the authorization request: filled in by the checks, or opened from the login form */
  request: Partial<AuthorizationRequest>;
  /** the client of the request, once checked */
  client?: Client;
  /** the signed-in session of the browser (null: none), or the one a login started */
  session?: SessionStartedData | null;
  /** the user a code is issued for (null: the session cannot serve this request) */
  user?: User | null;
  /** the login form's sealed request, as posted */
  sealedRequest?: string;
  /** the username and password as posted */
  credentials?: { username: string; password: string };
  /** the rate limiter's keys of this login attempt */
  loginAttempt?: LoginAttemptKeys;
};

/** What the steps may use; each step names the part it needs (`Pick<FlowEnv, …>`). */
export type FlowEnv = {
  directory: Directory;
  codes: Pick<Codes, 'issue'>;
  sessions: Pick<Sessions, 'get' | 'start' | 'end'>;
  limiter: Pick<LoginLimiter, 'check' | 'recordFailure' | 'recordSuccess'>;
  /** the issuer, sent as `iss` in authorization responses (RFC 9207) */
  issuer: string;
  /** seals the login form's request and makes its CSRF token */
  seal: LoginFormSeal;
  /** how long a login form may be submitted */
  formTtlSeconds: number;
  secureCookies: boolean;
  sessionTtlSeconds: number;
  log?: Logger;
  /** spends a password check's time for an unknown user name and answers false */
  dummyVerify: (password: string) => Promise<boolean>;
  /** the clock, in unix seconds */
  nowSeconds: () => number;
};

/** `'answered'`: the step has sent the response and the flow ends. */
// biome-ignore lint/suspicious/noConfusingVoidType: a step that only checks is a plain void function
export type StepOutcome = void | 'answered';

/** One step; its function name is its name in the flow. */
export type Step = (ctx: FlowContext, env: FlowEnv) => StepOutcome | Promise<StepOutcome>;

/** A value an earlier step put on the context; missing means the step list is out of order (a bug). */
export function fromEarlierStep<T>(value: T | null | undefined, what: string): T {
  if (value === undefined || value === null)
    throw new Error(`browser flow: no ${what} on the context (a step that sets it must run first)`);
  return value;
}
