import type { Request } from 'express';
import type { PkceMethod } from '../../../domain/identity/pkce.ts';

/** The validated authorization request: what the login form carries sealed, and what a code records. */
export type AuthorizationRequest = {
  clientId: string;
  redirectUri: string;
  scopes: string[];
  state: string;
  nonce?: string;
  codeChallenge?: string;
  method?: PkceMethod;
  maxAge?: number;
  prompt: string[];
};

/** The request's parameters: the query of a GET, the form of a POST. */
export type Params = Record<string, unknown>;

export const paramsOf = (req: Request): Params =>
  (req.method === 'GET' ? req.query : typeof req.body === 'object' && req.body !== null ? req.body : {}) as Params;

/** One value of a parameter; repeated parameters are refused (RFC 6749 3.1). */
export function one(params: Params, name: string, onRepeat: (name: string) => Error): string | undefined {
  const v = params[name];
  if (v === undefined || v === '') return undefined;
  if (typeof v !== 'string') throw onRepeat(name);
  return v;
}

/** A form field when it is a single string. */
export const field = (params: Params, name: string): string | undefined =>
  typeof params[name] === 'string' ? (params[name] as string) : undefined;
