import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { fold } from '../../../domain/core/decider.ts';
import {
  type ClientCommand,
  type ClientEvent,
  type ClientRegistration,
  clientDecider,
  clientStream,
  redirectUriProblem,
} from '../../../domain/identity/client.decider.ts';
import { deciderSpec } from '../../core/decider-spec.ts';

const spec = deciderSpec(clientDecider);
const now = '2026-01-01T00:00:00.000Z';
const later = '2026-01-02T00:00:00.000Z';

const confidential: ClientRegistration = {
  clientId: 'c1',
  tenant: 'acme',
  appName: 'Portal',
  redirectUris: ['https://app.acme.example/cb'],
  postLogoutRedirectUris: ['https://app.acme.example/bye'],
  grantTypes: ['authorization_code', 'client_credentials', 'refresh_token'],
  authMethod: 'client_secret_basic',
  userSourceId: 'default',
  defaultUser: 'svc-1',
  allowedAccessTenants: ['globex'],
  scopes: ['identity:admin'],
  allowPlainPkce: false,
};
/** secretHash null: the command carries no secret hash */
const register = (r: Partial<ClientRegistration> = {}, secretHash: string | null = 'scrypt$h'): ClientCommand => ({
  type: 'RegisterClient',
  registration: { ...confidential, ...r },
  ...(secretHash !== null && { secretHash }),
  now,
});
const { appName: _a, ...rest } = confidential;
const registered: ClientEvent = {
  type: 'ClientRegistered',
  data: {
    ...rest,
    appName: 'Portal',
    secretHash: 'scrypt$h',
    grantTypes: ['authorization_code', 'client_credentials', 'refresh_token'],
    authMethod: 'client_secret_basic',
    registeredAt: now,
  },
};
const publicReg: Partial<ClientRegistration> = {
  clientId: 'spa',
  grantTypes: ['authorization_code', 'refresh_token'],
  authMethod: 'none',
  allowPlainPkce: true,
};
const publicRegistered = fold(clientDecider, [clientDecider.decide(register(publicReg, null), { status: 'none' })[0]!]);
const rsa = { kty: 'RSA', n: 'abc', e: 'AQAB', kid: 'k1' };

/** the fields a rejected command names */
const fieldsOf = (command: ClientCommand, given: ClientEvent[] = []): string[] => {
  try {
    clientDecider.decide(command, fold(clientDecider, given));
  } catch (err) {
    return ((err as { details: Array<{ field: string }> }).details ?? []).map((d) => d.field);
  }
  throw new Error('expected a rejection');
};

test('clients live in platform-segment streams', () => {
  assert.is(clientStream('c1'), 'client-platform.c1');
});

test('register a confidential client: ClientRegistered with the secret hash, never a secret', () => {
  spec.given([]).when(register()).then([registered]);
});

test('register twice: 409 CLIENT.ALREADY_EXISTS', () => {
  spec.given([registered]).when(register()).thenThrows('CLIENT.ALREADY_EXISTS', 409);
});

test('duplicates in lists are dropped', () => {
  const [e] = clientDecider.decide(
    register({ grantTypes: ['client_credentials', 'client_credentials'], scopes: ['a', 'a'], redirectUris: [] }),
    { status: 'none' },
  );
  assert.ok(e?.type === 'ClientRegistered');
  assert.equal(e.data.grantTypes, ['client_credentials']);
  assert.equal(e.data.scopes, ['a']);
});

// ---- every registration rule ----
const rejections: Array<[string, ClientCommand, string]> = [
  ['an unknown grant type', register({ grantTypes: ['implicit'] }), 'grant_type'],
  ['no grant type', register({ grantTypes: [] }), 'grant_type'],
  ['refresh_token alone', register({ grantTypes: ['refresh_token'] }), 'grant_type'],
  ['an unknown auth method', register({ authMethod: 'tls_client_auth' }), 'token_endpoint_auth_method'],
  ['authorization_code without signin_redirect_url', register({ redirectUris: [] }), 'signin_redirect_url'],
  ['a relative redirect URL', register({ redirectUris: ['/cb'] }), 'signin_redirect_url'],
  ['a redirect URL with a fragment', register({ redirectUris: ['https://a.example/cb#x'] }), 'signin_redirect_url'],
  [
    'a redirect URL with an empty fragment',
    register({ redirectUris: ['https://a.example/cb#'] }),
    'signin_redirect_url',
  ],
  ['a non-http redirect URL', register({ redirectUris: ['javascript:alert(1)'] }), 'signin_redirect_url'],
  ['a custom-scheme redirect URL', register({ redirectUris: ['myapp://cb'] }), 'signin_redirect_url'],
  ['a redirect URL with credentials', register({ redirectUris: ['https://u:p@a.example/cb'] }), 'signin_redirect_url'],
  ['a bad signout URL', register({ postLogoutRedirectUris: ['nope'] }), 'signout_redirect_url'],
  ['client_credentials without default_user', register({ defaultUser: undefined }), 'default_user'],
  ['a confidential client without a secret', register({}, null), 'client_secret'],
  ['a public client with a secret', register(publicReg, 'scrypt$h'), 'client_secret'],
  [
    'a public client with client_credentials',
    register({ ...publicReg, grantTypes: ['client_credentials'] }, null),
    'grant_type',
  ],
  ['a public client with password', register({ ...publicReg, grantTypes: ['password'] }, null), 'grant_type'],
  ['private_key_jwt without keys', register({ authMethod: 'private_key_jwt' }, null), 'jwks'],
  [
    'private_key_jwt with a secret',
    register({ authMethod: 'private_key_jwt', jwks: [rsa] }, 'scrypt$h'),
    'client_secret',
  ],
  [
    'private_key_jwt with a private key',
    register({ authMethod: 'private_key_jwt', jwks: [{ ...rsa, d: 'secret' }] }, null),
    'jwks',
  ],
  [
    'private_key_jwt with a symmetric key',
    register({ authMethod: 'private_key_jwt', jwks: [{ kty: 'oct', k: 'x' }] }, null),
    'jwks',
  ],
  ['private_key_jwt with an empty key list', register({ authMethod: 'private_key_jwt', jwks: [] }, null), 'jwks'],
  ['jwks on a secret client', register({ jwks: [rsa] }), 'jwks'],
  [
    'allowed_access_tenants that are no tenant codes',
    register({ allowedAccessTenants: ['Globex Inc'] }),
    'allowed_access_tenants',
  ],
  ['a scope with a space', register({ scopes: ['a b'] }), 'scopes'],
  ['a bad user_source_id', register({ userSourceId: 'a/b' }), 'user_source_id'],
  ['a bad tenant_code', register({ tenant: 'ACME' }), 'tenant_code'],
  ['a bad client_id', register({ clientId: 'has space' }), 'client_id'],
  ['a blank app_name', register({ appName: ' ' }), 'app_name'],
];
for (const [label, command, field] of rejections) {
  test(`register with ${label}: 400 CLIENT.INVALID naming ${field}`, () => {
    spec.given([]).when(command).thenThrows('CLIENT.INVALID', 400);
    assert.ok(fieldsOf(command).includes(field), `fields: ${fieldsOf(command).join(', ')}`);
  });
}

test('a rejection names every bad field at once', () => {
  const fields = fieldsOf(
    register({
      grantTypes: ['implicit', 'client_credentials'],
      defaultUser: undefined,
      redirectUris: ['x'],
      scopes: ['a b'],
    }),
  );
  for (const f of ['grant_type', 'default_user', 'signin_redirect_url', 'scopes']) assert.ok(fields.includes(f), f);
});

test('accepted: a public client (none, PKCE, plain allowed), with no secret', () => {
  assert.ok(publicRegistered.status === 'exists');
  assert.is(publicRegistered.client.secretHash, undefined);
  assert.is(publicRegistered.client.authMethod, 'none');
  assert.is(publicRegistered.client.allowPlainPkce, true);
});

test('accepted: private_key_jwt with public keys; password grant when registered; http on localhost', () => {
  const [e] = clientDecider.decide(
    register(
      {
        authMethod: 'private_key_jwt',
        jwks: [rsa],
        grantTypes: ['password', 'refresh_token'],
        redirectUris: ['http://localhost:3000/cb?x=1'],
      },
      null,
    ),
    { status: 'none' },
  );
  assert.ok(e?.type === 'ClientRegistered');
  assert.equal(e.data.grantTypes, ['password', 'refresh_token']);
  assert.equal(e.data.jwks, [rsa]);
  assert.is(redirectUriProblem('https://a.example/cb?q=1'), null);
});

// ---- updates ----
test('update records only the changed fields; null clears optional ones', () => {
  spec
    .given([registered])
    .when({
      type: 'UpdateClient',
      changes: {
        appName: null,
        scopes: ['identity:admin'],
        redirectUris: ['https://app.acme.example/cb', 'https://app.acme.example/cb2'],
      },
      now: later,
    })
    .then([
      {
        type: 'ClientUpdated',
        data: {
          clientId: 'c1',
          tenant: 'acme',
          changes: { appName: null, redirectUris: ['https://app.acme.example/cb', 'https://app.acme.example/cb2'] },
          updatedAt: later,
        },
      },
    ]);
});

test('update without a real change: nothing', () => {
  spec
    .given([registered])
    .when({ type: 'UpdateClient', changes: { appName: 'Portal', scopes: ['identity:admin'] }, now: later })
    .then([]);
});

test('update checks the whole client: removing default_user while client_credentials stays is refused', () => {
  spec
    .given([registered])
    .when({ type: 'UpdateClient', changes: { defaultUser: null }, now: later })
    .thenThrows('CLIENT.INVALID', 400);
  assert.equal(fieldsOf({ type: 'UpdateClient', changes: { defaultUser: null }, now: later }, [registered]), [
    'default_user',
  ]);
});

test('update may switch between client_secret_basic and client_secret_post', () => {
  spec
    .given([registered])
    .when({ type: 'UpdateClient', changes: { authMethod: 'client_secret_post' }, now: later })
    .then([
      {
        type: 'ClientUpdated',
        data: { clientId: 'c1', tenant: 'acme', changes: { authMethod: 'client_secret_post' }, updatedAt: later },
      },
    ]);
});

test('update cannot turn a secret client into a public one (or back)', () => {
  spec
    .given([registered])
    .when({ type: 'UpdateClient', changes: { authMethod: 'none', grantTypes: ['authorization_code'] }, now: later })
    .thenThrows('CLIENT.INVALID', 400);
  const spa = {
    type: 'ClientRegistered' as const,
    data: { ...(publicRegistered.status === 'exists' ? publicRegistered.client : ({} as never)), registeredAt: now },
  };
  const { status: _s, ...spaData } = spa.data;
  spec
    .given([{ type: 'ClientRegistered', data: spaData }])
    .when({ type: 'UpdateClient', changes: { authMethod: 'client_secret_basic' }, now: later })
    .thenThrows('CLIENT.INVALID', 400);
});

test('update of an unknown client: 404', () => {
  spec
    .given([])
    .when({ type: 'UpdateClient', changes: { appName: 'x' }, now })
    .thenThrows('CLIENT.NOT_FOUND', 404);
});

// ---- secret, status ----
test('rotate: ClientSecretRotated with the new hash', () => {
  spec
    .given([registered])
    .when({ type: 'RotateClientSecret', secretHash: 'scrypt$new', now: later })
    .then([
      {
        type: 'ClientSecretRotated',
        data: { clientId: 'c1', tenant: 'acme', secretHash: 'scrypt$new', rotatedAt: later },
      },
    ]);
});

test('rotate a public client: 400 CLIENT.NO_SECRET; an unknown one: 404', () => {
  const { status: _s, ...spaData } = publicRegistered.status === 'exists' ? publicRegistered.client : ({} as never);
  spec
    .given([{ type: 'ClientRegistered', data: { ...spaData, registeredAt: now } }])
    .when({ type: 'RotateClientSecret', secretHash: 'h', now })
    .thenThrows('CLIENT.NO_SECRET', 400);
  spec.given([]).when({ type: 'RotateClientSecret', secretHash: 'h', now }).thenThrows('CLIENT.NOT_FOUND', 404);
});

test('disable, disable again (nothing), enable', () => {
  const disabled: ClientEvent = { type: 'ClientDisabled', data: { clientId: 'c1', tenant: 'acme', disabledAt: later } };
  spec.given([registered]).when({ type: 'DisableClient', now: later }).then([disabled]);
  spec.given([registered, disabled]).when({ type: 'DisableClient', now: later }).then([]);
  spec
    .given([registered, disabled])
    .when({ type: 'EnableClient', now: later })
    .then([{ type: 'ClientEnabled', data: { clientId: 'c1', tenant: 'acme', enabledAt: later } }]);
  spec.given([registered]).when({ type: 'EnableClient', now: later }).then([]);
  spec.given([]).when({ type: 'DisableClient', now }).thenThrows('CLIENT.NOT_FOUND', 404);
});

test('fold: the model Client after changes, rotation and disabling', () => {
  const state = fold(clientDecider, [
    registered,
    {
      type: 'ClientUpdated',
      data: { clientId: 'c1', tenant: 'acme', changes: { appName: null, scopes: [] }, updatedAt: later },
    },
    {
      type: 'ClientSecretRotated',
      data: { clientId: 'c1', tenant: 'acme', secretHash: 'scrypt$new', rotatedAt: later },
    },
    { type: 'ClientDisabled', data: { clientId: 'c1', tenant: 'acme', disabledAt: later } },
  ]);
  assert.ok(state.status === 'exists');
  assert.is(state.client.appName, undefined);
  assert.equal(state.client.scopes, []);
  assert.is(state.client.secretHash, 'scrypt$new');
  assert.is(state.client.status, 'disabled');
  assert.is(state.secretRotatedAt, later);
});

test.run();
