import { hasControlCharacters } from '../core/control-characters.ts';
import { assertNever, type Decider } from '../core/decider.ts';
import type { DomainEvent } from '../core/event.ts';
import { isSealed, type SealedSecret } from '../core/sealed-secret.ts';
import { streamName } from '../core/stream-name.ts';
import { bridgeError } from './bridge.errors.ts';
import { isConfigKey } from './config-entry.decider.ts';
import { checkJsonPath } from './conversion/json-path.ts';
import { at, type Violation } from './violation.ts';

/**
 * A connection (spec "Connection" and "Authentication"): the outbound authentication that API
 * destinations share, `connection-<tenant>.<name>`.
 *
 * Kinds:
 * - BASIC {username, password}: `Authorization: Basic base64(username:password)`;
 * - BEARER with a source: `caller` (the publishing caller's token, handed to the delivery and never
 *   stored), `fixed` {token}, `config` {key} (a configuration-center key such as `alert.token`; the spec
 *   writes it `${alert.token}`, which is accepted too) or `jsonpath` {path} (read from the event);
 * - OAUTH_CLIENT_CREDENTIALS {tokenUrl, clientId, clientSecret, method GET|POST, clientAuth, scope?,
 *   audience?, params?}: the client-credentials grant only (the spec's OAuth);
 * - API_KEY {headerName, value}: a custom header.
 *
 * Secrets (password, fixed token, client secret, API key value) reach this decider SEALED: commands/
 * encrypts them (AES-256-GCM, see commands/core/secret.box.ts) before deciding, so the log never holds
 * them in clear. `decide` refuses an unsealed secret as a programming error. The decider is generic over
 * nothing: it only sees sealed strings; `maskConnectionAuth` is what every answer shows.
 *
 * Updates replace the auth as a whole, except that a secret left out of an update of the same kind keeps
 * its current sealed value (the API never shows secrets, so a client cannot send them back).
 */
export const CONNECTION_CATEGORY = 'connection';
export const CONNECTION_NAME = /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/;
export const MAX_DESCRIPTION = 2000;
export const MAX_SECRET_LENGTH = 8192;
export const SECRET_MASK = '******';
export const AUTH_KINDS = ['BASIC', 'BEARER', 'OAUTH_CLIENT_CREDENTIALS', 'API_KEY'] as const;
export const BEARER_SOURCES = ['caller', 'fixed', 'config', 'jsonpath'] as const;
export const OAUTH_METHODS = ['GET', 'POST'] as const;
export const OAUTH_CLIENT_AUTH = ['client_secret_basic', 'client_secret_post'] as const;
/** RFC 7230 token: what a header name may be */
export const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,128}$/;
/** headers the platform sets itself (or the HTTP stack owns): an API key may not use them */
export const RESERVED_HEADERS = [
  'host',
  'content-length',
  'transfer-encoding',
  'connection',
  'keep-alive',
  'upgrade',
  'te',
  'trailer',
  'x-delivery-id',
  'x-delivery-attempt',
];

export const connectionStream = (tenant: string, name: string): string => streamName(CONNECTION_CATEGORY, tenant, name);

export type BearerSource =
  | { source: 'caller' }
  | { source: 'fixed'; token: string }
  | { source: 'config'; key: string }
  | { source: 'jsonpath'; path: string };

/** `S` is the type of secret fields: sealed strings in events, clear strings in commands/ after opening. */
export type ConnectionAuth<S = SealedSecret> =
  | { kind: 'BASIC'; username: string; password: S }
  | ({ kind: 'BEARER' } & (
      | { source: 'caller' }
      | { source: 'fixed'; token: S }
      | { source: 'config'; key: string }
      | { source: 'jsonpath'; path: string }
    ))
  | {
      kind: 'OAUTH_CLIENT_CREDENTIALS';
      tokenUrl: string;
      clientId: string;
      clientSecret: S;
      method: 'GET' | 'POST';
      /** how the client authenticates at the token URL; default client_secret_basic (RFC 6749 2.3.1) */
      clientAuth: 'client_secret_basic' | 'client_secret_post';
      scope?: string;
      audience?: string;
      /** extra form parameters sent with the grant (`resource`, vendor parameters) */
      params?: Record<string, string>;
    }
  | { kind: 'API_KEY'; headerName: string; value: S };

/** The secret fields of each kind (what sealing and masking touch). */
export const SECRET_FIELDS = {
  BASIC: ['password'],
  BEARER: ['token'],
  OAUTH_CLIENT_CREDENTIALS: ['clientSecret'],
  API_KEY: ['value'],
} as const;

/**
 * Auth as an update may give it: the same shape, a secret field may be missing (keep the current one,
 * when the kind does not change). Loose on purpose: the decider names every bad field.
 */
export type ConnectionAuthInput = Record<string, unknown> & { kind?: unknown };

export type Connection = { tenant: string; name: string; description?: string; auth: ConnectionAuth };

export type ConnectionCommand =
  | {
      type: 'CreateConnection';
      tenant: string;
      name: string;
      description?: string;
      auth: ConnectionAuthInput;
      now: string;
    }
  | { type: 'UpdateConnection'; changes: { description?: string | null; auth?: ConnectionAuthInput }; now: string }
  | { type: 'DeleteConnection'; now: string };

export type ConnectionCreated = DomainEvent<'ConnectionCreated', { connection: Connection; createdAt: string }>;
/** the connection as it is after the update (auth with sealed secrets) */
export type ConnectionUpdated = DomainEvent<'ConnectionUpdated', { connection: Connection; updatedAt: string }>;
export type ConnectionDeleted = DomainEvent<'ConnectionDeleted', { tenant: string; name: string; at: string }>;
export type ConnectionEvent = ConnectionCreated | ConnectionUpdated | ConnectionDeleted;
export const CONNECTION_EVENT_TYPES: ReadonlyArray<ConnectionEvent['type']> = [
  'ConnectionCreated',
  'ConnectionUpdated',
  'ConnectionDeleted',
];

export type ConnectionState =
  | { status: 'none' }
  | { status: 'deleted'; tenant: string; name: string; deletedAt: string }
  | { status: 'exists'; connection: Connection; createdAt: string; updatedAt: string };

const invalid = (violations: Violation[]): never => {
  throw bridgeError(
    'CONNECTION.INVALID',
    `invalid connection: ${violations.map((v) => `${v.field} ${v.message}`).join('; ')}`,
    violations,
  );
};

const str = (v: unknown, min: number, max: number): v is string =>
  typeof v === 'string' && v.length >= min && v.length <= max;
const noControl = (s: string) => !hasControlCharacters(s);

/** `${alert.token}` or `alert.token` → `alert.token` */
export const configKeyOf = (raw: string): string => {
  const m = /^\$\{(.+)\}$/.exec(raw.trim());
  return m ? m[1]! : raw.trim();
};

const isHttpUrl = (u: string): boolean => {
  try {
    const url = new URL(u);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.username === '' && url.password === '';
  } catch {
    return false;
  }
};

/**
 * Checks an auth input and completes it with the current secrets where an update left them out. Answers
 * the auth to record (secrets sealed) or throws CONNECTION.INVALID naming each bad field.
 */
export function checkAuth(
  input: ConnectionAuthInput,
  current: ConnectionAuth | undefined,
  base = 'auth',
): ConnectionAuth {
  const v: Violation[] = [];
  if (typeof input !== 'object' || input === null || Array.isArray(input))
    invalid([{ field: base, message: 'must be an object' }]);
  const kind = input.kind;
  if (!AUTH_KINDS.includes(kind as (typeof AUTH_KINDS)[number]))
    invalid([{ field: at(base, 'kind'), message: `must be one of ${AUTH_KINDS.join(', ')}` }]);
  const k = kind as ConnectionAuth['kind'];
  const same = current?.kind === k ? (current as Record<string, unknown>) : undefined;
  const allowed: Record<ConnectionAuth['kind'], string[]> = {
    BASIC: ['kind', 'username', 'password'],
    BEARER: ['kind', 'source', 'token', 'key', 'path'],
    OAUTH_CLIENT_CREDENTIALS: [
      'kind',
      'tokenUrl',
      'clientId',
      'clientSecret',
      'method',
      'clientAuth',
      'scope',
      'audience',
      'params',
    ],
    API_KEY: ['kind', 'headerName', 'value'],
  };
  for (const key of Object.keys(input))
    if (!allowed[k].includes(key)) v.push({ field: at(base, key), message: `is not a field of ${k}` });

  /** a sealed secret: the one given, else (same kind) the current one */
  const secret = (field: string): SealedSecret => {
    const given = input[field];
    if (given === undefined) {
      const kept = same?.[field];
      if (isSealed(kept)) return kept;
      v.push({ field: at(base, field), message: 'is required' });
      return '';
    }
    if (!isSealed(given)) throw new Error(`connection secret ${field} reached the decider unsealed`);
    return given;
  };
  const text = (field: string, max: number, required = true): string | undefined => {
    const given = input[field];
    if (given === undefined) {
      if (required) v.push({ field: at(base, field), message: 'is required' });
      return undefined;
    }
    if (!str(given, 1, max) || !noControl(given)) {
      v.push({ field: at(base, field), message: `must be a string of 1-${max} characters without control characters` });
      return undefined;
    }
    return given;
  };

  let auth: ConnectionAuth;
  switch (k) {
    case 'BASIC': {
      const username = text('username', 256) ?? '';
      if (username.includes(':')) v.push({ field: at(base, 'username'), message: 'must not contain ":" (RFC 7617)' });
      auth = { kind: 'BASIC', username, password: secret('password') };
      break;
    }
    case 'BEARER': {
      const source = input.source;
      if (!BEARER_SOURCES.includes(source as (typeof BEARER_SOURCES)[number])) {
        v.push({ field: at(base, 'source'), message: `must be one of ${BEARER_SOURCES.join(', ')}` });
        auth = { kind: 'BEARER', source: 'caller' };
        break;
      }
      const s = source as BearerSource['source'];
      for (const f of ['token', 'key', 'path']) {
        const owner = { token: 'fixed', key: 'config', path: 'jsonpath' }[f];
        if (input[f] !== undefined && owner !== s)
          v.push({ field: at(base, f), message: `is only for source ${owner}` });
      }
      switch (s) {
        case 'caller':
          auth = { kind: 'BEARER', source: 'caller' };
          break;
        case 'fixed':
          auth = { kind: 'BEARER', source: 'fixed', token: secret('token') };
          break;
        case 'config': {
          const raw = text('key', 200) ?? '';
          const key = configKeyOf(raw);
          if (raw !== '' && !isConfigKey(key))
            v.push({ field: at(base, 'key'), message: 'must be a configuration key (alert.token, or ${alert.token})' });
          auth = { kind: 'BEARER', source: 'config', key };
          break;
        }
        case 'jsonpath': {
          const path = text('path', 512) ?? '';
          const problem = path === '' ? null : checkJsonPath(path);
          if (problem !== null) v.push({ field: at(base, 'path'), message: problem });
          auth = { kind: 'BEARER', source: 'jsonpath', path };
          break;
        }
        default:
          return assertNever(s);
      }
      break;
    }
    case 'OAUTH_CLIENT_CREDENTIALS': {
      const tokenUrl = text('tokenUrl', 2048) ?? '';
      if (tokenUrl !== '' && !isHttpUrl(tokenUrl))
        v.push({ field: at(base, 'tokenUrl'), message: 'must be an http(s) URL without credentials' });
      const clientId = text('clientId', 256) ?? '';
      const method = input.method ?? 'POST';
      if (!OAUTH_METHODS.includes(method as 'GET'))
        v.push({ field: at(base, 'method'), message: 'must be GET or POST' });
      const clientAuth = input.clientAuth ?? 'client_secret_basic';
      if (!OAUTH_CLIENT_AUTH.includes(clientAuth as 'client_secret_basic')) {
        v.push({ field: at(base, 'clientAuth'), message: `must be ${OAUTH_CLIENT_AUTH.join(' or ')}` });
      }
      const scope = text('scope', 1024, false);
      const audience = text('audience', 1024, false);
      let params: Record<string, string> | undefined;
      if (input.params !== undefined) {
        const p = input.params;
        if (typeof p !== 'object' || p === null || Array.isArray(p) || Object.keys(p).length > 20) {
          v.push({ field: at(base, 'params'), message: 'must be an object of at most 20 string values' });
        } else {
          params = {};
          for (const [name, value] of Object.entries(p as Record<string, unknown>)) {
            if (!/^[A-Za-z0-9_.-]{1,64}$/.test(name))
              v.push({ field: at(at(base, 'params'), name), message: 'names are 1-64 letters, digits, _ . -' });
            else if (['grant_type', 'client_id', 'client_secret', 'scope', 'audience'].includes(name)) {
              v.push({
                field: at(at(base, 'params'), name),
                message: 'is set by the platform (use the connection field)',
              });
            } else if (!str(value, 0, 1024))
              v.push({ field: at(at(base, 'params'), name), message: 'must be a string of at most 1024 characters' });
            else params[name] = value;
          }
        }
      }
      auth = {
        kind: 'OAUTH_CLIENT_CREDENTIALS',
        tokenUrl,
        clientId,
        clientSecret: secret('clientSecret'),
        method: method as 'GET' | 'POST',
        clientAuth: clientAuth as 'client_secret_basic' | 'client_secret_post',
        ...(scope !== undefined && { scope }),
        ...(audience !== undefined && { audience }),
        ...(params !== undefined && Object.keys(params).length > 0 && { params }),
      };
      break;
    }
    case 'API_KEY': {
      const headerName = input.headerName;
      if (typeof headerName !== 'string' || !HEADER_NAME.test(headerName)) {
        v.push({
          field: at(base, 'headerName'),
          message: 'must be an HTTP header name (RFC 7230 token, at most 128 characters)',
        });
      } else if (RESERVED_HEADERS.includes(headerName.toLowerCase())) {
        v.push({ field: at(base, 'headerName'), message: `${headerName} is set by the platform` });
      }
      auth = { kind: 'API_KEY', headerName: typeof headerName === 'string' ? headerName : '', value: secret('value') };
      break;
    }
    default:
      return assertNever(k);
  }
  if (v.length > 0) invalid(v);
  return auth;
}

/** The auth as every answer shows it: secrets replaced by the mask. */
export function maskConnectionAuth(auth: ConnectionAuth): ConnectionAuth<typeof SECRET_MASK> {
  switch (auth.kind) {
    case 'BASIC':
      return { ...auth, password: SECRET_MASK };
    case 'BEARER':
      return auth.source === 'fixed' ? { ...auth, token: SECRET_MASK } : auth;
    case 'OAUTH_CLIENT_CREDENTIALS':
      return { ...auth, clientSecret: SECRET_MASK };
    case 'API_KEY':
      return { ...auth, value: SECRET_MASK };
    default:
      return assertNever(auth);
  }
}

const checkDescription = (d: unknown, v: Violation[]) => {
  if (d !== undefined && d !== null && !str(d, 0, MAX_DESCRIPTION))
    v.push({ field: 'description', message: `must be a string of at most ${MAX_DESCRIPTION} characters` });
};

export const connectionDecider: Decider<ConnectionCommand, ConnectionEvent, ConnectionState> = {
  initialState: () => ({ status: 'none' }),

  evolve(state, event) {
    switch (event.type) {
      case 'ConnectionCreated':
        return {
          status: 'exists',
          connection: event.data.connection,
          createdAt: event.data.createdAt,
          updatedAt: event.data.createdAt,
        };
      case 'ConnectionUpdated':
        return state.status === 'exists'
          ? {
              status: 'exists',
              connection: event.data.connection,
              createdAt: state.createdAt,
              updatedAt: event.data.updatedAt,
            }
          : state;
      case 'ConnectionDeleted':
        return { status: 'deleted', tenant: event.data.tenant, name: event.data.name, deletedAt: event.data.at };
      default:
        return assertNever(event);
    }
  },

  decide(command, state) {
    switch (command.type) {
      case 'CreateConnection': {
        // a deleted name may be taken again: connections are named, not numbered
        if (state.status === 'exists')
          throw bridgeError('CONNECTION.EXISTS', `a connection named ${command.name} exists`, { name: command.name });
        const v: Violation[] = [];
        if (!CONNECTION_NAME.test(command.name))
          v.push({ field: 'name', message: 'must be 1-64 letters, digits, _ or -, starting with a letter or digit' });
        checkDescription(command.description, v);
        if (v.length > 0) invalid(v);
        const auth = checkAuth(command.auth, undefined);
        const connection: Connection = {
          tenant: command.tenant,
          name: command.name,
          ...(command.description !== undefined && { description: command.description }),
          auth,
        };
        return [{ type: 'ConnectionCreated', data: { connection, createdAt: command.now } }];
      }
      case 'UpdateConnection': {
        if (state.status !== 'exists') throw bridgeError('CONNECTION.NOT_FOUND', 'no such connection');
        const v: Violation[] = [];
        checkDescription(command.changes.description, v);
        if (v.length > 0) invalid(v);
        const current = state.connection;
        const auth = command.changes.auth === undefined ? current.auth : checkAuth(command.changes.auth, current.auth);
        const { description: _old, ...rest } = current;
        const description =
          command.changes.description === undefined ? current.description : (command.changes.description ?? undefined);
        const next: Connection = { ...rest, ...(description !== undefined && { description }), auth };
        if (JSON.stringify(next) === JSON.stringify(current)) return [];
        return [{ type: 'ConnectionUpdated', data: { connection: next, updatedAt: command.now } }];
      }
      case 'DeleteConnection':
        if (state.status !== 'exists') throw bridgeError('CONNECTION.NOT_FOUND', 'no such connection');
        return [
          {
            type: 'ConnectionDeleted',
            data: { tenant: state.connection.tenant, name: state.connection.name, at: command.now },
          },
        ];
      default:
        return assertNever(command);
    }
  },
};
