import { test } from 'uvu';
import * as assert from 'uvu/assert';
import {
  type ApiDestination,
  type ApiDestinationEvent,
  apiDestinationDecider,
  apiDestinationStream,
} from '../../../domain/bridge/api-destination.decider.ts';
import { checkUrlTemplate, renderDestinationUrl } from '../../../domain/bridge/destination-url.ts';
import { fold } from '../../../domain/core/decider.ts';
import { deciderSpec } from '../../core/decider-spec.ts';

const spec = deciderSpec(apiDestinationDecider);
const now = '2026-03-01T10:00:00.000Z';
const later = '2026-03-01T11:00:00.000Z';
const claims: ApiDestination = {
  tenant: 'acme',
  name: 'claims',
  urlTemplate: {
    url: 'https://api.acme.example/${region}/claims/${claimId}',
    variables: { region: 'config:claims.region', claimId: '$.data.claimId' },
  },
  method: 'POST',
  connection: 'claims-api',
};
const created: ApiDestinationEvent = { type: 'ApiDestinationCreated', data: { destination: claims, createdAt: now } };
const create = (o: Partial<ApiDestination> = {}) => ({ type: 'CreateApiDestination' as const, ...claims, ...o, now });

test('stream name', () => {
  assert.is(apiDestinationStream('acme', 'claims'), 'apiDestination-acme.claims');
});

test('create: ApiDestinationCreated; twice: 409', () => {
  spec.given([]).when(create()).then([created]);
  spec.given([created]).when(create()).thenThrows('API_DESTINATION.EXISTS', 409);
});

test('create: bad fields are a 400 naming them', () => {
  spec
    .given([])
    .when(create({ method: 'TRACE' as never }))
    .thenThrows('API_DESTINATION.INVALID', 400);
  spec
    .given([])
    .when(create({ timeoutMs: 10 }))
    .thenThrows('API_DESTINATION.INVALID', 400);
  spec
    .given([])
    .when(create({ urlTemplate: { url: 'https://x/${undefinedVar}', variables: {} } }))
    .thenThrows('API_DESTINATION.INVALID', 400);
  spec
    .given([])
    .when(create({ urlTemplate: { url: 'ftp://x/${a}', variables: { a: '$.data.a' } } }))
    .thenThrows('API_DESTINATION.INVALID', 400);
  spec
    .given([])
    .when(create({ urlTemplate: { url: 'https://user:pw@x/', variables: {} } }))
    .thenThrows('API_DESTINATION.INVALID', 400);
  spec
    .given([])
    .when(create({ connection: 'bad name' }))
    .thenThrows('API_DESTINATION.INVALID', 400);
});

test('update: only what is given; null removes; nothing changed records nothing; delete', () => {
  const updated = (d: ApiDestination): ApiDestinationEvent => ({
    type: 'ApiDestinationUpdated',
    data: { destination: d, updatedAt: later },
  });
  spec
    .given([created])
    .when({ type: 'UpdateApiDestination', changes: { method: 'PUT' }, now: later })
    .then([updated({ ...claims, method: 'PUT' })]);
  const { connection: _c, ...withoutConnection } = claims;
  spec
    .given([created])
    .when({ type: 'UpdateApiDestination', changes: { connection: null, timeoutMs: 2000 }, now: later })
    .then([updated({ ...withoutConnection, timeoutMs: 2000 })]);
  spec
    .given([created])
    .when({ type: 'UpdateApiDestination', changes: { method: 'POST' }, now: later })
    .then([]);
  spec
    .given([])
    .when({ type: 'UpdateApiDestination', changes: { method: 'PUT' }, now: later })
    .thenThrows('API_DESTINATION.NOT_FOUND', 404);
  spec
    .given([created])
    .when({ type: 'DeleteApiDestination', now: later })
    .then([{ type: 'ApiDestinationDeleted', data: { tenant: 'acme', name: 'claims', at: later } }]);
  spec.given([]).when({ type: 'DeleteApiDestination', now: later }).thenThrows('API_DESTINATION.NOT_FOUND', 404);
});

test('URL template check: the spec example ${param_a}${param_b} from configuration and JSONPath is accepted', () => {
  assert.equal(
    checkUrlTemplate({
      url: '${param_a}${param_b}',
      variables: { param_a: 'config:claims.base', param_b: '$.data.path' },
    }),
    [],
  );
  assert.equal(checkUrlTemplate({ url: 'https://api.example/claims', variables: {} }), []);
  const fields = (t: unknown) => checkUrlTemplate(t).map((v) => v.field);
  assert.equal(fields({ url: 'https://x/${a}', variables: { a: 'config:bad key' } }), ['urlTemplate.variables.a']);
  assert.equal(fields({ url: 'https://x/${a}', variables: { a: '$..[?(@.x)]' } }), ['urlTemplate.variables.a']);
  assert.equal(fields({ url: 'not a url', variables: {} }), ['urlTemplate.url']);
  assert.equal(fields({ url: '${a}/x', variables: { a: 'mailto:someone' } }), ['urlTemplate.url']);
});

test('URL rendering: config and constants raw, event values encoded once the origin is there', async () => {
  const event = { data: { claimId: 'C 1/2?x', region: 'eu', base: 'https://evil.example' } };
  const config = async (key: string) =>
    ({ 'claims.region': 'eu-west', 'claims.base': 'https://api.acme.example' })[key];
  assert.equal(await renderDestinationUrl(event, claims.urlTemplate, config), {
    ok: true,
    url: 'https://api.acme.example/eu-west/claims/C%201%2F2%3Fx',
  });
  // the spec's style: the origin from configuration, the rest from the event (raw while the origin is being built)
  assert.equal(
    await renderDestinationUrl(
      { data: { path: '/claims/C1' } },
      { url: '${a}${b}', variables: { a: 'config:claims.base', b: '$.data.path' } },
      config,
    ),
    {
      ok: true,
      url: 'https://api.acme.example/claims/C1',
    },
  );
});

test('URL rendering failures: a hole, an unset key, an object, a non-http result', async () => {
  const none = async () => undefined;
  const r1 = await renderDestinationUrl({ data: {} }, { url: 'https://x/${a}', variables: { a: '$.data.a' } }, none);
  assert.is(r1.ok, false);
  const r2 = await renderDestinationUrl({}, { url: 'https://x/${a}', variables: { a: 'config:k' } }, none);
  assert.ok(!r2.ok && /configuration key k/.test(r2.error));
  const r3 = await renderDestinationUrl(
    { data: { a: { b: 1 } } },
    { url: 'https://x/${a}', variables: { a: '$.data.a' } },
    none,
  );
  assert.is(r3.ok, false);
  const r4 = await renderDestinationUrl(
    { data: { a: 'file:///etc/passwd' } },
    { url: '${a}', variables: { a: '$.data.a' } },
    none,
  );
  assert.ok(!r4.ok && /http/.test(r4.error));
  const r5 = await renderDestinationUrl({}, { url: 'https://x/$${a}', variables: {} }, none);
  assert.equal(r5, { ok: true, url: 'https://x/${a}' });
});

// signing secrets reach the decider sealed (commands/bridge/api-destinations.commands.ts): these stand for such
const SEALED_1 = 'enc:v1:c2FsdA.aXY.dGFn.b25l';
const SEALED_2 = 'enc:v1:c2FsdA.aXY.dGFn.dHdv';
const signed: ApiDestinationEvent = {
  type: 'ApiDestinationCreated',
  data: { destination: claims, createdAt: now, signingSecret: SEALED_1 },
};
const rotate = (secret: string, overlapSeconds: number, at = later) => ({
  type: 'RotateApiDestinationSigningSecret' as const,
  secret,
  overlapSeconds,
  now: at,
});

test('signing: created with its sealed secret; an unsealed one is a programming error', () => {
  spec
    .given([])
    .when(create({ signingSecret: SEALED_1 } as never))
    .then([signed]);
  assert.throws(
    () =>
      apiDestinationDecider.decide({ ...create(), signingSecret: 'whsec_clear' }, apiDestinationDecider.initialState()),
    /unsealed/,
  );
  const state = fold(apiDestinationDecider, [signed]);
  assert.equal(state.status === 'exists' && state.signing, { current: SEALED_1 });
});

test('signing: a rotation keeps the previous secret for the overlap; 0 ends it at once; an update keeps both', () => {
  spec
    .given([signed])
    .when(rotate(SEALED_2, 86_400))
    .then([
      {
        type: 'ApiDestinationSigningSecretRotated',
        data: {
          tenant: 'acme',
          name: 'claims',
          secret: SEALED_2,
          previousValidUntil: '2026-03-02T11:00:00.000Z',
          at: later,
        },
      },
    ]);
  spec
    .given([signed])
    .when(rotate(SEALED_2, 0))
    .then([
      {
        type: 'ApiDestinationSigningSecretRotated',
        data: { tenant: 'acme', name: 'claims', secret: SEALED_2, previousValidUntil: null, at: later },
      },
    ]);
  const rotated: ApiDestinationEvent = {
    type: 'ApiDestinationSigningSecretRotated',
    data: {
      tenant: 'acme',
      name: 'claims',
      secret: SEALED_2,
      previousValidUntil: '2026-03-02T11:00:00.000Z',
      at: later,
    },
  };
  const updated: ApiDestinationEvent = {
    type: 'ApiDestinationUpdated',
    data: { destination: { ...claims, method: 'PUT' }, updatedAt: later },
  };
  const state = fold(apiDestinationDecider, [signed, rotated, updated]);
  assert.equal(state.status === 'exists' && state.signing, {
    current: SEALED_2,
    previous: { secret: SEALED_1, validUntil: '2026-03-02T11:00:00.000Z' },
  });
  // the definition is unchanged by a rotation
  assert.equal(state.status === 'exists' && state.destination, { ...claims, method: 'PUT' });
});

test('signing: a destination recorded before signing gets its first secret by a rotation (no previous); refusals', () => {
  spec
    .given([created])
    .when(rotate(SEALED_2, 86_400))
    .then([
      {
        type: 'ApiDestinationSigningSecretRotated',
        data: { tenant: 'acme', name: 'claims', secret: SEALED_2, previousValidUntil: null, at: later },
      },
    ]);
  spec.given([]).when(rotate(SEALED_2, 60)).thenThrows('API_DESTINATION.NOT_FOUND', 404);
  spec.given([signed]).when(rotate(SEALED_2, -1)).thenThrows('API_DESTINATION.INVALID', 400);
  spec
    .given([signed])
    .when(rotate(SEALED_2, 8 * 86_400))
    .thenThrows('API_DESTINATION.INVALID', 400);
  assert.throws(
    () => apiDestinationDecider.decide(rotate('whsec_clear', 60), fold(apiDestinationDecider, [signed])),
    /unsealed/,
  );
});

test.run();
