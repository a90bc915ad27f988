import { assertNever, type Decider } from '../core/decider.ts';
import type { DomainEvent } from '../core/event.ts';
import { streamName } from '../core/stream-name.ts';
import { identityError } from './identity.errors.ts';
import {
  AUTH_METHODS,
  type AuthMethod,
  type Client,
  DEFAULT_USER_SOURCE,
  GRANT_TYPES,
  type GrantType,
  PLATFORM_TENANT,
  type PublicJwk,
} from './model.ts';
import { TENANT_CODE } from './tenant.decider.ts';
import { DIRECTORY_ID, SCOPE_TOKEN, USER_ID } from './user.decider.ts';

/**
 * An OIDC client, registered with the spec's registration fields ("Identity provider: client
 * registration"). Clients are looked up by client_id alone, so their streams use the `platform` tenant
 * segment: `client-platform.<clientId>`; the owning tenant is in the events.
 *
 * The rules of the registration table are enforced here, on the whole client after every change:
 * - grant_type: known values only; refresh_token only beside authorization_code or password;
 * - authorization_code needs a signin_redirect_url; client_credentials needs a default_user;
 * - redirect URLs are absolute http(s) without fragment or credentials (matched exactly later);
 * - client_secret only for confidential clients (client_secret_basic / client_secret_post), and they must
 *   have one; a public client (none) has no secret and cannot use client_credentials or password;
 * - private_key_jwt needs public keys (jwks), and only it may have them;
 * - allowed_access_tenants are tenant codes; scopes are RFC 6749 scope tokens.
 * The secret arrives hashed in the command, the client id generated: no randomness here.
 */
export const CLIENT_ID = /^[A-Za-z0-9][A-Za-z0-9._~-]{0,127}$/;
const MAX_APP_NAME = 200;
const MAX_URIS = 20;
const MAX_URI_LENGTH = 2000;
const MAX_LIST = 50;
const MAX_KEYS = 10;
/** JWK members that only a private or symmetric key has: never accepted as a client's public key */
const PRIVATE_JWK_MEMBERS = ['d', 'p', 'q', 'dp', 'dq', 'qi', 'oth', 'k'];
const ASYMMETRIC_KTY = ['RSA', 'EC', 'OKP'];

export const clientStream = (clientId: string): string => streamName('client', PLATFORM_TENANT, clientId);

/** Auth methods that authenticate with the client secret (both accept Basic and form-posted secrets). */
export const usesSecret = (method: string): boolean =>
  method === 'client_secret_basic' || method === 'client_secret_post';

/** As received (grant types and auth method not yet checked): `decide` validates and normalizes. */
export type ClientRegistration = {
  clientId: string;
  tenant: string;
  appName?: string;
  redirectUris: string[];
  postLogoutRedirectUris: string[];
  grantTypes: string[];
  authMethod: string;
  userSourceId: string;
  defaultUser?: string;
  allowedAccessTenants: string[];
  scopes: string[];
  jwks?: PublicJwk[];
  allowPlainPkce: boolean;
};

/** A partial update; null clears an optional field. client_id and tenant_code never change. */
export type ClientChanges = {
  appName?: string | null;
  redirectUris?: string[];
  postLogoutRedirectUris?: string[];
  grantTypes?: string[];
  authMethod?: string;
  userSourceId?: string;
  defaultUser?: string | null;
  allowedAccessTenants?: string[];
  scopes?: string[];
  jwks?: PublicJwk[] | null;
  allowPlainPkce?: boolean;
};

export type ClientCommand =
  | { type: 'RegisterClient'; registration: ClientRegistration; secretHash?: string; now: string }
  | { type: 'UpdateClient'; changes: ClientChanges; now: string }
  | { type: 'RotateClientSecret'; secretHash: string; now: string }
  | { type: 'DisableClient'; now: string }
  | { type: 'EnableClient'; now: string };

/** The client's settings as recorded (everything but status). */
export type ClientSettings = Omit<Client, 'status'>;

/** Changes as recorded: normalized, and only the fields that actually changed. */
export type RecordedClientChanges = {
  appName?: string | null;
  redirectUris?: string[];
  postLogoutRedirectUris?: string[];
  grantTypes?: GrantType[];
  authMethod?: AuthMethod;
  userSourceId?: string;
  defaultUser?: string | null;
  allowedAccessTenants?: string[];
  scopes?: string[];
  jwks?: PublicJwk[] | null;
  allowPlainPkce?: boolean;
};

export type ClientRegistered = DomainEvent<'ClientRegistered', ClientSettings & { registeredAt: string }>;
export type ClientUpdated = DomainEvent<
  'ClientUpdated',
  { clientId: string; tenant: string; changes: RecordedClientChanges; updatedAt: string }
>;
export type ClientSecretRotated = DomainEvent<
  'ClientSecretRotated',
  { clientId: string; tenant: string; secretHash: string; rotatedAt: string }
>;
export type ClientDisabled = DomainEvent<'ClientDisabled', { clientId: string; tenant: string; disabledAt: string }>;
export type ClientEnabled = DomainEvent<'ClientEnabled', { clientId: string; tenant: string; enabledAt: string }>;
export type ClientEvent = ClientRegistered | ClientUpdated | ClientSecretRotated | ClientDisabled | ClientEnabled;

export const CLIENT_EVENT_TYPES: ReadonlyArray<ClientEvent['type']> = [
  'ClientRegistered',
  'ClientUpdated',
  'ClientSecretRotated',
  'ClientDisabled',
  'ClientEnabled',
];

export type ClientState =
  | { status: 'none' }
  | { status: 'exists'; client: Client; registeredAt: string; updatedAt: string; secretRotatedAt?: string };

type Problem = { field: string; message: string };

const rejectFields = (problems: Problem[]): never => {
  throw identityError(
    'CLIENT.INVALID',
    `invalid client registration: ${problems.map((p) => `${p.field} ${p.message}`).join('; ')}`,
    problems,
  );
};

const notFound = () => identityError('CLIENT.NOT_FOUND', 'no such client');

const unique = <T>(xs: T[]): T[] => [...new Set(xs)];

/** Why a redirect URL is refused, or null when it is fine. */
export function redirectUriProblem(uri: string): string | null {
  if (uri.length > MAX_URI_LENGTH) return `is longer than ${MAX_URI_LENGTH} characters`;
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return `${JSON.stringify(uri)} is not an absolute URL`;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return `${JSON.stringify(uri)} must use http or https`;
  // URL drops an empty fragment (`…/cb#`), so look at the text itself
  if (uri.includes('#')) return `${JSON.stringify(uri)} must not have a fragment`;
  if (url.username !== '' || url.password !== '') return `${JSON.stringify(uri)} must not carry credentials`;
  return null;
}

function jwksProblem(keys: PublicJwk[]): string | null {
  if (keys.length === 0) return 'must hold at least one public key';
  if (keys.length > MAX_KEYS) return `at most ${MAX_KEYS} keys`;
  for (const [i, key] of keys.entries()) {
    if (typeof key !== 'object' || key === null || typeof key.kty !== 'string') return `key ${i} has no kty`;
    if (!ASYMMETRIC_KTY.includes(key.kty)) return `key ${i}: kty must be one of ${ASYMMETRIC_KTY.join(', ')}`;
    const secret = PRIVATE_JWK_MEMBERS.filter((m) => m in key);
    if (secret.length > 0) return `key ${i} is a private key (has ${secret.join(', ')}): register the public key only`;
  }
  return null;
}

type Draft = ClientRegistration;

/** Checks a whole client (after registration or after a change) against the registration rules. */
function check(
  c: Draft,
  secretHash: string | undefined,
): { problems: Problem[]; grantTypes: GrantType[]; authMethod: AuthMethod } {
  const problems: Problem[] = [];
  const add = (field: string, message: string) => problems.push({ field, message });

  if (!CLIENT_ID.test(c.clientId))
    add('client_id', 'must be 1-128 letters, digits, . _ ~ or -, starting with a letter or digit');
  if (!TENANT_CODE.test(c.tenant)) add('tenant_code', 'must be a tenant code');
  if (c.appName !== undefined && (c.appName.trim().length === 0 || c.appName.length > MAX_APP_NAME)) {
    add('app_name', `must be 1-${MAX_APP_NAME} characters, not blank`);
  }

  const authMethod = c.authMethod as AuthMethod;
  const knownMethod = AUTH_METHODS.includes(authMethod);
  if (!knownMethod) add('token_endpoint_auth_method', `must be one of ${AUTH_METHODS.join(', ')}`);

  const grantTypes = unique(c.grantTypes) as GrantType[];
  const unknownGrants = grantTypes.filter((g) => !GRANT_TYPES.includes(g));
  if (grantTypes.length === 0) add('grant_type', 'must name at least one grant type');
  else if (unknownGrants.length > 0) {
    add(
      'grant_type',
      `unknown grant type(s) ${unknownGrants.map((g) => JSON.stringify(g)).join(', ')}; allowed: ${GRANT_TYPES.join(', ')}`,
    );
  }
  const has = (g: GrantType) => grantTypes.includes(g);
  if (has('refresh_token') && !has('authorization_code') && !has('password')) {
    add('grant_type', 'refresh_token needs authorization_code or password beside it');
  }

  if (c.redirectUris.length > MAX_URIS) add('signin_redirect_url', `at most ${MAX_URIS} URLs`);
  for (const uri of c.redirectUris) {
    const p = redirectUriProblem(uri);
    if (p !== null) add('signin_redirect_url', p);
  }
  if (has('authorization_code') && c.redirectUris.length === 0)
    add('signin_redirect_url', 'is required for authorization_code');
  if (c.postLogoutRedirectUris.length > MAX_URIS) add('signout_redirect_url', `at most ${MAX_URIS} URLs`);
  for (const uri of c.postLogoutRedirectUris) {
    const p = redirectUriProblem(uri);
    if (p !== null) add('signout_redirect_url', p);
  }

  if (c.defaultUser !== undefined && !USER_ID.test(c.defaultUser)) add('default_user', 'must be a user id');
  if (has('client_credentials') && c.defaultUser === undefined)
    add('default_user', 'is required for client_credentials');

  if (knownMethod) {
    if (authMethod === 'none') {
      if (has('client_credentials'))
        add('grant_type', 'a public client (auth method none) cannot use client_credentials');
      if (has('password')) add('grant_type', 'a public client (auth method none) cannot use password');
    }
    if (usesSecret(authMethod) && secretHash === undefined)
      add('client_secret', 'is required for a confidential client');
    if (!usesSecret(authMethod) && secretHash !== undefined) {
      add('client_secret', `is only for confidential clients, not for token_endpoint_auth_method ${authMethod}`);
    }
    if (authMethod === 'private_key_jwt') {
      if (c.jwks === undefined) add('jwks', 'is required for private_key_jwt');
    } else if (c.jwks !== undefined) add('jwks', 'is only for private_key_jwt clients');
  }
  if (c.jwks !== undefined) {
    const p = jwksProblem(c.jwks);
    if (p !== null) add('jwks', p);
  }

  if (!DIRECTORY_ID.test(c.userSourceId)) add('user_source_id', 'must be 1-64 letters, digits, _ or -');
  if (c.allowedAccessTenants.length > MAX_LIST) add('allowed_access_tenants', `at most ${MAX_LIST} tenants`);
  const badTenants = c.allowedAccessTenants.filter((t) => !TENANT_CODE.test(t));
  if (badTenants.length > 0)
    add('allowed_access_tenants', `not tenant codes: ${badTenants.map((t) => JSON.stringify(t)).join(', ')}`);
  if (c.scopes.length > MAX_LIST) add('scopes', `at most ${MAX_LIST} scopes`);
  const badScopes = c.scopes.filter((s) => !SCOPE_TOKEN.test(s));
  if (badScopes.length > 0) add('scopes', `not scope tokens: ${badScopes.map((s) => JSON.stringify(s)).join(', ')}`);

  return { problems, grantTypes, authMethod };
}

const draftOf = (client: Client): Draft => ({
  clientId: client.clientId,
  tenant: client.tenant,
  ...(client.appName !== undefined && { appName: client.appName }),
  redirectUris: client.redirectUris,
  postLogoutRedirectUris: client.postLogoutRedirectUris,
  grantTypes: client.grantTypes,
  authMethod: client.authMethod,
  userSourceId: client.userSourceId,
  ...(client.defaultUser !== undefined && { defaultUser: client.defaultUser }),
  allowedAccessTenants: client.allowedAccessTenants,
  scopes: client.scopes,
  ...(client.jwks !== undefined && { jwks: client.jwks }),
  allowPlainPkce: client.allowPlainPkce,
});

/**
 * Applies a change set: a field given replaces the old value, `null` removes an optional one. The same
 * rule for a command's draft and for the recorded state (ClientChanges and RecordedClientChanges share it).
 */
type Changeable = Pick<
  Client,
  'redirectUris' | 'postLogoutRedirectUris' | 'userSourceId' | 'allowedAccessTenants' | 'scopes' | 'allowPlainPkce'
> & {
  appName?: string;
  grantTypes: unknown;
  authMethod: unknown;
  defaultUser?: string;
  jwks?: Client['jwks'];
};

function mergeChanges<T extends Changeable>(base: T, c: ClientChanges | RecordedClientChanges): T {
  const next: T = { ...base };
  if (c.appName === null) delete next.appName;
  else if (c.appName !== undefined) next.appName = c.appName;
  if (c.redirectUris !== undefined) next.redirectUris = c.redirectUris;
  if (c.postLogoutRedirectUris !== undefined) next.postLogoutRedirectUris = c.postLogoutRedirectUris;
  if (c.grantTypes !== undefined) next.grantTypes = c.grantTypes;
  if (c.authMethod !== undefined) next.authMethod = c.authMethod;
  if (c.userSourceId !== undefined) next.userSourceId = c.userSourceId;
  if (c.defaultUser === null) delete next.defaultUser;
  else if (c.defaultUser !== undefined) next.defaultUser = c.defaultUser;
  if (c.allowedAccessTenants !== undefined) next.allowedAccessTenants = c.allowedAccessTenants;
  if (c.scopes !== undefined) next.scopes = c.scopes;
  if (c.jwks === null) delete next.jwks;
  else if (c.jwks !== undefined) next.jwks = c.jwks;
  if (c.allowPlainPkce !== undefined) next.allowPlainPkce = c.allowPlainPkce;
  return next;
}

const same = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);

/** The fields of `after` that differ from `before`, as a recorded change (null: an optional field cleared). */
function diff(before: Client, after: ClientSettings): RecordedClientChanges {
  const changes: RecordedClientChanges = {};
  const optional = <K extends 'appName' | 'defaultUser' | 'jwks'>(key: K) => {
    if (same(before[key], after[key])) return;
    (changes as Record<string, unknown>)[key] = after[key] === undefined ? null : after[key];
  };
  optional('appName');
  optional('defaultUser');
  optional('jwks');
  const required = [
    'redirectUris',
    'postLogoutRedirectUris',
    'grantTypes',
    'authMethod',
    'userSourceId',
    'allowedAccessTenants',
    'scopes',
    'allowPlainPkce',
  ] as const;
  for (const key of required) {
    if (!same(before[key], after[key])) (changes as Record<string, unknown>)[key] = after[key];
  }
  return changes;
}

/** Validated and normalized settings (duplicates dropped, names trimmed). */
function settingsOf(draft: Draft, secretHash: string | undefined): ClientSettings {
  const { problems, grantTypes, authMethod } = check(draft, secretHash);
  if (problems.length > 0) rejectFields(problems);
  return {
    clientId: draft.clientId,
    tenant: draft.tenant,
    ...(draft.appName !== undefined && { appName: draft.appName.trim() }),
    ...(secretHash !== undefined && { secretHash }),
    redirectUris: unique(draft.redirectUris),
    postLogoutRedirectUris: unique(draft.postLogoutRedirectUris),
    grantTypes,
    authMethod,
    userSourceId: draft.userSourceId,
    ...(draft.defaultUser !== undefined && { defaultUser: draft.defaultUser }),
    allowedAccessTenants: unique(draft.allowedAccessTenants),
    scopes: unique(draft.scopes),
    ...(draft.jwks !== undefined && { jwks: draft.jwks }),
    allowPlainPkce: draft.allowPlainPkce,
  };
}

export const clientDecider: Decider<ClientCommand, ClientEvent, ClientState> = {
  initialState: () => ({ status: 'none' }),

  evolve(state, event) {
    if (event.type === 'ClientRegistered') {
      const { registeredAt, ...settings } = event.data;
      return { status: 'exists', client: { ...settings, status: 'active' }, registeredAt, updatedAt: registeredAt };
    }
    if (state.status === 'none') return state;
    switch (event.type) {
      case 'ClientUpdated':
        return { ...state, client: mergeChanges(state.client, event.data.changes), updatedAt: event.data.updatedAt };
      case 'ClientSecretRotated':
        return {
          ...state,
          client: { ...state.client, secretHash: event.data.secretHash },
          updatedAt: event.data.rotatedAt,
          secretRotatedAt: event.data.rotatedAt,
        };
      case 'ClientDisabled':
        return { ...state, client: { ...state.client, status: 'disabled' }, updatedAt: event.data.disabledAt };
      case 'ClientEnabled':
        return { ...state, client: { ...state.client, status: 'active' }, updatedAt: event.data.enabledAt };
      default:
        return assertNever(event);
    }
  },

  decide(command, state) {
    switch (command.type) {
      case 'RegisterClient': {
        if (state.status !== 'none') {
          throw identityError('CLIENT.ALREADY_EXISTS', `client ${state.client.clientId} already exists`, {
            clientId: state.client.clientId,
          });
        }
        const settings = settingsOf(command.registration, command.secretHash);
        return [{ type: 'ClientRegistered', data: { ...settings, registeredAt: command.now } }];
      }
      case 'UpdateClient': {
        if (state.status === 'none') throw notFound();
        const { client } = state;
        const next = mergeChanges(draftOf(client), command.changes);
        // a secret cannot appear or vanish through an update: that is a different client (register a new one)
        if (
          AUTH_METHODS.includes(next.authMethod as AuthMethod) &&
          usesSecret(next.authMethod) !== usesSecret(client.authMethod)
        ) {
          rejectFields([
            {
              field: 'token_endpoint_auth_method',
              message: `cannot change from ${client.authMethod} to ${next.authMethod}: one uses a client secret, the other not; register a new client`,
            },
          ]);
        }
        const settings = settingsOf(next, client.secretHash);
        const changes = diff(client, settings);
        if (Object.keys(changes).length === 0) return [];
        return [
          {
            type: 'ClientUpdated',
            data: { clientId: client.clientId, tenant: client.tenant, changes, updatedAt: command.now },
          },
        ];
      }
      case 'RotateClientSecret': {
        if (state.status === 'none') throw notFound();
        const { client } = state;
        if (!usesSecret(client.authMethod)) {
          throw identityError('CLIENT.NO_SECRET', `a ${client.authMethod} client has no secret to rotate`, [
            { field: 'token_endpoint_auth_method', message: `${client.authMethod} clients have no secret` },
          ]);
        }
        if (command.secretHash.length === 0) rejectFields([{ field: 'client_secret', message: 'is required' }]);
        return [
          {
            type: 'ClientSecretRotated',
            data: {
              clientId: client.clientId,
              tenant: client.tenant,
              secretHash: command.secretHash,
              rotatedAt: command.now,
            },
          },
        ];
      }
      case 'DisableClient':
        if (state.status === 'none') throw notFound();
        if (state.client.status === 'disabled') return [];
        return [
          {
            type: 'ClientDisabled',
            data: { clientId: state.client.clientId, tenant: state.client.tenant, disabledAt: command.now },
          },
        ];
      case 'EnableClient':
        if (state.status === 'none') throw notFound();
        if (state.client.status === 'active') return [];
        return [
          {
            type: 'ClientEnabled',
            data: { clientId: state.client.clientId, tenant: state.client.tenant, enabledAt: command.now },
          },
        ];
      default:
        return assertNever(command);
    }
  },
};

/** Registration defaults the spec names: client_secret_basic, the platform default user directory. */
export const REGISTRATION_DEFAULTS = {
  authMethod: 'client_secret_basic' as AuthMethod,
  userSourceId: DEFAULT_USER_SOURCE,
};
