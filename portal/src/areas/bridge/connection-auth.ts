import type { AdminBody } from './bridge-api.ts';

/**
 * A connection's authentication as the form holds it (one flat set of fields, named by their path in the
 * API's body so that its refusals mark them) and as the API takes it. Secrets are write-only: the API
 * answers `******` in their place, so the form starts them empty and a secret left empty is left out of
 * the request, which keeps the stored one while the kind stays the same.
 */
export const AUTH_KINDS = ['BASIC', 'BEARER', 'OAUTH_CLIENT_CREDENTIALS', 'API_KEY'] as const;
export type AuthKind = (typeof AUTH_KINDS)[number];
export const BEARER_SOURCES = ['caller', 'fixed', 'config', 'jsonpath'] as const;

export const AUTH_LABELS: Record<AuthKind, string> = {
  BASIC: 'Basic (user name and password)',
  BEARER: 'Bearer token',
  OAUTH_CLIENT_CREDENTIALS: 'OAuth client credentials',
  API_KEY: 'API key header',
};

export type ConnectionValues = {
  name: string;
  description: string;
  'auth.kind': string;
  'auth.username': string;
  'auth.password': string;
  'auth.source': string;
  'auth.token': string;
  'auth.key': string;
  'auth.path': string;
  'auth.tokenUrl': string;
  'auth.clientId': string;
  'auth.clientSecret': string;
  'auth.method': string;
  'auth.clientAuth': string;
  'auth.scope': string;
  'auth.audience': string;
  'auth.headerName': string;
  'auth.value': string;
};

/** the secret field of each kind (BEARER's only when its source is `fixed`) */
export const SECRET_OF: Record<AuthKind, keyof ConnectionValues> = {
  BASIC: 'auth.password',
  BEARER: 'auth.token',
  OAUTH_CLIENT_CREDENTIALS: 'auth.clientSecret',
  API_KEY: 'auth.value',
};

export type AuthView = { kind?: AuthKind } & Record<string, unknown>;

const str = (v: unknown): string => (typeof v === 'string' && v !== '******' ? v : '');

export function valuesOf(c?: { name?: string; description?: string | null; auth?: AuthView }): ConnectionValues {
  const a = c?.auth ?? {};
  return {
    name: c?.name ?? '',
    description: c?.description ?? '',
    'auth.kind': a.kind ?? 'BASIC',
    'auth.username': str(a.username),
    'auth.password': '',
    'auth.source': str(a.source) || 'fixed',
    'auth.token': '',
    'auth.key': str(a.key),
    'auth.path': str(a.path),
    'auth.tokenUrl': str(a.tokenUrl),
    'auth.clientId': str(a.clientId),
    'auth.clientSecret': '',
    'auth.method': str(a.method) || 'POST',
    'auth.clientAuth': str(a.clientAuth) || 'client_secret_basic',
    'auth.scope': str(a.scope),
    'auth.audience': str(a.audience),
    'auth.headerName': str(a.headerName),
    'auth.value': '',
  };
}

/** whether the stored connection holds a secret (the API shows it masked) */
export const secretSet = (auth: AuthView | undefined): boolean => {
  if (auth?.kind === undefined) return false;
  const field = SECRET_OF[auth.kind].slice('auth.'.length);
  return typeof auth[field] === 'string' && auth[field] !== '';
};

/** a connection as POST /connections takes it (PUT takes the same auth and description) */
export type ConnectionBody = AdminBody<'/connections', 'post'>;
type AuthBody = ConnectionBody['auth'];
/** the auth fields the form holds as text, sent as typed */
type AuthText = Exclude<keyof AuthBody, 'kind' | 'source' | 'method' | 'clientAuth' | 'params'>;

const TOKEN_METHODS = ['POST', 'GET'] as const;
const CLIENT_AUTHS = ['client_secret_basic', 'client_secret_post'] as const;
/** a select's value as the API's enum (the select offers no other) */
const oneOf = <T extends string>(list: readonly T[], value: string): T | undefined => list.find((m) => m === value);

/** the API's auth object for the form's kind: only that kind's fields, empty ones (and empty secrets) left out */
export function authOf(v: ConnectionValues): AuthBody {
  const kind = v['auth.kind'] as AuthKind;
  const pick = <K extends AuthText>(...fields: K[]): Partial<Record<K, string>> => {
    const out: Partial<Record<K, string>> = {};
    for (const f of fields) {
      const value = v[`auth.${f}` as const];
      if (value !== '') out[f] = value;
    }
    return out;
  };
  switch (kind) {
    case 'BASIC':
      return { kind, ...pick('username', 'password') };
    case 'BEARER': {
      const source = oneOf(BEARER_SOURCES, v['auth.source']);
      const extra =
        source === 'fixed'
          ? pick('token')
          : source === 'config'
            ? pick('key')
            : source === 'jsonpath'
              ? pick('path')
              : {};
      return { kind, ...(source !== undefined && { source }), ...extra };
    }
    case 'OAUTH_CLIENT_CREDENTIALS': {
      const method = oneOf(TOKEN_METHODS, v['auth.method']);
      const clientAuth = oneOf(CLIENT_AUTHS, v['auth.clientAuth']);
      return {
        kind,
        ...pick('tokenUrl', 'clientId', 'clientSecret'),
        ...(method !== undefined && { method }),
        ...(clientAuth !== undefined && { clientAuth }),
        ...pick('scope', 'audience'),
      };
    }
    case 'API_KEY':
      return { kind, ...pick('headerName', 'value') };
    default: {
      const never: never = kind;
      return { kind: never };
    }
  }
}
