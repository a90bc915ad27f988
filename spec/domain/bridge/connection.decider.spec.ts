import { test } from 'uvu';
import * as assert from 'uvu/assert';
import {
  type Connection,
  type ConnectionEvent,
  checkAuth,
  configKeyOf,
  connectionDecider,
  connectionStream,
  maskConnectionAuth,
} from '../../../domain/bridge/connection.decider.ts';
import { isDomainError } from '../../../domain/core/domain-error.ts';
import { isSealed } from '../../../domain/core/sealed-secret.ts';
import { deciderSpec } from '../../core/decider-spec.ts';

const spec = deciderSpec(connectionDecider);
const now = '2026-03-01T10:00:00.000Z';
const later = '2026-03-01T11:00:00.000Z';
const sealed = (n: string) => `enc:v1:salt${n}.iv${n}.tag${n}.ct${n}`;

const create = (auth: Record<string, unknown>, o: { name?: string; description?: string } = {}) => ({
  type: 'CreateConnection' as const,
  tenant: 'acme',
  name: o.name ?? 'claims-api',
  ...(o.description !== undefined && { description: o.description }),
  auth,
  now,
});
const created = (connection: Omit<Connection, 'tenant' | 'name'> & { name?: string }): ConnectionEvent => ({
  type: 'ConnectionCreated',
  data: { connection: { tenant: 'acme', name: 'claims-api', ...connection } as Connection, createdAt: now },
});
const basic = created({ auth: { kind: 'BASIC', username: 'svc', password: sealed('1') } });

/** the field names of a CONNECTION.INVALID error */
const invalidFields = (run: () => unknown): string[] => {
  try {
    run();
  } catch (err) {
    assert.ok(isDomainError(err), String(err));
    assert.is(err.code, 'CONNECTION.INVALID');
    return (err.details as Array<{ field: string }>).map((d) => d.field).sort();
  }
  throw new assert.Assertion({ message: 'expected CONNECTION.INVALID' } as never);
};

test('stream name and sealed-secret shape', () => {
  assert.is(connectionStream('acme', 'claims-api'), 'connection-acme.claims-api');
  assert.ok(isSealed(sealed('x')));
  for (const s of ['secret', 'enc:v1:', 'enc:v1:a.b.c', 'enc:v2:a.b.c.d', 'enc:v1:a b.c.d.e'])
    assert.not.ok(isSealed(s), s);
});

test('create each kind: ConnectionCreated with the sealed secrets and defaults', () => {
  spec
    .given([])
    .when(create({ kind: 'BASIC', username: 'svc', password: sealed('1') }))
    .then([basic]);
  spec
    .given([])
    .when(create({ kind: 'BEARER', source: 'caller' }))
    .then([created({ auth: { kind: 'BEARER', source: 'caller' } })]);
  spec
    .given([])
    .when(create({ kind: 'BEARER', source: 'fixed', token: sealed('t') }))
    .then([created({ auth: { kind: 'BEARER', source: 'fixed', token: sealed('t') } })]);
  // the spec writes the configuration key as ${alert.token}: both spellings are the key alert.token
  spec
    .given([])
    .when(create({ kind: 'BEARER', source: 'config', key: '${alert.token}' }))
    .then([created({ auth: { kind: 'BEARER', source: 'config', key: 'alert.token' } })]);
  spec
    .given([])
    .when(create({ kind: 'BEARER', source: 'jsonpath', path: '$.data.token' }))
    .then([created({ auth: { kind: 'BEARER', source: 'jsonpath', path: '$.data.token' } })]);
  spec
    .given([])
    .when(
      create({
        kind: 'OAUTH_CLIENT_CREDENTIALS',
        tokenUrl: 'https://idp.example/token',
        clientId: 'c1',
        clientSecret: sealed('s'),
        params: { resource: 'r' },
      }),
    )
    .then([
      created({
        auth: {
          kind: 'OAUTH_CLIENT_CREDENTIALS',
          tokenUrl: 'https://idp.example/token',
          clientId: 'c1',
          clientSecret: sealed('s'),
          method: 'POST',
          clientAuth: 'client_secret_basic',
          params: { resource: 'r' },
        },
      }),
    ]);
  spec
    .given([])
    .when(create({ kind: 'API_KEY', headerName: 'X-Api-Key', value: sealed('k') }))
    .then([created({ auth: { kind: 'API_KEY', headerName: 'X-Api-Key', value: sealed('k') } })]);
});

test('a secret that reaches the decider unsealed is a programming error, never recorded', () => {
  assert.throws(
    () =>
      connectionDecider.decide(
        create({ kind: 'BASIC', username: 'svc', password: 'clear-text' }),
        connectionDecider.initialState(),
      ),
    /unsealed/,
  );
  assert.throws(
    () =>
      connectionDecider.decide(
        create({ kind: 'API_KEY', headerName: 'X-Key', value: 'clear' }),
        connectionDecider.initialState(),
      ),
    /unsealed/,
  );
});

test('bad input: CONNECTION.INVALID naming every bad field', () => {
  const s = connectionDecider.initialState();
  assert.equal(
    invalidFields(() => connectionDecider.decide(create({ kind: 'NTLM' }), s)),
    ['auth.kind'],
  );
  assert.equal(
    invalidFields(() => connectionDecider.decide(create({ kind: 'BASIC' }), s)),
    ['auth.password', 'auth.username'],
  );
  assert.equal(
    invalidFields(() =>
      connectionDecider.decide(
        create({ kind: 'BASIC', username: 'a:b', password: sealed('1'), token: sealed('2') }),
        s,
      ),
    ),
    ['auth.token', 'auth.username'],
  );
  assert.equal(
    invalidFields(() => connectionDecider.decide(create({ kind: 'BEARER', source: 'config', key: 'bad key' }), s)),
    ['auth.key'],
  );
  assert.equal(
    invalidFields(() =>
      connectionDecider.decide(create({ kind: 'BEARER', source: 'jsonpath', path: 'data.token' }), s),
    ),
    ['auth.path'],
  );
  assert.equal(
    invalidFields(() => connectionDecider.decide(create({ kind: 'BEARER', source: 'caller', path: '$.x' }), s)),
    ['auth.path'],
  );
  assert.equal(
    invalidFields(() => connectionDecider.decide(create({ kind: 'BEARER', source: 'session' }), s)),
    ['auth.source'],
  );
  assert.equal(
    invalidFields(() =>
      connectionDecider.decide(
        create({
          kind: 'OAUTH_CLIENT_CREDENTIALS',
          tokenUrl: 'ftp://x',
          clientId: 'c',
          clientSecret: sealed('s'),
          method: 'PUT',
          clientAuth: 'jwt',
          params: { grant_type: 'x' },
        }),
        s,
      ),
    ),
    ['auth.clientAuth', 'auth.method', 'auth.params.grant_type', 'auth.tokenUrl'],
  );
  assert.equal(
    invalidFields(() =>
      connectionDecider.decide(
        create({
          kind: 'OAUTH_CLIENT_CREDENTIALS',
          tokenUrl: 'https://u:p@idp/token',
          clientId: 'c',
          clientSecret: sealed('s'),
        }),
        s,
      ),
    ),
    ['auth.tokenUrl'],
  );
  assert.equal(
    invalidFields(() =>
      connectionDecider.decide(create({ kind: 'API_KEY', headerName: 'Bad Header', value: sealed('k') }), s),
    ),
    ['auth.headerName'],
  );
  assert.equal(
    invalidFields(() =>
      connectionDecider.decide(create({ kind: 'API_KEY', headerName: 'X-Delivery-Id', value: sealed('k') }), s),
    ),
    ['auth.headerName'],
  );
  assert.equal(
    invalidFields(() =>
      connectionDecider.decide(create({ kind: 'BEARER', source: 'caller' }, { name: 'bad name' }), s),
    ),
    ['name'],
  );
});

test('create over an existing connection: 409; after deletion the name is free again', () => {
  const deleted: ConnectionEvent = { type: 'ConnectionDeleted', data: { tenant: 'acme', name: 'claims-api', at: now } };
  spec
    .given([basic])
    .when(create({ kind: 'BEARER', source: 'caller' }))
    .thenThrows('CONNECTION.EXISTS', 409);
  spec
    .given([basic, deleted])
    .when(create({ kind: 'BASIC', username: 'svc', password: sealed('1') }))
    .then([basic]);
});

test('update: a left-out secret is kept for the same kind, required when the kind changes', () => {
  const update = (auth: Record<string, unknown>) => ({
    type: 'UpdateConnection' as const,
    changes: { auth },
    now: later,
  });
  const updated = (connection: Partial<Connection>): ConnectionEvent => ({
    type: 'ConnectionUpdated',
    data: { connection: { tenant: 'acme', name: 'claims-api', ...connection } as Connection, updatedAt: later },
  });
  spec
    .given([basic])
    .when(update({ kind: 'BASIC', username: 'other' }))
    .then([updated({ auth: { kind: 'BASIC', username: 'other', password: sealed('1') } })]);
  spec
    .given([basic])
    .when(update({ kind: 'BASIC', username: 'svc', password: sealed('2') }))
    .then([updated({ auth: { kind: 'BASIC', username: 'svc', password: sealed('2') } })]);
  spec
    .given([basic])
    .when(update({ kind: 'BASIC', username: 'svc' }))
    .then([]); // nothing changed
  spec
    .given([basic])
    .when(update({ kind: 'API_KEY', headerName: 'X-Key' }))
    .thenThrows('CONNECTION.INVALID', 400);
  spec
    .given([basic])
    .when({ type: 'UpdateConnection', changes: { description: 'the claims API' }, now: later })
    .then([
      updated({ description: 'the claims API', auth: { kind: 'BASIC', username: 'svc', password: sealed('1') } }),
    ]);
  spec
    .given([])
    .when(update({ kind: 'BEARER', source: 'caller' }))
    .thenThrows('CONNECTION.NOT_FOUND', 404);
});

test('delete: ConnectionDeleted; absent: 404', () => {
  spec
    .given([basic])
    .when({ type: 'DeleteConnection', now: later })
    .then([{ type: 'ConnectionDeleted', data: { tenant: 'acme', name: 'claims-api', at: later } }]);
  spec.given([]).when({ type: 'DeleteConnection', now: later }).thenThrows('CONNECTION.NOT_FOUND', 404);
});

test('masking: every secret becomes ******, the rest stays', () => {
  assert.equal(maskConnectionAuth({ kind: 'BASIC', username: 'svc', password: sealed('1') }), {
    kind: 'BASIC',
    username: 'svc',
    password: '******',
  });
  assert.equal(maskConnectionAuth({ kind: 'BEARER', source: 'fixed', token: sealed('1') }), {
    kind: 'BEARER',
    source: 'fixed',
    token: '******',
  });
  assert.equal(maskConnectionAuth({ kind: 'BEARER', source: 'config', key: 'a.b' }), {
    kind: 'BEARER',
    source: 'config',
    key: 'a.b',
  });
  assert.equal(maskConnectionAuth({ kind: 'API_KEY', headerName: 'X-Key', value: sealed('1') }), {
    kind: 'API_KEY',
    headerName: 'X-Key',
    value: '******',
  });
  const oauth = checkAuth(
    {
      kind: 'OAUTH_CLIENT_CREDENTIALS',
      tokenUrl: 'https://idp/token',
      clientId: 'c',
      clientSecret: sealed('1'),
      method: 'GET',
    },
    undefined,
  );
  assert.is((maskConnectionAuth(oauth) as { clientSecret: string }).clientSecret, '******');
  assert.is(configKeyOf(' ${alert.token} '), 'alert.token');
});

test.run();
